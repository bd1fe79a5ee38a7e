import assert from "node:assert/strict";
import { test } from "node:test";
import { OPERATIONS } from "../src/index.ts";

/** Every path, within a schema, of an object property named `game`, with its schema. */
function gameFields(schema: unknown, path: string): Array<[string, Record<string, unknown>]> {
  if (schema === null || typeof schema !== "object") return [];
  const node = schema as Record<string, unknown>;
  const found: Array<[string, Record<string, unknown>]> = [];
  const properties = (node.properties ?? {}) as Record<string, unknown>;
  for (const [name, property] of Object.entries(properties)) {
    if (name === "game") found.push([`${path}.game`, property as Record<string, unknown>]);
    found.push(...gameFields(property, `${path}.${name}`));
  }
  for (const key of ["items", "additionalProperties"])
    found.push(...gameFields(node[key], `${path}[${key}]`));
  for (const key of ["anyOf", "oneOf", "allOf"])
    for (const [index, part] of ((node[key] ?? []) as unknown[]).entries())
      found.push(...gameFields(part, `${path}.${key}[${index}]`));
  for (const part of Object.values((node.patternProperties ?? {}) as Record<string, unknown>))
    found.push(...gameFields(part, `${path}{}`));
  return found;
}

test("every record an operation answers carries game as the constant csgo (reference convention 6)", () => {
  const fields = OPERATIONS.flatMap((operation) => gameFields(operation.response, operation.id));
  // The own buy order, listing, trade, inventory and website records all carry one.
  assert.ok(fields.length >= 10, `${fields.length} game fields`);
  for (const [path, schema] of fields) assert.equal(schema.const, "csgo", path);
});
