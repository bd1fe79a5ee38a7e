import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { OPERATIONS } from "@skinmarket/contract";
import { OPERATIONS_INDEX_FILE, operationsIndex } from "../../scripts/operations-index.ts";

const generated = operationsIndex();

test("docs/operations.md is what `npm run docs:operations` makes from the sources", () => {
  assert.equal(
    readFileSync(OPERATIONS_INDEX_FILE, "utf8"),
    generated,
    "docs/operations.md is stale: run `npm run docs:operations` and commit it",
  );
});

test("the index names every operation of the contract, each with the route file that registers it", () => {
  const entries = generated.split("\n## ").slice(1);
  assert.deepEqual(
    entries.map((entry) => entry.slice(1, entry.indexOf("`", 1))),
    OPERATIONS.map((operation) => operation.id),
  );
  const withoutRoute = entries.filter((entry) => entry.includes("- route: none found"));
  assert.deepEqual(withoutRoute, []);
});

test("an operation's entry names its route, its verb and the tests that send its path", () => {
  const entry = generated.slice(
    generated.indexOf("\n## `getBalance`"),
    generated.indexOf("\n## ", generated.indexOf("\n## `getBalance`") + 1),
  );
  assert.match(entry, /`GET \/api\/market\/developer\/balance` \(developer\)/);
  assert.match(entry, /- route: \[server\/src\/http\/routes\/developer\/get-balance\.ts\]/);
  assert.match(entry, /- verbs: \[server\/src\/domain\/wallet\/get-balance\.ts\]/);
  assert.match(entry, /- tests: .*server\/test\/http\/balance\.test\.ts/);
});
