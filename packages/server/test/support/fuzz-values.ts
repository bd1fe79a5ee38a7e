import fc from "fast-check";

/**
 * Values for generated requests: plausible ones from a JSON schema (or from the test world where a
 * field names something that exists), and hostile ones: wrong types, numbers at and beyond every
 * edge, control characters, huge strings and lists, deep nesting.
 */

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
}

/** Values of the test world, by field name: ids and names that exist, so that requests go deep. */
export type WorldValues = Record<string, readonly unknown[]>;

const INT32_MAX = 2 ** 31 - 1;

/** A value the schema accepts (or nearly: patterns the generator cannot follow give plain text). */
export function plausibleValue(schema: JsonSchema, name: string, world: WorldValues): fc.Arbitrary<unknown> {
  const known = world[name];
  const generic = genericValue(schema, world);
  if (known && known.length > 0)
    return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...known) }, generic);
  return generic;
}

function genericValue(schema: JsonSchema, world: WorldValues): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.anyOf && !schema.properties)
    return fc.oneof(...schema.anyOf.map((branch) => genericValue(branch, world)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "integer":
      return fc.integer({
        min: Math.max(schema.minimum ?? -1000, -INT32_MAX),
        max: Math.min(schema.maximum ?? 1000, INT32_MAX),
      });
    case "number":
      return fc.double({
        min: schema.minimum ?? -1000,
        max: schema.maximum ?? 1000,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "string":
      return textValue(schema);
    case "array": {
      const items = schema.items ?? {};
      return fc.array(genericValue(items, world), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
      });
    }
    case "object":
    default: {
      const properties = schema.properties ?? {};
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, property] of Object.entries(properties))
        record[key] = plausibleValue(property, key, world);
      // An object needing one of several fields (`anyOf` of `required`) gets one of them.
      const oneOf = (schema.anyOf ?? []).flatMap((branch) => branch.required ?? []);
      const required = schema.required ?? [];
      if (oneOf.length === 0) return fc.record(record, { requiredKeys: required });
      return fc
        .constantFrom(...oneOf)
        .chain((chosen) => fc.record(record, { requiredKeys: [...required, chosen] }));
    }
  }
}

function textValue(schema: JsonSchema): fc.Arbitrary<string> {
  const bounds = { minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 24, 24) };
  if (schema.pattern) {
    try {
      const pattern = new RegExp(schema.pattern, "u");
      return fc.stringMatching(pattern).filter((text) => text.length <= (schema.maxLength ?? Infinity));
    } catch {
      // A pattern fast-check cannot follow (Unicode properties): plain text, often refused.
    }
  }
  return fc.string(bounds);
}

/** Numbers at and beyond every edge: column types, 2^53, the largest doubles. */
const HOSTILE_NUMBERS = [
  0,
  -1,
  1.5,
  INT32_MAX,
  INT32_MAX + 1,
  2 ** 32,
  2 ** 53 + 2,
  -(2 ** 53),
  1e21,
  1e308,
  -1e308,
  5e-324,
];

/** Text that databases, parsers and decoders have refused or misread. */
const HOSTILE_TEXT = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u0001\u0002\u001f",
  "\u007f",
  "\u0085",
  "\t\n\r",
  "\ud800",
  "\udfff\ud800",
  "%E0%A4%A",
  "%00",
  "\\u0000",
  "1e309",
  "Infinity",
  "-Infinity",
  "NaN",
  "0x1A",
  "1e2",
  "+1",
  " 1 ",
  "1_000",
  "９",
  "2147483648",
  "9007199254740993",
  "99999999999999999999999999",
  "-1",
  "1.005",
  "' OR '1'='1",
  "__proto__",
  "constructor",
  "😀".repeat(64),
  "x".repeat(257),
];

/**
 * Plain text with one control character (or lone surrogate) somewhere in it; NUL most often, the
 * one PostgreSQL refuses in text.
 */
const textWithControl = fc
  .tuple(
    fc.string({ maxLength: 8 }),
    fc.oneof(
      { weight: 4, arbitrary: fc.constant("\u0000") },
      fc.constantFrom("\u0001", "\u0008", "\u001b", "\u007f", "\u0085", "\u009f", "\ud800"),
    ),
    fc.string({ maxLength: 8 }),
  )
  .map(([before, control, after]) => `${before}${control}${after}`);

/**
 * Any code points, lone surrogates included. One arbitrary for every operation: fast-check builds
 * a reverse table of all of Unicode for each such arbitrary made, which cost more than the
 * requests of many operations; an arbitrary generates the same values however often it is used.
 */
const binaryText = fc.string({ unit: "binary", maxLength: 40 });

/** A hostile value for a JSON body field: wrong types, edges, control characters, sizes. */
export function hostileJsonValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 3, arbitrary: textWithControl },
    fc.constantFrom(...HOSTILE_NUMBERS),
    fc.constantFrom(...HOSTILE_TEXT),
    fc.constantFrom(null, true, false, [], {}, [null], { a: 1 }),
    binaryText,
    fc.integer({ min: 10_000, max: 200_000 }).map((length) => "x".repeat(length)),
    fc.integer({ min: 1000, max: 60_000 }).map((length) => Array.from({ length }, (_, index) => index)),
    fc.integer({ min: 1000, max: 20_000 }).map((length) => Array.from({ length }, () => "\u0000")),
    fc.constant(RAW_NUMBER),
    fc.constant(DEEP_NESTING),
  );
}

/** A hostile value for a query or path parameter: always text, as it travels. */
export function hostileTextValue(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 2, arbitrary: textWithControl },
    fc.constantFrom(...HOSTILE_TEXT),
    fc.constantFrom(...HOSTILE_NUMBERS.map(String)),
    binaryText,
    fc.integer({ min: 1000, max: 6000 }).map((length) => "9".repeat(length)),
  );
}

/** Markers replaced in the body's text by what `JSON.stringify` cannot write. */
const RAW_NUMBER = "\u0001raw-1e309\u0001";
const DEEP_NESTING = "\u0001deep\u0001";

export function bodyText(body: unknown): string {
  return JSON.stringify(body)
    .replaceAll(JSON.stringify(RAW_NUMBER), "1e309")
    .replaceAll(JSON.stringify(DEEP_NESTING), `${"[".repeat(5000)}${"]".repeat(5000)}`);
}
