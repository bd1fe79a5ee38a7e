import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { DomainContext } from "../../src/domain/context.ts";
import { goodsWithListingsMatching } from "../../src/domain/goods/catalog-listing-filters.ts";
import type { CatalogIndex } from "../../src/domain/goods/catalog-index.ts";
import { readBuyOrderDepth, readPaintwearRank } from "../../src/domain/goods/read-goods-context.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import { openTestContext } from "../support/test-context.ts";

/** A catalog index the rules below never reach: they decide before any name is searched. */
const UNUSED_CATALOG = {} as CatalogIndex;

/**
 * The rules of the goods page's price context and the catalog's listing filters, behind the
 * routes (docs/design/website-goods-routes.md#price-context-on-the-goods-page): input refused
 * naming its field before anything is read, and unknown goods reported as such.
 */
describe("price context and catalog listing filters: the domain's rules", () => {
  let database: DatabaseHandle;
  let ctx: DomainContext;
  before(async () => {
    ({ database, ctx } = await openTestContext());
  });
  after(() => database.close());

  test("wear ranks: ids must be listing ids separated by commas, at most 80 distinct", async () => {
    for (const ids of [
      "",
      "1,,2",
      "0",
      "1;2",
      " 1",
      "1,x",
      Array.from({ length: 81 }, (_, i) => i + 1).join(","),
    ]) {
      const result = await readPaintwearRank(ctx, { goodsId: 1, sellOrderIds: ids });
      assert.ok(!result.ok, ids);
      assert.equal(result.failure.code, "Invalid Argument");
      assert.match(result.failure.message, /^sell_order_ids: /);
    }
    // The same id named many times counts once.
    const repeated = await readPaintwearRank(ctx, {
      goodsId: 99_999_999,
      sellOrderIds: Array(100).fill("7").join(","),
    });
    assert.ok(!repeated.ok);
    assert.equal(repeated.failure.code, "Not Found");
  });

  test("an unknown goods has no book and no ranks", async () => {
    const depth = await readBuyOrderDepth(ctx, { goodsId: 99_999_999, levels: 20 });
    assert.ok(!depth.ok);
    assert.equal(depth.failure.code, "Not Found");
    assert.match(depth.failure.message, /goods_id/);
  });

  test("listing filters: none given keeps every goods; a range upside down names min_paintwear", async () => {
    const none = await goodsWithListingsMatching(ctx, UNUSED_CATALOG, {});
    assert.ok(none.ok);
    assert.equal(none.value, undefined);
    const upsideDown = await goodsWithListingsMatching(ctx, UNUSED_CATALOG, {
      minPaintwear: 0.5,
      maxPaintwear: 0.1,
    });
    assert.ok(!upsideDown.ok);
    assert.match(upsideDown.failure.message, /^min_paintwear: /);
    const equal = await goodsWithListingsMatching(ctx, UNUSED_CATALOG, {
      minPaintwear: 0.2,
      maxPaintwear: 0.2,
    });
    assert.ok(equal.ok, "a range of one wear is allowed");
    assert.equal(equal.value?.size, 0, "an empty market has no goods with such a listing");
  });
});
