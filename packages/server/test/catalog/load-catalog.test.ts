import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { loadCatalog } from "../../src/domain/catalog/load-catalog.ts";
import type { DomainContext } from "../../src/domain/context.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import { openTestContext } from "../support/test-context.ts";

describe("loading the catalog into the database", () => {
  let database: DatabaseHandle;
  let ctx: DomainContext;
  before(async () => {
    ({ database, ctx } = await openTestContext({ kind: "system" }));
  });
  after(() => database.close());

  test("the first start loads every goods; the next start finds it current and loads nothing", async () => {
    const first = await loadCatalog(ctx);
    assert.ok(first.ok);
    assert.equal(first.value.loaded, true);
    assert.ok(first.value.goodsCount >= 20_000);
    const { count } = await database.db
      .selectFrom("goods")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .executeTakeFirstOrThrow();
    assert.equal(Number(count), first.value.goodsCount);
    process.stdout.write(
      `# catalog: ${first.value.goodsCount} goods loaded in ${Math.round(first.value.milliseconds)} ms\n`,
    );

    const second = await loadCatalog(ctx);
    assert.ok(second.ok);
    assert.equal(second.value.loaded, false);
    assert.equal(second.value.checksum, first.value.checksum);
  });

  test("goods rows keep the catalog's names, tags, wear ranges and flags", async () => {
    const redline = await database.db
      .selectFrom("goods")
      .selectAll()
      .where("market_hash_name", "=", "StatTrak™ AK-47 | Redline (Field-Tested)")
      .executeTakeFirstOrThrow();
    assert.equal(redline.type, "weapon");
    assert.equal(redline.quality, "stattrak");
    assert.equal(redline.is_standard, false);
    assert.equal(Number(redline.paintwear_min), 0.15);
    assert.equal(Number(redline.paintwear_max), 0.38);
    assert.ok(redline.name.includes("红线"));
    assert.ok(
      redline.tags.some((tag) => tag.category === "exterior" && tag.internal_name === "wearcategory2"),
    );
    const key = await database.db
      .selectFrom("goods")
      .select(["is_standard", "paintwear_min"])
      .where("type", "=", "key")
      .executeTakeFirstOrThrow();
    assert.equal(key.is_standard, true);
    assert.equal(key.paintwear_min, null);
  });
});
