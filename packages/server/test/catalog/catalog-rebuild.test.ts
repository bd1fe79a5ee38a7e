import { test } from "node:test";
import assert from "node:assert/strict";
import { buildCatalog } from "../../scripts/catalog-builder.ts";
import { loadCs2Lib, readCommittedCatalog, staleFiles } from "../../scripts/build-catalog.ts";
import { readCatalogFile } from "../../src/domain/catalog/catalog-file.ts";

// One cs2-lib load (about a second) serves every test here.
const source = await loadCs2Lib();
const committed = await readCommittedCatalog();
const rebuild = buildCatalog(source, committed);

test("the committed catalog files are what npm run catalog:build writes today", async () => {
  assert.deepEqual(staleFiles(rebuild, committed), [], "run npm run catalog:build and commit the result");
  assert.deepEqual(
    await readCatalogFile(),
    rebuild.goods,
    "the reader returns exactly what the builder built",
  );
});

test("a rebuild keeps every committed id line verbatim and only appends", () => {
  assert.ok(rebuild.goodsIdsTsv.startsWith(committed.goodsIdsTsv));
  assert.ok(rebuild.tagIdsTsv.startsWith(committed.tagIdsTsv));
});

test("a rebuild after cs2-lib drops an item keeps its id reserved and numbers new names after it", () => {
  const lines = committed.goodsIdsTsv.split("\n").filter((line) => line !== "");
  const [firstLine = "", secondLine = ""] = lines;
  const lastId = Number(lines.at(-1)?.split("\t")[0]);
  // The first name moves to the end as if it were new; a retired name takes the highest id.
  const withoutFirst = lines.slice(1).join("\n");
  const mappings = {
    goodsIdsTsv: `${withoutFirst}\n${lastId + 1}\tRetired Goods\n`,
    tagIdsTsv: committed.tagIdsTsv,
  };
  const build = buildCatalog(source, mappings);
  assert.ok(build.goodsIdsTsv.startsWith(mappings.goodsIdsTsv));
  const firstName = firstLine.split("\t")[1];
  assert.equal(build.goodsIdsTsv.slice(mappings.goodsIdsTsv.length), `${lastId + 2}\t${firstName}\n`);
  assert.equal(build.report.absentGoods, 1);
  assert.equal(
    build.goods.some((item) => item.marketHashName === "Retired Goods"),
    false,
  );
  const secondId = Number(secondLine.split("\t")[0]);
  assert.equal(
    build.goods.find((item) => item.goodsId === secondId)?.marketHashName,
    secondLine.split("\t")[1],
  );
});

test("a build from empty mappings, then one from its own output, gives identical ids", () => {
  const first = buildCatalog(source, { goodsIdsTsv: "", tagIdsTsv: "" });
  const second = buildCatalog(source, first);
  assert.equal(second.goodsIdsTsv, first.goodsIdsTsv);
  assert.equal(second.tagIdsTsv, first.tagIdsTsv);
  assert.deepEqual(
    second.goods.map((item) => [item.goodsId, item.marketHashName]),
    first.goods.map((item) => [item.goodsId, item.marketHashName]),
  );
  assert.equal(second.report.newGoods, 0);
});
