import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { OPERATIONS } from "../src/operations/all.ts";

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema | Schema[];
  prefixItems?: Schema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
}

const CONTROL_CHARACTERS = ["\u0000", "\u0001", "\u001f", "\u007f", "\u0085", "\u009f"];

/** An anchored pattern without an open-ended repetition (`*`, `+`, `{n,}`) bounds the length. */
function patternBoundsLength(pattern: string | undefined): boolean {
  return pattern !== undefined && /^\^.*\$$/.test(pattern) && !/[*+]|\{\d+,\}/.test(pattern);
}

/** Every way a request schema leaves an input unbounded, as `where: what`. */
function unboundedParts(schema: Schema, where: string): string[] {
  if (schema.enum || schema.const !== undefined) return [];
  const problems: string[] = [];
  for (const [index, branch] of (schema.anyOf ?? []).entries())
    problems.push(...unboundedParts(branch, `${where}|${index}`));
  for (const type of [schema.type ?? []].flat()) {
    if (type === "integer" || type === "number") {
      if (!Number.isFinite(schema.minimum)) problems.push(`${where}: a number without a minimum`);
      if (!Number.isFinite(schema.maximum)) problems.push(`${where}: a number without a maximum`);
      if (type === "integer" && Math.abs(schema.maximum ?? 0) > Number.MAX_SAFE_INTEGER)
        problems.push(`${where}: an integer beyond what JavaScript holds exactly`);
    }
    if (type === "string") {
      if (schema.maxLength === undefined && !patternBoundsLength(schema.pattern))
        problems.push(`${where}: a text without a maximum length`);
      const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, "u");
      if (!pattern) problems.push(`${where}: a text that takes control characters`);
      else
        for (const control of CONTROL_CHARACTERS)
          if (pattern.test(`a${control}b`) || pattern.test(`1${control}`) || pattern.test(control))
            problems.push(`${where}: a text that takes ${JSON.stringify(control)}`);
    }
    if (type === "array") {
      if (schema.maxItems === undefined) problems.push(`${where}: a list without a maximum length`);
      for (const item of [schema.items ?? [], schema.prefixItems ?? []].flat())
        problems.push(...unboundedParts(item, `${where}[]`));
    }
    if (type === "object") {
      for (const [name, property] of Object.entries(schema.properties ?? {}))
        problems.push(...unboundedParts(property, `${where}.${name}`));
      if (typeof schema.additionalProperties === "object")
        problems.push(...unboundedParts(schema.additionalProperties, `${where}.*`));
    }
  }
  return problems;
}

describe("the bounds of every input (docs/design/wire-conventions.md#bounds-of-every-input)", () => {
  test("every number a request carries has a minimum and a maximum, every text a length and no control characters, every list a length", () => {
    const problems = OPERATIONS.flatMap((operation) =>
      (["params", "querystring", "body"] as const).flatMap((part) => {
        const schema = operation[part as keyof typeof operation] as Schema | undefined;
        return schema ? unboundedParts(schema, `${operation.id} ${part}`) : [];
      }),
    );
    assert.deepEqual(problems, []);
  });

  test("the check itself finds an unbounded number, text and list", () => {
    assert.deepEqual(
      unboundedParts(
        {
          type: "object",
          properties: {
            n: { type: "integer", minimum: 1 },
            s: { type: "string", maxLength: 5 },
            l: { type: "array", items: { type: "number", minimum: 0, maximum: 1 } },
          },
        },
        "x",
      ),
      [
        "x.n: a number without a maximum",
        "x.s: a text that takes control characters",
        "x.l: a list without a maximum length",
      ],
    );
  });
});
