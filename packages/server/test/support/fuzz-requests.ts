import fc from "fast-check";
import {
  bodyText,
  hostileJsonValue,
  hostileTextValue,
  plausibleValue,
  type JsonSchema,
  type WorldValues,
} from "./fuzz-values.ts";

/**
 * Requests generated from the OpenAPI document: a plausible request for an operation (values from
 * the schemas, or from the test world where a field names something that exists), then, most of
 * the time, one hostile change to it. The document is the only description of the surface used,
 * so an operation added to the contract is fuzzed without a line here.
 */

export interface DocumentedParameter {
  in: "query" | "path" | "header" | "cookie";
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface DocumentedOperation {
  operationId: string;
  method: string;
  /** OpenAPI path, `{name}` for path parameters. */
  path: string;
  parameters: DocumentedParameter[];
  body?: JsonSchema;
  security: Array<Record<string, string[]>>;
  errorSchemas: Record<string, JsonSchema>;
}

/** A request ready for `app.inject`: the body is raw text, so that it can be anything. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** What was done to the plausible request, for the report of a failure. */
  change: string;
}

/** Reads every operation out of an OpenAPI 3.1 document. */
export function documentedOperations(document: {
  paths: Record<string, Record<string, Record<string, unknown>>>;
}): DocumentedOperation[] {
  const operations: DocumentedOperation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const body = (operation.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)
        ?.content?.["application/json"]?.schema;
      const responses = operation.responses as Record<
        string,
        { content?: Record<string, { schema: JsonSchema }> }
      >;
      const errorSchemas: Record<string, JsonSchema> = {};
      for (const [status, response] of Object.entries(responses)) {
        const schema = response.content?.["application/json"]?.schema;
        if (/^[45]/.test(status) && schema) errorSchemas[status] = schema;
      }
      operations.push({
        operationId: String(operation.operationId),
        method: method.toUpperCase(),
        path,
        parameters: (operation.parameters as DocumentedParameter[] | undefined) ?? [],
        ...(body ? { body } : {}),
        security: (operation.security as Array<Record<string, string[]>> | undefined) ?? [],
        errorSchemas,
      });
    }
  }
  return operations;
}

type Change =
  | { kind: "none" }
  | { kind: "field"; where: "body" | "query" | "path"; pick: number; value: unknown }
  | { kind: "unknown-field"; value: unknown }
  | { kind: "whole-body"; text: string; label: string }
  | { kind: "content-type"; type: string }
  | { kind: "repeated-query"; pick: number };

const WHOLE_BODIES: Array<[string, string]> = [
  ["{", "truncated JSON"],
  ["{'a': 1}", "single quotes"],
  ['{"a": 1,}', "trailing comma"],
  ["[]", "an array"],
  ["null", "null"],
  ["1e309", "a raw 1e309"],
  ['"text"', "a string"],
  [`${"[".repeat(20_000)}${"]".repeat(20_000)}`, "20,000 nested arrays"],
  [`${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}`, "20,000 nested objects"],
  ['{"a":"\\ud800"}', "a lone surrogate"],
  ["\u0000", "a NUL byte"],
];

/** One request for an operation: plausible, and most of the time with one hostile change. */
export function fuzzRequest(
  operation: DocumentedOperation,
  world: WorldValues,
  credentials: Record<string, string>,
): fc.Arbitrary<FuzzRequest> {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === "path");
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === "query");
  const query = fc.record(
    Object.fromEntries(
      queryParameters.map((parameter) => [
        parameter.name,
        plausibleValue(parameter.schema, parameter.name, world),
      ]),
    ),
    {
      requiredKeys: queryParameters
        .filter((parameter) => parameter.required)
        .map((parameter) => parameter.name),
    },
  );
  // Path parameters name things the sandbox may change or revoke: only the world's own
  // bystanders (`path:name`), never a generated id that could be the caller's own token.
  const path = fc.record(
    Object.fromEntries(
      pathParameters.map((parameter) => {
        const known = world[`path:${parameter.name}`];
        const value = known?.length
          ? fc.constantFrom(...known)
          : plausibleValue(parameter.schema, parameter.name, world);
        return [parameter.name, value];
      }),
    ),
  );
  const body = operation.body ? plausibleValue(operation.body, "body", world) : fc.constant(undefined);
  const changes: Array<fc.WeightedArbitrary<Change>> = [
    { weight: 2, arbitrary: fc.constant({ kind: "none" as const }) },
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant("unknown-field" as const), value: hostileJsonValue() }),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...WHOLE_BODIES)
        .map(([text, label]) => ({ kind: "whole-body" as const, text, label })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "application/json; charset=utf-16",
          "application/jsonx",
        )
        .map((type) => ({ kind: "content-type" as const, type })),
    },
  ];
  if (operation.body)
    changes.push({
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant("field" as const),
        where: fc.constant("body" as const),
        pick: fc.nat(),
        value: hostileJsonValue(),
      }),
    });
  if (queryParameters.length > 0) {
    changes.push({
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant("field" as const),
        where: fc.constant("query" as const),
        pick: fc.nat(),
        value: hostileTextValue(),
      }),
    });
    changes.push({
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant("repeated-query" as const), pick: fc.nat() }),
    });
  }
  if (pathParameters.length > 0)
    changes.push({
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant("field" as const),
        where: fc.constant("path" as const),
        pick: fc.nat(),
        value: hostileTextValue(),
      }),
    });
  return fc
    .record({ query, path, body, change: fc.oneof(...changes), leafPick: fc.nat() })
    .map(({ query, path, body, change, leafPick }) =>
      assemble(operation, credentials, { query, path, body, change, leafPick }),
    );
}

