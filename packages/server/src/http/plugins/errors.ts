import type { FastifyError, FastifyInstance } from "fastify";
import { IdempotencyKeyTakenOver } from "../../domain/idempotency/idempotency-keys.ts";
import type { Failure } from "../../domain/result.ts";
import { envelopeForPath, HttpFailure, sendFailure } from "../failure.ts";

interface ValidationIssue {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
  parentSchema?: { description?: string };
}

/**
 * One place renders every error. Expected failures keep their code; validation errors become
 * `Invalid Argument` naming the field; anything unexpected becomes `Internal Error` with the
 * request id and no internals (the details go to the log).
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpFailure, request, reply) => {
    const envelope = request.routeOptions.config?.envelope ?? envelopeForPath(request.url);
    if (error instanceof HttpFailure) {
      return sendFailure(reply, envelope, error.failure, error.extra);
    }
    const known = describeClientError(error);
    if (known) return sendFailure(reply, envelope, known);
    // A request whose key a retry took over committed nothing (docs/design.md section 6).
    if (error instanceof IdempotencyKeyTakenOver)
      return sendFailure(reply, envelope, { code: "Invalid State", message: error.message });
    request.log.error({ err: error }, "request failed");
    // Changes committed before the failure stand; the caller must not take the 500 for "nothing".
    const committed =
      (request.ctx?.effects?.committed ?? 0) > 0 ? " after committing changes, which stand" : "";
    return sendFailure(
      reply,
      envelope,
      {
        code: "Internal Error",
        message: `internal error${committed}; quote request id ${request.id} when reporting it`,
      },
      { request_id: request.id },
    );
  });

  app.setNotFoundHandler((request, reply) =>
    sendFailure(reply, envelopeForPath(request.url), {
      code: "Path Not Found",
      message: `no operation at ${request.method} ${request.url.split("?")[0]}`,
    }),
  );
}

function describeClientError(error: FastifyError): Failure | undefined {
  if (error.validation) {
    return {
      code: "Invalid Argument",
      message: describeValidation(error.validation, error.validationContext),
    };
  }
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { code: "Payload Too Large", message: "body: larger than the 1 MiB limit" };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { code: "Unsupported Media Type", message: "body: send Content-Type: application/json" };
  }
  return undefined;
}

function describeValidation(issues: ValidationIssue[], context: string | undefined): string {
  const issue = issues[0];
  if (!issue) return `${context ?? "request"}: invalid`;
  const path = issue.instancePath.replace(/^\//, "").replaceAll("/", ".");
  if (issue.keyword === "additionalProperties") {
    const extra = String(issue.params.additionalProperty);
    return `${path ? `${path}.` : ""}${extra}: unknown field`;
  }
  if (issue.keyword === "required") {
    const missing = String(issue.params.missingProperty);
    return `${path ? `${path}.` : ""}${missing}: required`;
  }
  const field = path || context || "request";
  // A pattern means nothing to a caller; the schema's description says what is expected.
  if (issue.keyword === "pattern") {
    return `${field}: must be ${issue.parentSchema?.description ?? "in the documented form"}`;
  }
  if (issue.keyword === "enum" && Array.isArray(issue.params.allowedValues)) {
    return `${field}: must be one of ${issue.params.allowedValues.join(", ")}`;
  }
  // A union reports one issue per branch and then `anyOf`: name the forms it accepts.
  const branches = issues.filter(
    (other) => other.instancePath === issue.instancePath && other.keyword !== "anyOf",
  );
  if (issues.some((other) => other.keyword === "anyOf" && other.instancePath === issue.instancePath)) {
    const forms = branches.map((branch) =>
      branch.keyword === "const"
        ? JSON.stringify(branch.params.allowedValue)
        : String(branch.params.type ?? branch.message),
    );
    return `${field}: must be ${[...new Set(forms)].join(" or ")}`;
  }
  return `${field}: ${issue.message ?? "invalid"}`;
}
