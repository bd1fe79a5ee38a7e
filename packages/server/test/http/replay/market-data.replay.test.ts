import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { buildMarketDataWorld, REDLINE, type MarketDataWorld } from "../../support/market-data-world.ts";
import { assertShape, type Shape } from "../../support/replay-shape.ts";
import { createTestApp, type TestApp } from "../../support/test-app.ts";

/** A `[timestamp, price]` point every tool reads as two numbers. */
function assertPoints(points: unknown, what: string) {
  assert.ok(Array.isArray(points), `${what} is a list`);
  assert.ok(points.length > 0, `${what} has points`);
  for (const point of points) {
    assert.ok(Array.isArray(point) && point.length === 2, `${what}: a point is a pair`);
    assert.ok(Number.isInteger(point[0]) && point[0] > 1e12, `${what}: the time is in milliseconds`);
    assert.equal(typeof point[1], "number", `${what}: the price is a number`);
  }
}

/** The catalog item the buying tab answers, as buff-go's `BuffGoods` struct unmarshals it. */
const BUFF_GO_GOODS: Shape = {
  appid: "integer",
  bookmarked: "boolean",
  buy_max_price: "string",
  buy_num: "integer",
  can_bargain: "boolean",
  can_search_by_tournament: "boolean",
  description: "null",
  game: "string",
  goods_info: {
    icon_url: "string",
    item_id: "null",
    original_icon_url: "string",
    steam_price: "string",
    steam_price_cny: "string",
  },
  has_buff_price_history: "boolean",
  id: "integer",
  market_hash_name: "string",
  market_min_price: "string",
  name: "string",
  quick_price: "string",
  sell_min_price: "string",
  sell_num: "integer",
  sell_reference_price: "string",
  short_name: "string",
  steam_market_url: "string",
  transacted_num: "integer",
};

/**
 * The requests real tools send to the website's market-data routes, replayed as their code sends
 * them, with every field they read checked for the type they expect.
 */