function assemble(
  operation: DocumentedOperation,
  credentials: Record<string, string>,
  parts: {
    query: Record<string, unknown>;
    path: Record<string, unknown>;
    body: unknown;
    change: Change;
    leafPick: number;
  },
): FuzzRequest {
  const { change } = parts;
  const query: Record<string, unknown> = { ...parts.query };
  const path: Record<string, unknown> = { ...parts.path };
  let body = structuredClone(parts.body);
  let label = "plausible";
  let repeated: string | undefined;
  if (change.kind === "field" && change.where === "query") {
    const names =
      Object.keys(query).length > 0
        ? Object.keys(query)
        : operation.parameters.filter((p) => p.in === "query").map((p) => p.name);
    const name = names[change.pick % names.length] as string;
    query[name] = change.value;
    label = `query ${name}=${JSON.stringify(change.value).slice(0, 60)}`;
  } else if (change.kind === "field" && change.where === "path") {
    const names = Object.keys(path);
    const name = names[change.pick % names.length] as string;
    path[name] = change.value;
    label = `path ${name}=${JSON.stringify(change.value).slice(0, 60)}`;
  } else if (change.kind === "field" && change.where === "body") {
    const replaced = replaceLeaf(body ?? {}, change.pick, change.value);
    body = replaced.value;
    label = `body ${replaced.at}=${bodyText(change.value).slice(0, 60)}`;
  } else if (change.kind === "unknown-field") {
    if (typeof body === "object" && body !== null && !Array.isArray(body))
      body = { ...body, unexpected_field: change.value };
    else body = { unexpected_field: change.value };
    label = "an unknown body field";
  } else if (change.kind === "repeated-query") {
    const names = operation.parameters.filter((p) => p.in === "query").map((p) => p.name);
    repeated = names[change.pick % names.length];
    label = `query ${repeated} given twice`;
  }
  let url = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(String(path[name]).toWellFormed()),
  );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) search.append(name, String(value));
  if (repeated) search.append(repeated, String(query[repeated] ?? "1"));
  const queryText = search.toString();
  if (queryText) url += `?${queryText}`;

  const headers: Record<string, string> = { ...credentials };
  let payload: string | undefined;
  if (change.kind === "whole-body") {
    payload = change.text;
    headers["content-type"] = "application/json";
    label = `body: ${change.label}`;
  } else if (body !== undefined || change.kind === "unknown-field") {
    payload = bodyText(body);
    headers["content-type"] = "application/json";
  }
  if (change.kind === "content-type") {
    payload = payload ?? "{}";
    headers["content-type"] = change.type;
    label = `Content-Type: ${change.type}`;
  }
  return {
    method: operation.method,
    url,
    headers,
    ...(payload === undefined ? {} : { payload }),
    change: label,
  };
}

/** Replaces one leaf (or one whole subtree) of a JSON value, chosen by `pick`, and names it. */
function replaceLeaf(value: unknown, pick: number, replacement: unknown): { value: unknown; at: string } {
  const slots: Array<{ at: string; set: (next: unknown) => void }> = [];
  const root = { value };
  const visit = (holder: Record<string | number, unknown>, key: string | number, at: string) => {
    slots.push({ at, set: (next) => (holder[key] = next) });
    const child = holder[key];
    if (Array.isArray(child)) child.forEach((_, index) => visit(child as never, index, `${at}[${index}]`));
    else if (typeof child === "object" && child !== null)
      for (const childKey of Object.keys(child))
        visit(child as never, childKey, at ? `${at}.${childKey}` : childKey);
  };
  visit(root as never, "value", "");
  // The root itself is chosen rarely; its fields most of the time.
  const candidates = slots.length > 1 ? slots.slice(1) : slots;
  const slot = candidates[pick % candidates.length] as (typeof slots)[number];
  slot.set(replacement);
  return { value: root.value, at: slot.at || "(the whole body)" };
}
