import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { DomainContext } from "../../src/domain/context.ts";
import { marketCatalog, type MarketGoods } from "../../src/domain/market/market-goods.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import { silentLog, testPlatform } from "../support/test-context.ts";
import { openTestDatabase } from "../support/test-database.ts";

describe("the market's catalog in memory", () => {
  let database: DatabaseHandle;
  let ctx: DomainContext;
  before(async () => {
    database = await openTestDatabase({ catalog: true });
    ctx = {
      db: database.db,
      clock: { now: () => new Date() },
      actor: { kind: "system" },
      log: silentLog,
      ...testPlatform(),
    };
  });
  after(() => database.close());

  test("goods that carry the same tag share one object of it, which reads as the goods' row", async () => {
    const catalog = await marketCatalog(ctx);
    const exterior = (goods: MarketGoods | undefined) =>
      goods?.tags.find((tag) => tag.category === "exterior");
    const redline = catalog.byName.get("AK-47 | Redline (Field-Tested)");
    const asiimov = catalog.byName.get("AWP | Asiimov (Field-Tested)");
    assert.ok(exterior(redline));
    assert.equal(exterior(redline), exterior(asiimov), "one object for Field-Tested");

    const objects = new Set<object>();
    const ids = new Set<number>();
    for (const goods of catalog.byId.values()) {
      for (const tag of goods.tags) {
        objects.add(tag);
        ids.add(tag.id);
      }
    }
    assert.equal(objects.size, ids.size, "one object per tag id");

    const row = await database.db
      .selectFrom("goods")
      .select("tags")
      .where("goods_id", "=", redline!.goods_id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(redline!.tags, row.tags);
  });
});
