import * as contract from "@skinmarket/contract";
import { takesIdempotencyKey, type OperationDefinition } from "@skinmarket/contract";

/**
 * How the contract's schemas become the OpenAPI 3.1 document (docs/design/wire-conventions.md#the-openapi-document). The schemas describe what a handler sees after validation; the document
 * describes what a caller sends and receives, so three things are rewritten on the way:
 * - a field with a default is optional to the caller (TypeBox lists it as required, because the
 *   handler always has it once the default is filled in);
 * - TypeBox writes tuples in the draft-07 form (`items: [...]`, `additionalItems`), which JSON
 *   Schema 2020-12, and so OpenAPI 3.1, spells `prefixItems` and `items: false`;
 * - the contract's exported records are named once in `components.schemas` and referenced.
 */

/** The marker a named record carries through @fastify/swagger's conversion, until it is hoisted. */
const NAME_MARKER = "x-skinmarket-schema";
const SCHEMAS_PATH = "#/components/schemas/";

type Json = Record<string, unknown>;

/** Every object schema the contract exports under a PascalCase name, by identity. */
const NAMED_RECORDS: ReadonlyMap<object, string> = (() => {
  const names = new Map<object, string>();
  for (const [name, value] of Object.entries(contract)) {
    if (!/^[A-Z]/.test(name) || typeof value !== "object" || value === null) continue;
    if ((value as Json).type === "object" && !names.has(value)) names.set(value, name);
  }
  return names;
})();

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A copy of a schema for the document: tuples in the 2020-12 form, defaulted fields optional
 * (request parts only) and named records marked (bodies and answers only).
 */
function documentSchema(schema: unknown, options: { input: boolean; name: boolean }): unknown {
  if (Array.isArray(schema)) return schema.map((entry) => documentSchema(entry, options));
  if (!isObject(schema)) return schema;
  const copy: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    // Values of these keywords are data, not schemas.
    copy[key] =
      key === "enum" || key === "const" || key === "default" || key === "examples"
        ? value
        : key === "properties" && isObject(value)
          ? Object.fromEntries(
              Object.entries(value).map(([field, sub]) => [field, documentSchema(sub, options)]),
            )
          : documentSchema(value, options);
  }
  if (Array.isArray(copy.items)) {
    copy.prefixItems = copy.items;
    copy.items = copy.additionalItems === false ? false : (copy.additionalItems ?? true);
    delete copy.additionalItems;
    if (copy.items === true) delete copy.items;
  }
  if (options.input && Array.isArray(copy.required) && isObject(copy.properties)) {
    const properties = copy.properties;
    const required = copy.required.filter((field) => {
      const property = properties[field as string];
      return !(isObject(property) && "default" in property);
    });
    if (required.length > 0) copy.required = required;
    else delete copy.required;
  }
  const name = options.name ? NAMED_RECORDS.get(schema) : undefined;
  if (name) copy[NAME_MARKER] = name;
  return copy;
}

export interface RouteSchema {
  querystring?: unknown;
  params?: unknown;
  body?: unknown;
  response?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The route's schema as the document shows it (the route keeps validating with its own). */
export function documentRouteSchema(
  schema: RouteSchema | undefined,
  route: { method: string | string[]; config?: unknown },
): RouteSchema | undefined {
  if (!schema) return schema;
  const copy: RouteSchema = { ...schema };
  if (schema.querystring) copy.querystring = documentSchema(schema.querystring, { input: true, name: false });
  if (schema.params) copy.params = documentSchema(schema.params, { input: true, name: false });
  if (schema.body) copy.body = documentSchema(schema.body, { input: true, name: true });
  if (schema.response) {
    copy.response = Object.fromEntries(
      Object.entries(schema.response).map(([status, response]) => {
        const documented = documentSchema(response, { input: false, name: true }) as Json;
        const description =
          status === "200" && typeof schema.summary === "string"
            ? successDescription(schema.summary, route)
            : RESPONSE_DESCRIPTIONS[status];
        // A named record keeps its own description; the answer is described for the operation.
        return [status, description ? { ...documented, "x-response-description": description } : documented];
      }),
    );
  }
  return copy;
}

const RESPONSE_DESCRIPTIONS: Record<string, string> = {
  "4xx": "Refused: the code names why (bad input, credentials, state, limits); see the error codes",
  "5xx": "Internal Error, with the request id in `X-Request-Id`; nothing is half-done",
};

/**
 * What a success answers: a read answers what its summary names; a write has been committed when
 * it answers, and its answer shows the outcome.
 */
function successDescription(summary: string, route: { method: string | string[]; config?: unknown }): string {
  const reads = route.method === "GET" || (route.config as { readOnly?: boolean } | undefined)?.readOnly;
  return reads ? summary : `Done and committed: ${summary.charAt(0).toLowerCase()}${summary.slice(1)}`;
}

/** Hoists the marked records of the finished document into `components.schemas` and refers to them. */
export function nameSharedSchemas(document: Json): Json {
  const components = (document.components ?? {}) as Json;
  const schemas = { ...(components.schemas as Json | undefined) };
  const hoist = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(hoist);
    if (!isObject(value)) return value;
    const copy: Json = {};
    for (const [key, sub] of Object.entries(value)) if (key !== NAME_MARKER) copy[key] = hoist(sub);
    const name = value[NAME_MARKER];
    if (typeof name !== "string") return copy;
    schemas[name] ??= copy;
    return { $ref: `${SCHEMAS_PATH}${name}` };
  };
  const paths = hoist(document.paths) as Json;
  for (const methods of Object.values(paths)) {
    for (const operation of Object.values(methods as Json)) markOptionalBody(operation as Json);
  }
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  return { ...document, paths, components: { ...components, schemas: sorted } };
}

