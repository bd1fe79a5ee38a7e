import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getGoodsInfo, getGoodsSellOrders, listCatalogGoods } from "@skinmarket/contract";
import { Value } from "typebox/value";
import type { TSchema } from "typebox";
import { recordSteamMarketPrices } from "../../src/platform/sandbox/steam-market.ts";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, withCsrf, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
const REDLINE = "AK-47 | Redline (Field-Tested)";
const REDLINE_URL = "https://steamcommunity.com/market/listings/730/AK-47%20%7C%20Redline%20(Field-Tested)";

function assertSchema(schema: TSchema, value: unknown) {
  assert.deepEqual(
    [...Value.Errors(schema, value)].slice(0, 5),
    [],
    "the answer matches its contract schema",
  );
}

function cookieOf(setCookie: string | string[] | undefined): string {
  const header = [setCookie ?? []].flat().find((value) => value.startsWith("session="));
  assert.ok(header, "a session cookie is set");
  return header.split(";")[0]!;
}

type Catalog = {
  items: Array<Record<string, unknown> & { id: number; goods_info: Record<string, unknown> }>;
};

/**
 * The real service's field names and catalog fields, which the tools written for it read
 * (docs/design/wire-conventions.md#wire-conventions and docs/design/website-goods-routes.md#the-websites-market-data-routes): `steam_*` beside the reference's `platform_*`, one value.
 */
