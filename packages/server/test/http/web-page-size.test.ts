import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { GOODS_PAGE_SIZE_MAX } from "@skinmarket/contract";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const REDLINE = "AK-47 | Redline (Field-Tested)";
const LISTINGS = 12;
const ORDERS = 12;

/** `page_size` of the goods pages' listings and buy-order book (docs/design/website-goods-routes.md#the-websites-goods-pages). */
describe("goods/sell_order and goods/buy_order pages honour page_size", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let redlineId: number;

  const page = async (route: "sell_order" | "buy_order", query: string) => {
    const answer = await t.app.inject({
      method: "GET",
      url: `/api/market/goods/${route}?game=csgo&goods_id=${redlineId}${query}`,
    });
    assert.equal(answer.statusCode, 200, answer.body);
    return answer.json().data as {
      items: Array<{ price: string }>;
      page_num: number;
      page_size: number;
      total_count: number;
      total_page: number;
    };
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    redlineId = await goodsIdOf(t, REDLINE);
    seller = await createReadyTrader(t, "page-seller");
    buyer = await createReadyTrader(t, "page-buyer");
    const assetids = await grant(t, seller.platformid, { market_hash_name: REDLINE, count: LISTINGS });
    const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      // 20.00, 21.00, ... so that the cheapest-first order is known.
      assets: assetids.map((assetid, index) => ({ assetid, price: 20 + index })),
    });
    assert.equal(listed.statusCode, 200, listed.body);
    await t.fund(buyer.userId, "balance", 1000);
    for (let index = 0; index < ORDERS; index += 1) {
      const order = await t.as(buyer.token, "POST", "/api/market/developer/buy_order", {
        game: "cs2",
        goods_id: redlineId,
        price: 1 + index,
        num: 1,
      });
      assert.equal(order.statusCode, 200, order.body);
    }
  });
  after(() => t.close());

  test("sell_order: page_size=5 gives pages of 5, the last one the rest, in price order", async () => {
    const first = await page("sell_order", "&page_size=5");
    assert.equal(first.page_size, 5);
    assert.equal(first.total_count, LISTINGS);
    assert.equal(first.total_page, Math.ceil(LISTINGS / 5));
    assert.deepEqual(
      first.items.map((item) => item.price),
      ["20.00", "21.00", "22.00", "23.00", "24.00"],
    );
    const last = await page("sell_order", "&page_size=5&page_num=3");
    assert.deepEqual(
      last.items.map((item) => item.price),
      ["30.00", "31.00"],
    );
  });

  test("buy_order: page_size=5 gives pages of 5, best price first", async () => {
    const first = await page("buy_order", "&page_size=5");
    assert.equal(first.page_size, 5);
    assert.equal(first.total_count, ORDERS);
    assert.equal(first.total_page, Math.ceil(ORDERS / 5));
    assert.deepEqual(
      first.items.map((item) => item.price),
      ["12.00", "11.00", "10.00", "9.00", "8.00"],
    );
    const last = await page("buy_order", "&page_size=5&page_num=3");
    assert.deepEqual(
      last.items.map((item) => item.price),
      ["2.00", "1.00"],
    );
  });

  test("without page_size (or empty) a page holds 10; the maximum holds everything here", async () => {
    for (const route of ["sell_order", "buy_order"] as const) {
      for (const query of ["", "&page_size="]) {
        const plain = await page(route, query);
        assert.equal(plain.page_size, 10, `${route}${query}`);
        assert.equal(plain.items.length, 10, `${route}${query}`);
      }
      const widest = await page(route, `&page_size=${GOODS_PAGE_SIZE_MAX}`);
      assert.equal(widest.items.length, 12);
      assert.equal(widest.total_page, 1);
    }
  });

  test("page_size beyond the bound, zero or not a number is refused naming page_size", async () => {
    for (const route of ["sell_order", "buy_order"]) {
      for (const size of [String(GOODS_PAGE_SIZE_MAX + 1), "0", "-1", "ten", "1e2"]) {
        const answer = await t.app.inject({
          method: "GET",
          url: `/api/market/goods/${route}?game=csgo&goods_id=${redlineId}&page_size=${size}`,
        });
        assert.equal(answer.statusCode, 400, `${route} page_size=${size}`);
        assert.match(answer.json().error, /^page_size: /);
      }
    }
  });
});