describe("replay: market-data routes as real tools call them", () => {
  let t: TestApp;
  let w: MarketDataWorld;
  const anonymous = (url: string) => t.app.inject({ method: "GET", url });
  const signedIn = (url: string) => t.web(w.viewer, "GET", url);

  before(async () => {
    t = await createTestApp({ catalog: true });
    w = await buildMarketDataWorld(t);
  });
  after(() => t.close());

  // jiajiaxd/Steamauto BuffApi/__init__.py search_goods (luobeichen/BuffApi BuffApiPublic.py the
  // same): params {text, game: "csgo"}, returns data.suggestions; its callers, e.g. a React tool
  // (suggestions.find(item => item.option === name), then item.goods_ids as goods_id) and an
  // astrbot plugin ("each has option and goods_ids"), read both fields.
  test("Steamauto BuffAccount.search_goods", async () => {
    const answer = await signedIn(`/api/market/search/suggest?text=${encodeURIComponent(REDLINE)}&game=csgo`);
    assert.equal(answer.statusCode, 200, answer.body);
    assertShape(answer.json(), {
      code: "string",
      data: { suggestions: [{ option: "string", goods_ids: "string" }] },
    });
    const found = answer.json().data.suggestions.find((item: { option: string }) => item.option === REDLINE);
    assert.equal(found.goods_ids, String(w.ids.redline));
  });

  // nobodyplace CSGOController.hasValidBuffCookie: GET search/suggest?game=csgo (no text) as the
  // session probe; HTTP 200 means the cookie is alive, anything else that it is not.
  test("nobodyplace CSGOController.hasValidBuffCookie", async () => {
    assert.equal((await signedIn("/api/market/search/suggest?game=csgo")).statusCode, 200);
    // The tool sends the cookie it holds; an ended one must not read as alive.
    const dead = await t.app.inject({
      method: "GET",
      url: "/api/market/search/suggest?game=csgo",
      headers: { cookie: "session=ended-session-of-the-tool" },
    });
    assert.notEqual(dead.statusCode, 200);
  });

  // Steamauto-derived plugins/BuffAutoBuy.py search_buy_price_higher_than_sale:
  // goods/buying?game=&page_num=&min_price=1&max_price=100, reads code, data.items[*].buy_max_price
  // and sell_min_price (float()), id, market_hash_name; error answers' `error`.
  test("BuffAutoBuy.search_buy_price_higher_than_sale", async () => {
    const answer = await signedIn("/api/market/goods/buying?game=csgo&page_num=1&min_price=1&max_price=100");
    assert.equal(answer.statusCode, 200, answer.body);
    assertShape(answer.json(), {
      code: "string",
      data: {
        items: [
          { buy_max_price: "string", sell_min_price: "string", id: "integer", market_hash_name: "string" },
        ],
      },
    });
    for (const item of answer.json().data.items) assert.ok(Number.isFinite(Number(item.buy_max_price)));
  });

  // buff-go internal/service GetBuffData: goods/buying?game=csgo&page_num=&min_price=&max_price=
  // &sort_by=price.desc&page_size=80&use_suggestion=0&_=<ms>, unmarshalled into BuffData/Result/
  // BuffGoods (Go: a field of another type fails the whole page).
  test("buff-go GetBuffData", async () => {
    const answer = await signedIn(
      `/api/market/goods/buying?game=csgo&page_num=1&min_price=1&max_price=100&sort_by=price.desc&page_size=80&use_suggestion=0&_=${Date.now()}`,
    );
    assert.equal(answer.statusCode, 200, answer.body);
    assertShape(answer.json(), {
      code: "string",
      data: {
        items: [BUFF_GO_GOODS],
        page_num: "integer",
        page_size: "integer",
        total_count: "integer",
        total_page: "integer",
      },
    });
    assert.ok(answer.json().data.items.length > 0);
  });

  // A requests tutorial (popular_sell_order?_=1731814008592): data.goods_infos values' name and
  // steam_price_cny; BetterBuff's BuffTypes.PopularSellOrder types the rest of data.
  test("requests tutorial popular_sell_order", async () => {
    const answer = await anonymous("/api/index/popular_sell_order?_=1731814008592");
    assert.equal(answer.statusCode, 200, answer.body);
    const data = answer.json().data;
    assertShape(answer.json(), {
      data: { goods_infos: "object", items: "array", show_game_cms_icon: "boolean", user_infos: "object" },
    });
    const infos = Object.values(data.goods_infos);
    assert.ok(infos.length > 0);
    for (const info of infos)
      assertShape(info, { name: "string", steam_price_cny: "string", goods_id: "integer" });
    for (const item of data.items)
      assertShape(item, {
        id: "string",
        goods_id: "integer",
        price: "string",
        user_id: "string",
        mode: "integer",
        state: "integer",
        asset_info: {
          assetid: "string",
          paintwear: "string",
          info: { icon_url: "string", stickers: "array" },
        },
      });
  });

  // knexguy101/BuffGo buff/history/prices.go: price_history/buff?game=csgo&goods_id=&currency=CNY&_=
  // unmarshalled into PriceHistory (currency, currency_symbol, days int, price_history [][]float64,
  // price_type, steam_price_currency).
  test("BuffGo history.Prices", async () => {
    const answer = await anonymous(
      `/api/market/goods/price_history/buff?game=csgo&goods_id=${w.ids.sticker}&currency=CNY&_=`,
    );
    assert.equal(answer.statusCode, 200, answer.body);
    assertShape(answer.json(), {
      code: "string",
      data: {
        currency: "string",
        currency_symbol: "string",
        days: "integer",
        price_history: "array",
        price_type: "string",
        steam_price_currency: "string",
      },
      msg: "null",
    });
    assertPoints(answer.json().data.price_history, "price_history");
  });

  // nobodyplace CSGOController.batchGetItemHistoryPrice: price_history/buff?game=csgo&currency=CNY
  // &days=7&goods_id= read as List<List<Float>>; a QQ-bot plugin's get_weapon_detail sends
  // currency=CNY, days=30, buff_price_type=2 and plots x[1].
  test("nobodyplace CSGOController.batchGetItemHistoryPrice", async () => {
    for (const query of ["currency=CNY&days=7", "currency=CNY&days=30&buff_price_type=2"]) {
      const answer = await anonymous(
        `/api/market/goods/price_history/buff?game=csgo&${query}&goods_id=${w.ids.sticker}`,
      );
      assert.equal(answer.statusCode, 200, answer.body);
      assertPoints(answer.json().data.price_history, query);
    }
  });

  // A Next.js dashboard's fetchBuffPriceHistory: v2?game=csgo&goods_id=&currency=CNY&days=&_=,
  // parsed by zod: currency, currency_symbol, days, price_type, lines[{key, name, show, allow,
  // color, chart_type, points [[number, number]]}]; a scraper takes the line sell_price_history.
  test("Next.js lib/buff fetchBuffPriceHistory", async () => {
    const answer = await anonymous(
      `/api/market/goods/price_history/buff/v2?game=csgo&goods_id=${w.ids.sticker}&currency=CNY&days=30&_=${Date.now()}`,
    );
    assert.equal(answer.statusCode, 200, answer.body);
    assertShape(answer.json(), {
      code: "string",
      data: {
        currency: "string",
        currency_symbol: "string",
        days: "integer",
        price_type: "string",
        lines: [
          {
            key: "string",
            name: "string",
            show: "boolean",
            allow: "boolean",
            color: ["string", "null"],
            chart_type: "string",
            points: "array",
          },
        ],
      },
    });
    const line = answer
      .json()
      .data.lines.find((entry: { key: string }) => entry.key === "sell_price_history");
    assertPoints(line.points, "sell_price_history");
  });
});
