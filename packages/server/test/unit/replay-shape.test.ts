import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { assertShape } from "../support/replay-shape.ts";

describe("assertShape: what a real tool reads of an answer", () => {
  test("passes when every named field is there with its type", () => {
    assertShape(
      { code: "OK", data: { items: [{ price: "1.00", num: 2 }], total: 1.5, extra: true } },
      { code: "string", data: { items: [{ price: "string", num: "integer" }], total: "number" } },
    );
  });

  test("names every missing or mistyped field by its path", () => {
    assert.throws(
      () =>
        assertShape(
          { data: { items: [{ price: 1 }, {}], flag: null } },
          { code: "string", data: { items: [{ price: "string" }], flag: ["boolean", "string"] } },
        ),
      (error: Error) =>
        /code: missing/.test(error.message) &&
        /data\.items\.0\.price: expected string, got integer/.test(error.message) &&
        /data\.items\.1\.price: missing/.test(error.message) &&
        /data\.flag: expected boolean or string, got null/.test(error.message),
    );
  });

  test("an integer is a number, a number is not an integer", () => {
    assertShape({ a: 3 }, { a: "number" });
    assert.throws(() => assertShape({ a: 3.5 }, { a: "integer" }), /a: expected integer, got number/);
  });
});
