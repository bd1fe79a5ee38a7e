import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const REDLINE = "AK-47 | Redline (Field-Tested)";
const VULCAN = "AK-47 | Vulcan (Field-Tested)";
const CROWN = "Sticker | Crown (Foil)";
const HOLO_3DMAX = "Sticker | 3DMAX (Holo) | Katowice 2014";

/**
 * The catalog's listing filters (docs/design/website-goods-routes.md#the-catalogs-listing-filters):
 * `min_paintwear`/`max_paintwear`, `paintseed` and `sticker` keep the goods with a listing on sale
 * that meets them all.
 */
describe("catalog: float, paint seed and sticker filters", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let redlineId: number;
  let vulcanId: number;
  let crownListing: string;

  const list = async (marketHashName: string, extras: Record<string, unknown>): Promise<string> => {
    const [assetid] = await grant(t, seller.platformid, {
      market_hash_name: marketHashName,
      count: 1,
      ...extras,
    });
    const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price: 20 }],
    });
    assert.equal(listed.json()[assetid!], "OK", listed.body);
    const row = await t.database.db
      .selectFrom("listings")
      .select("listing_id")
      .where("assetid", "=", Number(assetid))
      .executeTakeFirstOrThrow();
    return String(row.listing_id);
  };
  const catalog = (query: string, cookie?: string) =>
    t.app.inject({
      method: "GET",
      url: `/api/market/goods?game=csgo&page_size=80&${query}`,
      ...(cookie ? { headers: { cookie } } : {}),
    });
  const idsOf = async (query: string) => {
    const answer = await catalog(query);
    assert.equal(answer.statusCode, 200, `${query}: ${answer.body}`);
    const data = answer.json<{ data: { items: Array<{ id: number }>; total_count: number } }>().data;
    return data.items.map((item) => item.id).sort((a, b) => a - b);
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    [redlineId, vulcanId] = [await goodsIdOf(t, REDLINE), await goodsIdOf(t, VULCAN)];
    seller = await createReadyTrader(t, "filter-seller");
    // Redline: 0.16 seed 7 with a Crown; 0.30 seed 100. Vulcan: 0.20 seed 7 with a 3DMAX.
    crownListing = await list(REDLINE, {
      paintwear: "0.16",
      paintseed: 7,
      stickers: [{ market_hash_name: CROWN, slot: 0 }],
    });
    await list(REDLINE, { paintwear: "0.3", paintseed: 100, stickers: [] });
    await list(VULCAN, {
      paintwear: "0.2",
      paintseed: 7,
      stickers: [{ market_hash_name: HOLO_3DMAX, slot: 1 }],
    });
  });
  after(() => t.close());

  test("happy: a float range keeps the goods with a listing of that wear (both ends included)", async () => {
    assert.deepEqual(await idsOf("min_paintwear=0.15&max_paintwear=0.18"), [redlineId]);
    assert.deepEqual(await idsOf("min_paintwear=0.2&max_paintwear=0.2"), [vulcanId]);
    assert.deepEqual(
      await idsOf("max_paintwear=0.25"),
      [redlineId, vulcanId].sort((a, b) => a - b),
    );
    assert.deepEqual(await idsOf("min_paintwear=0.25"), [redlineId]);
    assert.deepEqual(await idsOf("min_paintwear=0.9"), []);
  });

  test("happy: paint seed, sticker by name, and the filters together on one listing", async () => {
    assert.deepEqual(
      await idsOf("paintseed=7"),
      [redlineId, vulcanId].sort((a, b) => a - b),
    );
    assert.deepEqual(await idsOf("paintseed=100"), [redlineId]);
    assert.deepEqual(await idsOf("sticker=crown%20foil"), [redlineId]);
    assert.deepEqual(await idsOf("sticker=3dmax%20holo"), [vulcanId]);
    // One listing must meet them all: the Redline of seed 100 has no Crown.
    assert.deepEqual(await idsOf("paintseed=100&sticker=crown"), []);
    assert.deepEqual(await idsOf("paintseed=7&max_paintwear=0.18&sticker=crown"), [redlineId]);
    // With the catalog's other filters and search.
    assert.deepEqual(await idsOf("paintseed=7&search=vulcan"), [vulcanId]);
    assert.deepEqual(await idsOf("paintseed=7&max_price=1"), []);
  });

  test("error: a range upside down, values out of bounds and a sticker nothing is named like are 400s naming the field", async () => {
    for (const [query, field] of [
      ["min_paintwear=0.5&max_paintwear=0.1", "min_paintwear"],
      ["max_paintwear=2", "max_paintwear"],
      ["min_paintwear=-0.1", "min_paintwear"],
      ["min_paintwear=abc", "min_paintwear"],
      ["paintseed=1001", "paintseed"],
      ["paintseed=1.5", "paintseed"],
      ["sticker=zzqqxxunknown", "sticker"],
      ["sticker=%21%21%21", "sticker"],
      [`sticker=${"a".repeat(101)}`, "sticker"],
    ] as const) {
      const answer = await catalog(query);
      assert.equal(answer.statusCode, 400, `${query}: ${answer.body}`);
      assert.match(answer.json().error, new RegExp(`^${field}`), query);
    }
  });

  test("security: visitors may filter; only listings on sale count, so a delisted item no longer shows its goods", async () => {
    const visitor = await catalog("paintseed=7", "session=ended-or-unknown");
    assert.equal(visitor.statusCode, 200, visitor.body);
    assert.doesNotMatch(visitor.body, /filter-seller/, "the catalog names no seller");
    const removed = await t.as(seller.token, "DELETE", "/api/market/developer/sell_order/items", {
      game: "cs2",
      sell_orders: [crownListing],
    });
    assert.equal(removed.statusCode, 200, removed.body);
    assert.deepEqual(await idsOf("sticker=crown%20foil"), []);
    assert.deepEqual(await idsOf("paintseed=7"), [vulcanId]);
  });
});
