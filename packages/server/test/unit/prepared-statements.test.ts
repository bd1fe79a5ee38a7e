import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { StatementNames } from "../../src/storage/prepared-statements.ts";

describe("prepared statement names", () => {
  test("a text is named from its second use on, and keeps its name", () => {
    const names = new StatementNames();
    assert.equal(names.nameFor("select 1"), undefined);
    const name = names.nameFor("select 1");
    assert.match(name ?? "", /^skm_\d+$/);
    assert.equal(names.nameFor("select 1"), name);
    assert.equal(names.nameFor("select 2"), undefined);
    assert.notEqual(names.nameFor("select 2"), name);
  });

  test("no more than the limit of texts is ever named", () => {
    const names = new StatementNames(3);
    const named = new Set<string>();
    for (let round = 0; round < 3; round++) {
      for (let index = 0; index < 10; index++) {
        const name = names.nameFor(`select ${index}`);
        if (name) named.add(name);
      }
    }
    assert.equal(named.size, 3);
    assert.equal(names.nameFor("select 9"), undefined);
  });
});
