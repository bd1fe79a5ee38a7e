import { Ajv, type Options } from "ajv";
import { default as addFormats } from "ajv-formats";
import type { FastifySchema, FastifySchemaCompiler } from "fastify";

/**
 * Request validation. Query strings and path parameters arrive as text, so their numbers and
 * booleans are coerced; JSON bodies already carry types, so nothing in a body is coerced (`true`
 * is not an amount). Unknown fields are refused by the schemas (`additionalProperties: false`),
 * never silently dropped.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  // verbose: errors carry their schema, so a pattern failure can be told by the schema's description.
  const common: Options = {
    removeAdditional: false,
    useDefaults: true,
    allErrors: false,
    strict: false,
    verbose: true,
  };
  const forBodies = new Ajv({ ...common, coerceTypes: false });
  const forText = new Ajv({ ...common, coerceTypes: "array" });
  addFormats.default(forBodies);
  addFormats.default(forText);
  return ({ schema, httpPart }) => (httpPart === "body" ? forBodies : forText).compile(schema as object);
}
