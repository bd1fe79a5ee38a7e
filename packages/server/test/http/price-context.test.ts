import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getBuyOrderDepth, getPaintwearRank } from "@skinmarket/contract";
import { Value } from "typebox/value";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const REDLINE = "AK-47 | Redline (Field-Tested)";
const STICKER = "Sticker | Crown (Foil)";

/**
 * The goods page's price context (docs/design/website-goods-routes.md#price-context-on-the-goods-page):
 * `goods/buy_order_depth` (the public book summed by price) and `goods/paintwear_rank` (a
 * listing's wear rank among the goods' listings on sale).
 */
describe("goods page price context: buy-order depth and wear ranks", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let redlineId: number;
  let stickerId: number;
  /** Listing ids by their wear. */
  const listingOf = new Map<string, string>();

  const get = (url: string, cookie?: string) =>
    t.app.inject({ method: "GET", url, ...(cookie ? { headers: { cookie } } : {}) });
  const bid = async (buyer: PlatformFixture, price: number, num: number) => {
    const created = await t.as(buyer.token, "POST", "/api/market/developer/buy_order", {
      game: "cs2",
      goods_id: redlineId,
      price,
      num,
    });
    assert.equal(created.statusCode, 200, created.body);
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    [redlineId, stickerId] = [await goodsIdOf(t, REDLINE), await goodsIdOf(t, STICKER)];
    seller = await createReadyTrader(t, "rank-seller");
    for (const paintwear of ["0.2", "0.16", "0.3", "0.16", "0.35"]) {
      const [assetid] = await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 1, paintwear });
      const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
        game: "cs2",
        assets: [{ assetid, price: 30 }],
      });
      assert.equal(listed.json()[assetid!], "OK", listed.body);
      const row = await t.database.db
        .selectFrom("listings")
        .select("listing_id")
        .where("assetid", "=", Number(assetid))
        .executeTakeFirstOrThrow();
      listingOf.set(listingOf.has(paintwear) ? `${paintwear}b` : paintwear, String(row.listing_id));
    }
    const buyers = [await createReadyTrader(t, "depth-a"), await createReadyTrader(t, "depth-b")];
    for (const buyer of buyers) await t.fund(buyer.userId, "balance", 1000);
    // 12.00: 3 + 2 units over two orders; 11.50: 4 units; 10.00: 1 unit.
    await bid(buyers[0]!, 12, 3);
    await bid(buyers[1]!, 12, 2);
    await bid(buyers[0]!, 11.5, 4);
    await bid(buyers[1]!, 10, 1);
  });
  after(() => t.close());

  test("happy: the book summed by price, best first, with totals over every price", async () => {
    const answer = await get(`/api/market/goods/buy_order_depth?game=csgo&goods_id=${redlineId}`);
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual([...Value.Errors(getBuyOrderDepth.response, answer.json())], []);
    assert.deepEqual(answer.json().data, {
      goods_id: redlineId,
      levels: [
        { price: "12.00", num: 5, orders: 2 },
        { price: "11.50", num: 4, orders: 1 },
        { price: "10.00", num: 1, orders: 1 },
      ],
      total_num: 10,
      total_levels: 3,
    });
    const top = (
      await get(`/api/market/goods/buy_order_depth?game=csgo&goods_id=${redlineId}&levels=1`)
    ).json().data;
    assert.deepEqual(top.levels, [{ price: "12.00", num: 5, orders: 2 }]);
    assert.equal(top.total_num, 10, "the totals count every price, not only those shown");
    const none = (await get(`/api/market/goods/buy_order_depth?game=csgo&goods_id=${stickerId}`)).json().data;
    assert.deepEqual(none, { goods_id: stickerId, levels: [], total_num: 0, total_levels: 0 });
  });

  test("happy: wear ranks among the goods' listings, lowest first, equal wears sharing a rank", async () => {
    const ids = ["0.16", "0.16b", "0.2", "0.3", "0.35"].map((wear) => listingOf.get(wear)!);
    const answer = await get(
      `/api/market/goods/paintwear_rank?game=csgo&goods_id=${redlineId}&sell_order_ids=${ids.join(",")}`,
    );
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual([...Value.Errors(getPaintwearRank.response, answer.json())], []);
    assert.deepEqual(answer.json().data, {
      goods_id: redlineId,
      total_count: 5,
      ranks: { [ids[0]!]: 1, [ids[1]!]: 1, [ids[2]!]: 3, [ids[3]!]: 4, [ids[4]!]: 5 },
    });
  });

  test("error: bad or missing input is a 400 naming the field; an unknown goods is a 404", async () => {
    for (const [query, field] of [
      [`goods_id=${redlineId}&levels=0`, "levels"],
      [`goods_id=${redlineId}&levels=51`, "levels"],
      [`goods_id=abc`, "goods_id"],
      [``, "goods_id"],
    ] as const) {
      const answer = await get(`/api/market/goods/buy_order_depth?game=csgo&${query}`);
      assert.equal(answer.statusCode, 400, `${query}: ${answer.body}`);
      assert.match(answer.json().error, new RegExp(`^${field}`), query);
    }
    const tooMany = Array.from({ length: 81 }, (_, index) => index + 1).join(",");
    for (const [query, field] of [
      [`goods_id=${redlineId}&sell_order_ids=1,,2`, "sell_order_ids"],
      [`goods_id=${redlineId}&sell_order_ids=x`, "sell_order_ids"],
      [`goods_id=${redlineId}&sell_order_ids=${tooMany}`, "sell_order_ids"],
      [`goods_id=${redlineId}`, "sell_order_ids"],
      [`sell_order_ids=1`, "goods_id"],
    ] as const) {
      const answer = await get(`/api/market/goods/paintwear_rank?game=csgo&${query}`);
      assert.equal(answer.statusCode, 400, `${query}: ${answer.body}`);
      assert.match(answer.json().error, new RegExp(`^${field}`), query);
    }
    for (const path of ["buy_order_depth?", "paintwear_rank?sell_order_ids=1&"]) {
      const unknown = await get(`/api/market/goods/${path}game=csgo&goods_id=99999999`);
      assert.equal(unknown.statusCode, 404, unknown.body);
      assert.match(unknown.json().error, /goods_id/);
    }
  });

  test("security: anyone may read, a dead cookie is a visitor; no buyer or seller is named; other goods' or delisted listings are not ranked", async () => {
    const visitor = await get(
      `/api/market/goods/buy_order_depth?game=csgo&goods_id=${redlineId}`,
      "session=not-a-live-session",
    );
    assert.equal(visitor.statusCode, 200, visitor.body);
    assert.doesNotMatch(visitor.body, /depth-a|depth-b|user_id/);
    const delisted = listingOf.get("0.35")!;
    const removed = await t.as(seller.token, "DELETE", "/api/market/developer/sell_order/items", {
      game: "cs2",
      sell_orders: [delisted],
    });
    assert.equal(removed.statusCode, 200, removed.body);
    const ranks = (
      await get(
        `/api/market/goods/paintwear_rank?game=csgo&goods_id=${stickerId}&sell_order_ids=${listingOf.get("0.2")}`,
      )
    ).json().data;
    assert.deepEqual(
      ranks,
      { goods_id: stickerId, total_count: 0, ranks: {} },
      "another goods ranks none of these",
    );
    const after = (
      await get(
        `/api/market/goods/paintwear_rank?game=csgo&goods_id=${redlineId}&sell_order_ids=${delisted},${listingOf.get("0.3")}`,
      )
    ).json().data;
    assert.deepEqual(after, { goods_id: redlineId, total_count: 4, ranks: { [listingOf.get("0.3")!]: 4 } });
    assert.doesNotMatch(JSON.stringify(after), /rank-seller/);
  });
});
