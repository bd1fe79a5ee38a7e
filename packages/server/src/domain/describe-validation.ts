import { TEXT_PATTERN_MESSAGES } from "@skinmarket/contract";

/**
 * How a schema's refusal is said: the field and the rule it broke (`scenario.effects.0.share: must
 * be <= 1`). The error handler says it of a request; a scenario file of the user's scenarios
 * folder is checked against the same schema and its mistakes are said the same way.
 */
export interface ValidationIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  schemaPath?: string;
  /** With Ajv's `verbose`: the value and the schema the issue is about. */
  data?: unknown;
  schema?: unknown;
  params: Record<string, unknown>;
  parentSchema?: { description?: string };
}

/** The first issue Ajv reported (with `verbose`), as `field: rule`; `context` names the whole value. */
export function describeValidation(given: ValidationIssue[], context: string | undefined): string {
  const issues = matchedBranch(given);
  const issue = issues[0];
  if (!issue) return `${context ?? "request"}: invalid`;
  const path = issue.instancePath.replace(/^\//, "").replaceAll("/", ".");
  const prefix = path ? `${path}.` : "";
  // A union reports one issue per branch and then `anyOf`.
  const union = issues.some(
    (other) => other.keyword === "anyOf" && other.instancePath === issue.instancePath,
  );
  const branches = issues.filter(
    (other) => other.instancePath === issue.instancePath && other.keyword !== "anyOf",
  );
  // An object that needs one of several fields (`needingOneOf`): each branch misses one.
  if (union && branches.every((branch) => branch.keyword === "required")) {
    const missing = branches.map((branch) => String(branch.params.missingProperty));
    return `${prefix}${missing[0]}: give ${missing.join(" or ")}`;
  }
  if (issue.keyword === "additionalProperties") {
    return `${prefix}${String(issue.params.additionalProperty)}: unknown field`;
  }
  if (issue.keyword === "required") return `${prefix}${String(issue.params.missingProperty)}: required`;
  const field = path || context || "request";
  if (union) {
    // A value of one branch's type broke that branch's other rules (an amount as text with a
    // control character, a number beyond the maximum): that is what the caller should hear.
    const ofItsType = branches.find((branch) => branch.keyword !== "type" && branch.keyword !== "const");
    if (ofItsType) return describeIssue(ofItsType, field);
    const forms = branches.map((branch) =>
      branch.keyword === "const"
        ? JSON.stringify(branch.params.allowedValue)
        : String(branch.params.type ?? branch.message),
    );
    return `${field}: must be ${[...new Set(forms)].join(" or ")}`;
  }
  return describeIssue(issue, field);
}

/**
 * A union of objects told apart by a constant field (a scenario's effects, by `type`): the issues
 * of the branch whose constant matched are what the caller should hear, not the first branch's.
 */
function matchedBranch(issues: ValidationIssue[]): ValidationIssue[] {
  const told = (issue: ValidationIssue) => {
    if (issue.keyword !== "anyOf" || !issue.schemaPath || !Array.isArray(issue.schema)) return -1;
    const type = (issue.data as { type?: unknown } | null)?.type;
    if (typeof type !== "string") return -1;
    return (issue.schema as Array<{ properties?: { type?: { const?: unknown } } }>).findIndex(
      (branch) => branch.properties?.type?.const === type,
    );
  };
  // The outermost such union (an effect), not a union inside one of its fields.
  const union = issues
    .filter((issue) => told(issue) >= 0)
    .sort((a, b) => a.instancePath.length - b.instancePath.length)[0];
  if (!union) return issues;
  const prefix = `${union.schemaPath}/${told(union)}/`;
  const matched = issues.filter((issue) => issue.schemaPath?.startsWith(prefix));
  return matched.length > 0 ? matched : issues;
}

function describeIssue(issue: ValidationIssue, field: string): string {
  // A pattern means nothing to a caller: the text rules have their own words, other patterns
  // the schema's description of what is expected.
  if (issue.keyword === "pattern") {
    const textRule = TEXT_PATTERN_MESSAGES[String(issue.params.pattern)];
    if (textRule) return `${field}: ${textRule}`;
    return `${field}: must be ${issue.parentSchema?.description ?? "in the documented form"}`;
  }
  if (issue.keyword === "enum" && Array.isArray(issue.params.allowedValues)) {
    return `${field}: must be one of ${issue.params.allowedValues.join(", ")}`;
  }
  return `${field}: ${issue.message ?? "invalid"}`;
}
