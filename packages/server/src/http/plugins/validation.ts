import { Ajv, type Options, type ValidateFunction } from "ajv";
import { default as addFormats } from "ajv-formats";
import type { FastifySchema, FastifySchemaCompiler } from "fastify";
import { INTEGER_DIGITS_MAX, INTEGER_OR_DIGITS } from "@skinmarket/contract";

/**
 * Request validation. Query strings and path parameters arrive as text, so their numbers and
 * booleans are read from it first (`readTextValues`), and an empty optional query parameter
 * (`mode=`) is absent, as the real service and the tools written for it take it (docs/design/wire-conventions.md#tolerance-of-the-website-routes); JSON bodies already carry types, so nothing
 * in a body is converted (`true` is not an amount). Unknown fields are refused by the schemas
 * (`additionalProperties: false`), never silently dropped. Numbers must be finite everywhere
 * (`strictNumbers`): JSON.parse reads `1e309` as Infinity, which is no integer and no amount.
 * The one exception in bodies is a field that takes an integer as a number or as its digits
 * (`IntegerOrDigits`): its digits are read as the number first, so that one bound judges both.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  // verbose: errors carry their schema, so a pattern failure can be told by the schema's description.
  const options: Options = {
    removeAdditional: false,
    useDefaults: true,
    allErrors: false,
    strict: false,
    strictNumbers: true,
    verbose: true,
    coerceTypes: false,
  };
  const ajv = new Ajv(options);
  addFormats.default(ajv);
  return ({ schema, httpPart }) => {
    const validate = ajv.compile(schema as object);
    const readDigits = integerDigitsReader(schema as TextSchema);
    if (httpPart !== "querystring" && httpPart !== "params") {
      if (!readDigits) return validate;
      const validateBody = ((data: unknown) => {
        readDigits(data);
        const valid = validate(data);
        validateBody.errors = validate.errors;
        return valid;
      }) as ValidateFunction;
      return validateBody;
    }
    const read = readTextValues(schema as TextSchema);
    const dropEmpty = httpPart === "querystring" ? dropEmptyOptionals(schema as TextSchema) : () => {};
    const validateText = ((data: unknown) => {
      dropEmpty(data);
      read(data);
      readDigits?.(data);
      const valid = validate(data);
      validateText.errors = validate.errors;
      return valid;
    }) as ValidateFunction;
    return validateText;
  };
}

interface TextSchema {
  type?: string | string[];
  [INTEGER_OR_DIGITS]?: boolean;
  items?: TextSchema | TextSchema[];
  required?: string[];
  default?: unknown;
  enum?: unknown[];
  anyOf?: TextSchema[];
  properties?: Record<string, TextSchema>;
}

/**
 * Ajv's own coercion reads text with `Number()`, which takes `0x1A`, `1e2`, `+1`, ` 1 ` and
 * `Infinity` as numbers. Here a field that cannot be text becomes a number only when it is written
 * as plain decimal digits (an optional minus, digits, for non-integers an optional fraction), and
 * a boolean only when it is `true` or `false`; anything else stays text and the schema refuses it
 * naming the field. A field that may be text (an amount) is left as written for its parser.
 */
function readTextValues(schema: TextSchema): (data: unknown) => void {
  const readers = Object.entries(schema.properties ?? {}).flatMap(([name, field]) => {
    const types = acceptedTypes(field);
    if (types.has("string")) return [];
    return [{ name, types }];
  });
  return (data) => {
    if (typeof data !== "object" || data === null) return;
    const values = data as Record<string, unknown>;
    for (const { name, types } of readers) {
      const text = values[name];
      if (typeof text !== "string") continue;
      if (types.has("integer") && INTEGER_TEXT.test(text)) values[name] = Number(text);
      else if (types.has("number") && DECIMAL_TEXT.test(text)) values[name] = Number(text);
      else if (types.has("boolean") && (text === "true" || text === "false")) values[name] = text === "true";
    }
  };
}

/**
 * An optional parameter (or one with a default) given empty is taken as absent, so `mode=` means
 * "any mode" and `sort_by=` the default sort, before any check; a required parameter given empty
 * stays empty and is refused naming it.
 */
function dropEmptyOptionals(schema: TextSchema): (data: unknown) => void {
  const required = new Set(schema.required ?? []);
  const droppable = Object.entries(schema.properties ?? {})
    .filter(([name, field]) => !required.has(name) || field.default !== undefined)
    .map(([name]) => name);
  return (data) => {
    if (typeof data !== "object" || data === null) return;
    const values = data as Record<string, unknown>;
    for (const name of droppable) if (values[name] === "") delete values[name];
  };
}

/**
 * Reads, in place, the digits of every `IntegerOrDigits` field of a value (in objects and lists
 * at any depth) as the number they write, so that the integer's bounds judge them: `"0"` and
 * `"1001"` are refused as `0` and `1001` are, not passed on to fail in the database or to exceed
 * the bound. Other text is left for the schema to refuse. Undefined when the schema has none.
 */
function integerDigitsReader(schema: TextSchema): ((data: unknown) => void) | undefined {
  type FieldReader = { name: string; read: ((data: unknown) => void) | undefined };
  const fields = Object.entries(schema.properties ?? {}).flatMap(([name, field]): FieldReader[] => {
    if (field[INTEGER_OR_DIGITS]) return [{ name, read: undefined }];
    const read = integerDigitsReader(field);
    return read ? [{ name, read }] : [];
  });
  const itemSchemas = [schema.items ?? []].flat();
  const items = itemSchemas.flatMap((item) => {
    if (item[INTEGER_OR_DIGITS]) return [(list: unknown[], index: number) => readDigitsAt(list, index)];
    const read = integerDigitsReader(item);
    return read ? [(list: unknown[], index: number) => read(list[index])] : [];
  });
  if (fields.length === 0 && items.length === 0) return undefined;
  return (data) => {
    if (Array.isArray(data)) {
      for (const read of items) for (let index = 0; index < data.length; index++) read(data, index);
      return;
    }
    if (typeof data !== "object" || data === null) return;
    const values = data as Record<string, unknown>;
    for (const { name, read } of fields) {
      if (!Object.hasOwn(values, name)) continue;
      if (read) read(values[name]);
      else readDigitsAt(values, name);
    }
  };
}

const INTEGER_DIGITS = new RegExp(`^-?\\d{1,${INTEGER_DIGITS_MAX}}$`);

function readDigitsAt(holder: Record<string | number, unknown> | unknown[], key: string | number): void {
  const container = holder as Record<string | number, unknown>;
  const text = container[key];
  if (typeof text === "string" && INTEGER_DIGITS.test(text)) container[key] = Number(text);
}

const INTEGER_TEXT = /^-?\d+$/;
const DECIMAL_TEXT = /^-?\d+(?:\.\d+)?$/;

function acceptedTypes(schema: TextSchema): Set<string> {
  const types = new Set<string>();
  const visit = (part: TextSchema) => {
    for (const type of [part.type ?? []].flat()) types.add(type);
    for (const value of part.enum ?? []) types.add(typeof value === "number" ? "number" : typeof value);
    for (const branch of part.anyOf ?? []) visit(branch);
  };
  visit(schema);
  return types;
}