describe("website records under the real service's names", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let viewer: string;
  let other: string;
  let redlineId: number;
  let stickerId: number;

  const get = (url: string, cookie?: string) =>
    t.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });
  const post = (token: string, path: string, body: unknown) =>
    t.as(token, "POST", `/api/market/developer/${path}`, body);
  const signIn = async () => {
    const user = await t.createUser();
    const login = await t.app.inject({
      method: "POST",
      url: "/account/api/login",
      payload: { nickname: user.nickname, password: user.password },
    });
    assert.equal(login.statusCode, 200, login.body);
    return cookieOf(login.headers["set-cookie"]);
  };
  const catalogItem = async (cookie: string, goodsId: number, name: string) => {
    const answer = await get(
      `/api/market/goods?game=csgo&search=${encodeURIComponent(name)}&page_size=80`,
      cookie,
    );
    assert.equal(answer.statusCode, 200, answer.body);
    assertSchema(listCatalogGoods.response, answer.json());
    const item = (answer.json().data as Catalog).items.find((entry) => entry.id === goodsId);
    assert.ok(item, `${name} is in the catalog`);
    return item;
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    redlineId = await goodsIdOf(t, REDLINE);
    stickerId = await goodsIdOf(t, STICKER);
    seller = await createReadyTrader(t, "names-seller");
    buyer = await createReadyTrader(t, "names-buyer");
    // Redline: 12.50 tradable and 9.00 still in trade cooldown; no trade ever completed.
    const [tradable] = await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 1 });
    const [cooling] = await grant(t, seller.platformid, {
      market_hash_name: REDLINE,
      count: 1,
      cooldown_days: 3,
    });
    const listed = await post(seller.token, "sell_order/items", {
      game: "cs2",
      assets: [
        { assetid: tradable, price: "12.50" },
        { assetid: cooling, price: 9 },
      ],
    });
    assert.equal(listed.statusCode, 200, listed.body);
    // Sticker: one trade completed at 2.50.
    const [sticker] = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 1 });
    assert.equal(
      (
        await post(seller.token, "sell_order/items", {
          game: "cs2",
          assets: [{ assetid: sticker, price: 2.5 }],
        })
      ).statusCode,
      200,
    );
    await t.fund(buyer.userId, "balance", 10);
    const bought = await post(buyer.token, "purchase/orders", {
      game: "cs2",
      items: [{ goods_id: stickerId, max_price: 2.5, quantity: 1 }],
    });
    assert.equal(bought.statusCode, 200, bought.body);
    const pending = (
      await post(seller.token, "sell_order/history", { game: "cs2", state: "SELLER_TO_SEND_OFFER" })
    ).json().items as Array<{ id: string }>;
    for (const order of pending) await post(seller.token, "sell_order/send_offer", { order_id: order.id });
    const trading = (await post(buyer.token, "purchase/orders/list", { game: "cs2", state: "PAYING" })).json()
      .items as Array<{ tradeofferid: string }>;
    for (const order of trading)
      await t.admin("POST", `/sandbox/platform/offers/${order.tradeofferid}/accept`);
    await t.admin("POST", "/sandbox/jobs/run");
    // The Redline's reference price on the sandbox's Steam market: what steam_price means.
    await recordSteamMarketPrices(t.ctx, [{ goodsId: redlineId, price: 1680, volume: 75 }]);
    viewer = await signIn();
    other = await signIn();
    const bookmarked = await t.app.inject({
      method: "POST",
      url: "/api/market/goods/bookmark",
      headers: withCsrf(viewer),
      payload: { type: "goods", id: String(redlineId) },
    });
    assert.equal(bookmarked.statusCode, 200, bookmarked.body);
  });
  after(() => t.close());

  test("goods/info answers steam_market_url and goods_info.steam_price(_cny) equal to their platform_ twins", async () => {
    const answer = await get(`/api/market/goods/info?game=csgo&goods_id=${redlineId}`);
    assert.equal(answer.statusCode, 200, answer.body);
    assertSchema(getGoodsInfo.response, answer.json());
    const data = answer.json().data;
    assert.equal(data.steam_market_url, REDLINE_URL);
    assert.equal(data.platform_market_url, REDLINE_URL);
    for (const name of ["steam_price", "steam_price_cny", "platform_price", "platform_price_cny"]) {
      assert.equal(
        data.goods_info[name],
        "16.80",
        `goods_info.${name} is the Steam market's price, not ours`,
      );
    }
  });

  test("goods/sell_order's goods_infos carry steam_price(_cny) beside platform_price(_cny)", async () => {
    const answer = await get(`/api/market/goods/sell_order?game=csgo&goods_id=${redlineId}`);
    assert.equal(answer.statusCode, 200, answer.body);
    assertSchema(getGoodsSellOrders.response, answer.json());
    const info = answer.json().data.goods_infos[String(redlineId)];
    for (const name of ["steam_price", "steam_price_cny", "platform_price", "platform_price_cny"]) {
      assert.equal(info[name], "16.80", `goods_infos.${name}`);
    }
  });

  test("catalog item: appid 730, game csgo, both names, market_min_price a money string", async () => {
    const item = await catalogItem(viewer, redlineId, REDLINE);
    assert.equal(item.appid, 730);
    assert.equal(item.game, "csgo");
    assert.equal(item.description, null);
    assert.equal(item.market_min_price, "9.00", "the lowest listing of either kind, as a money string");
    assert.equal(item.sell_min_price, "12.50");
    assert.equal(item.steam_market_url, REDLINE_URL);
    assert.equal(item.platform_market_url, REDLINE_URL);
    assert.equal(item.goods_info.item_id, null);
    for (const name of ["steam_price", "steam_price_cny", "platform_price", "platform_price_cny"]) {
      assert.equal(item.goods_info[name], "16.80", `goods_info.${name}`);
    }
    assert.equal(item.can_search_by_tournament, false, "no route filters by tournament");
  });

  test("catalog item: has_buff_price_history is true once a trade of the goods completed", async () => {
    assert.equal((await catalogItem(viewer, stickerId, STICKER)).has_buff_price_history, true);
    assert.equal((await catalogItem(viewer, redlineId, REDLINE)).has_buff_price_history, false);
  });

  test("catalog item: bookmarked is the viewer's own bookmark, never another user's", async () => {
    assert.equal((await catalogItem(viewer, redlineId, REDLINE)).bookmarked, true);
    assert.equal((await catalogItem(other, redlineId, REDLINE)).bookmarked, false);
    assert.equal((await catalogItem(viewer, stickerId, STICKER)).bookmarked, false);
  });

  test("catalog without a session answers a visitor, with no bookmark marked", async () => {
    const answer = await get("/api/market/goods?game=csgo");
    assert.equal(answer.statusCode, 200, answer.body);
    assert.equal(answer.json().code, "OK");
    assert.ok(answer.json().data.items.every((item: { bookmarked: boolean }) => item.bookmarked === false));
  });
});
