import assert from "node:assert/strict";

/** The JSON type a real tool expects of a field it reads. */
export type FieldType = "string" | "number" | "integer" | "boolean" | "array" | "object" | "null";

/**
 * What a real tool reads of an answer: each key a field, its value the type the tool expects, a
 * nested shape for an object it reads into, or `[shape]` for a list whose every entry it reads.
 */
export interface Shape {
  [field: string]: FieldType | FieldType[] | Shape | [Shape];
}

function typeOf(value: unknown): FieldType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as FieldType;
}

function matches(value: unknown, expected: FieldType): boolean {
  const actual = typeOf(value);
  return actual === expected || (expected === "number" && actual === "integer");
}

/**
 * Fails naming the path of every field the shape names that is missing or of another type
 * (`data.items.0.price: expected string, got number`). Fields the shape does not name are free.
 */
export function assertShape(value: unknown, shape: Shape, path = ""): void {
  const problems: string[] = [];
  collect(value, shape, path, problems);
  assert.deepEqual(problems, [], `answer does not read as the tool expects:\n${problems.join("\n")}`);
}

function collect(value: unknown, shape: Shape, path: string, problems: string[]): void {
  if (typeOf(value) !== "object") {
    problems.push(`${path || "(answer)"}: expected object, got ${typeOf(value)}`);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const [field, expected] of Object.entries(shape)) {
    const at = path ? `${path}.${field}` : field;
    if (!(field in record)) {
      problems.push(`${at}: missing`);
      continue;
    }
    const found = record[field];
    if (typeof expected === "string") {
      if (!matches(found, expected)) problems.push(`${at}: expected ${expected}, got ${typeOf(found)}`);
    } else if (Array.isArray(expected) && typeof expected[0] === "string") {
      const types = expected as FieldType[];
      if (!types.some((type) => matches(found, type))) {
        problems.push(`${at}: expected ${types.join(" or ")}, got ${typeOf(found)}`);
      }
    } else if (Array.isArray(expected)) {
      if (!Array.isArray(found)) {
        problems.push(`${at}: expected array, got ${typeOf(found)}`);
        continue;
      }
      found.forEach((entry, index) => collect(entry, expected[0] as Shape, `${at}.${index}`, problems));
    } else {
      collect(found, expected, at, problems);
    }
  }
}