/**
 * A body whose fields are all optional may be left out (the route then reads `{}`); @fastify/swagger
 * marks every body required.
 */
function markOptionalBody(operation: Json): void {
  const body = operation.requestBody as
    { required?: boolean; content?: Record<string, { schema?: Json }> } | undefined;
  const schema = body?.content?.["application/json"]?.schema;
  if (!body || !schema || schema.$ref) return;
  if (!Array.isArray(schema.required) && !Array.isArray(schema.anyOf)) body.required = false;
}

const ACCESS_TEXT: Record<OperationDefinition["access"], string> = {
  public: "Anyone may call it, without credentials.",
  session:
    "Needs a signed-in website session (the `session` cookie); a write also sends `X-CSRFToken` with the value of the `csrf_token` cookie.",
  developer: "Needs the API token of a developer or enterprise user (`Authorization: Bearer smk_...`).",
  enterprise: "Needs the API token of an enterprise user (`Authorization: Bearer smk_...`).",
  sandbox_admin:
    "Sandbox API: needs the sandbox admin token (`Authorization: Bearer sma_...`); present only while the sandbox is on.",
  staff:
    "Back office: needs a signed-in staff member (the `staff_session` cookie) whose role allows the operation; a write also sends `X-CSRFToken` with the value of the `ops_csrf_token` cookie.",
};

const ENVELOPE_TEXT: Record<OperationDefinition["envelope"], string> = {
  official: "A failure answers `{code, msg}` with the code's HTTP status.",
  sandbox: "A failure answers `{code, msg}` with the code's HTTP status.",
  internal: 'A website route: success is `{code: "OK", data, msg: null}`, a failure `{code, error, extra}`.',
};

/** The operation's description: what it does (contract), who may call it, its answers and limits. */
export function describeOperation(operation: OperationDefinition): string {
  const paragraphs = [`${operation.summary}.`];
  if (operation.description) paragraphs.push(operation.description);
  paragraphs.push(`${ACCESS_TEXT[operation.access]} ${ENVELOPE_TEXT[operation.envelope]}`);
  const limits = limitsText(operation);
  if (limits) paragraphs.push(limits);
  if (takesIdempotencyKey(operation))
    paragraphs.push(
      "Accepts an `Idempotency-Key` header: the first answer is kept for 24 hours and replayed to a retry with the same key.",
    );
  return paragraphs.join("\n\n");
}

function limitsText(operation: OperationDefinition): string | undefined {
  // Limits count API tokens, so only official operations have them (docs/design/wire-conventions.md#limits).
  if (operation.envelope !== "official") return undefined;
  const { rate, daily, distinctGoods } = operation.limits ?? {};
  const parts = [rate ? `${rate.points} requests per ${rate.seconds} s` : "the server's default rate"];
  if (daily) parts.push(`${daily} requests a day (\`req_remaining\` tells what is left)`);
  if (distinctGoods) parts.push(`${distinctGoods.perDay} distinct goods a day`);
  return `Limits per API token, while limits are on: ${parts.join(", ")}.`;
}
