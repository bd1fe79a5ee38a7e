import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MarketApiError, WebClient } from "@skinmarket/client";
import {
  getBuffPriceHistory,
  getBuffPriceHistoryV2,
  getPopularSellOrders,
  listBuyingGoods,
  searchSuggest,
} from "@skinmarket/contract";
import type { TSchema } from "typebox";
import { Value } from "typebox/value";
import {
  ASIIMOV,
  buildMarketDataWorld,
  REDLINE,
  REDLINE_STEAM_PRICE,
  STICKER,
  type MarketDataWorld,
} from "../support/market-data-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

function assertSchema(schema: TSchema, value: unknown) {
  assert.deepEqual(
    [...Value.Errors(schema, value)].slice(0, 5),
    [],
    "the answer matches its contract schema",
  );
}

/** The website's market-data routes (docs/design/website-goods-routes.md#the-websites-goods-and-market-data-routes) over a market built through the API. */
describe("website market-data routes", () => {
  let t: TestApp;
  let w: MarketDataWorld;

  const get = (url: string) => t.app.inject({ method: "GET", url });
  const web = (url: string) => t.web(w.viewer, "GET", url);
  const assertRefused = (
    answer: { statusCode: number; json(): { code: string; error: string } },
    field: string,
  ) => {
    assert.equal(answer.statusCode, 400);
    assert.equal(answer.json().code, "Invalid Argument");
    assert.match(answer.json().error, new RegExp(`^${field}: `));
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    w = await buildMarketDataWorld(t);
    await t.assertLedger();
  });
  after(() => t.close());

  describe("GET /api/market/search/suggest", () => {
    test("happy: the exact name first, ids as strings, the lowest listing", async () => {
      const answer = await web(`/api/market/search/suggest?game=csgo&text=${encodeURIComponent(REDLINE)}`);
      assert.equal(answer.statusCode, 200, answer.body);
      assertSchema(searchSuggest.response, answer.json());
      const suggestions = answer.json().data.suggestions as Array<{ goods_ids: string; option: string }>;
      assert.deepEqual(suggestions[0], {
        goods_ids: String(w.ids.redline),
        option: REDLINE,
        sell_min_price: "11.00",
        sell_num: 2,
      });
      assert.ok(suggestions.length <= 10);
      for (const suggestion of suggestions) assert.match(suggestion.option.toLowerCase(), /redline/);
    });

    test("happy: a Chinese text answers Chinese names; the English name when only it matches", async () => {
      const chinese = await web(`/api/market/search/suggest?game=csgo&text=${encodeURIComponent("红线")}`);
      const names = (chinese.json().data.suggestions as Array<{ option: string }>).map((s) => s.option);
      assert.ok(names.length > 0);
      for (const name of names) assert.match(name, /红线/);
      const english = await web(`/api/market/search/suggest?game=cs2&text=awp%20%7C%20asiimov%20(field`);
      const found = english.json().data.suggestions as Array<{ goods_ids: string; option: string }>;
      assert.ok(found.some((s) => s.goods_ids === String(w.ids.asiimov) && s.option === ASIIMOV));
    });

    test("happy: no text, a blank one or an unknown name suggests nothing", async () => {
      for (const query of ["", "&text=", "&text=%20%20", "&text=no-such-goods-anywhere"]) {
        const answer = await web(`/api/market/search/suggest?game=csgo${query}`);
        assert.equal(answer.statusCode, 200, answer.body);
        assert.deepEqual(answer.json().data.suggestions, []);
      }
    });

    test("error: an unknown game or an overlong text is refused naming the field", async () => {
      assertRefused(await web("/api/market/search/suggest?game=dota2&text=ak"), "game");
      assertRefused(await web(`/api/market/search/suggest?game=csgo&text=${"a".repeat(101)}`), "text");
    });

    test("happy: the forgiving search, the most traded first, each with its lowest listing", async () => {
      for (const text of ["ak47 redline", "AK-47 Redline", "redline ak ft", "st ak redline", "红线 久经"]) {
        const answer = await web(`/api/market/search/suggest?game=csgo&text=${encodeURIComponent(text)}`);
        assert.equal(answer.statusCode, 200, answer.body);
        assertSchema(searchSuggest.response, answer.json());
        const ids = (answer.json().data.suggestions as Array<{ goods_ids: string }>).map((s) => s.goods_ids);
        if (text.startsWith("st ")) assert.ok(!ids.includes(String(w.ids.redline)), text);
        else assert.equal(ids[0], String(w.ids.redline), text);
      }
      const [first] = (await web(`/api/market/search/suggest?game=csgo&text=ak47%20redline`)).json().data
        .suggestions;
      assert.equal(first.sell_min_price, "11.00");
      assert.ok(first.sell_num > 0);
    });

    test("security: a visitor gets the same suggestions; a session cookie that has ended is Login Required", async () => {
      const visitor = await get("/api/market/search/suggest?game=csgo&text=ak47%20redline");
      assert.equal(visitor.statusCode, 200, visitor.body);
      assert.deepEqual(
        visitor.json(),
        (await web("/api/market/search/suggest?game=csgo&text=ak47%20redline")).json(),
      );
      assertRefused(await get(`/api/market/search/suggest?game=csgo&text=${"a".repeat(101)}`), "text");
      for (const cookie of ["session=not-a-session", "session="]) {
        const ended = await t.app.inject({
          method: "GET",
          url: "/api/market/search/suggest?game=csgo",
          headers: { cookie },
        });
        assert.equal(ended.statusCode, 401, cookie);
        assert.equal(ended.json().code, "Login Required");
      }
    });
  });

  describe("GET /api/market/goods/buying (and /api/market/goods_buying)", () => {
    type Item = {
      id: number;
      buy_max_price: string;
      buy_num: number;
      sell_min_price: string;
      bookmarked: boolean;
    };
    const items = (answer: { json(): { data: { items: Item[] } } }) => answer.json().data.items;

    test("happy: the goods with buy orders, most units wanted first, with the book's figures", async () => {
      const answer = await web("/api/market/goods/buying?game=csgo");
      assert.equal(answer.statusCode, 200, answer.body);
      assertSchema(listBuyingGoods.response, answer.json());
      assert.deepEqual(
        items(answer).map((item) => [item.id, item.buy_max_price, item.buy_num, item.sell_min_price]),
        [
          [w.ids.redline, "8.00", 3, "11.00"],
          [w.ids.asiimov, "30.00", 2, "0.00"],
          [w.ids.sticker, "1.50", 1, "5.00"],
        ],
      );
      assert.equal(answer.json().data.total_count, 3);
      const alias = await web("/api/market/goods_buying?game=csgo");
      assert.deepEqual(alias.json(), answer.json());
    });

    test("happy: price sorts and the price range use the best buy order", async () => {
      const desc = await web("/api/market/goods/buying?game=csgo&sort_by=price.desc");
      assert.deepEqual(
        items(desc).map((item) => item.id),
        [w.ids.asiimov, w.ids.redline, w.ids.sticker],
      );
      const ranged = await web(
        "/api/market/goods/buying?game=csgo&min_price=1&max_price=10&sort_by=price.asc",
      );
      assert.deepEqual(
        items(ranged).map((item) => item.id),
        [w.ids.sticker, w.ids.redline],
      );
      const searched = await web(
        `/api/market/goods/buying?game=csgo&search=${encodeURIComponent("redline")}`,
      );
      assert.deepEqual(
        items(searched).map((item) => item.id),
        [w.ids.redline],
      );
      const paged = await web("/api/market/goods/buying?game=csgo&page_size=2&page_num=2");
      assert.deepEqual(paged.json().data.total_page, 2);
      assert.deepEqual(
        items(paged).map((item) => item.id),
        [w.ids.sticker],
      );
    });

    test("error: a bad sort, price or page size is refused naming the field", async () => {
      assertRefused(await web("/api/market/goods/buying?game=csgo&sort_by=cheapest"), "sort_by");
      assertRefused(await web("/api/market/goods/buying?game=csgo&min_price=abc"), "min_price");
      assertRefused(await web("/api/market/goods/buying?game=csgo&page_size=81"), "page_size");
      assertRefused(await web("/api/market/goods/buying?game=csgo&use_suggestion=2"), "use_suggestion");
    });

    test("security: without a session it is Login Required; only the viewer's own bookmarks show", async () => {
      for (const path of ["/api/market/goods/buying", "/api/market/goods_buying"]) {
        const anonymous = await get(`${path}?game=csgo`);
        assert.equal(anonymous.statusCode, 401);
        assert.equal(anonymous.json().code, "Login Required");
      }
      const other = await t.createUser();
      const otherSession = await t.signIn(other.nickname, other.password);
      const marked = await t.web(otherSession, "POST", "/api/market/goods/bookmark", {
        type: "goods",
        id: String(w.ids.redline),
      });
      assert.equal(marked.statusCode, 200, marked.body);
      const mine = await t.web(otherSession, "GET", "/api/market/goods/buying?game=csgo");
      assert.equal(items(mine).find((item) => item.id === w.ids.redline)?.bookmarked, true);
      const theirs = await web("/api/market/goods/buying?game=csgo");
      assert.equal(items(theirs).find((item) => item.id === w.ids.redline)?.bookmarked, false);
    });
  });

  describe("GET /api/index/popular_sell_order", () => {
    test("happy: anyone sees the cheapest tradable listing of the most traded goods on sale", async () => {
      const answer = await get("/api/index/popular_sell_order?_=1731814008592");
      assert.equal(answer.statusCode, 200, answer.body);
      assertSchema(getPopularSellOrders.response, answer.json());
      const data = answer.json().data;
      const listed = (data.items as Array<{ goods_id: number; price: string; user_id: string }>).map(
        (item) => [item.goods_id, item.price],
      );
      // The sticker traded three times comes first; the Asiimov has no listing.
      assert.deepEqual(listed, [
        [w.ids.sticker, "5.00"],
        [w.ids.redline, "11.00"],
      ]);
      assert.equal(data.goods_infos[String(w.ids.sticker)].market_hash_name, STICKER);
      // The reference price on the platform's market (the sandbox's Steam market), not our lowest ask.
      assert.equal(data.goods_infos[String(w.ids.redline)].steam_price_cny, REDLINE_STEAM_PRICE);
      assert.equal(data.goods_infos[String(w.ids.sticker)].steam_price_cny, "0.00");
      assert.equal(data.user_infos[w.seller.userId].user_id, w.seller.userId);
      assert.equal(data.show_game_cms_icon, false);
    });

    test("error: an unknown game is refused naming it", async () => {
      assertRefused(await get("/api/index/popular_sell_order?game=dota2"), "game");
    });

    test("security: a listing shows bookmarked only to the viewer who bookmarked it", async () => {
      const listingId = (await get("/api/index/popular_sell_order")).json().data.items[0].id as string;
      const marked = await t.web(w.viewer, "POST", "/api/market/goods/bookmark", {
        type: "sell_order",
        id: listingId,
      });
      assert.equal(marked.statusCode, 200, marked.body);
      assert.equal((await web("/api/index/popular_sell_order")).json().data.items[0].bookmarked, true);
      assert.equal((await get("/api/index/popular_sell_order")).json().data.items[0].bookmarked, false);
    });
  });

  describe("GET /api/market/goods/price_history/buff and /v2", () => {
    const trend = (days: number) =>
      `/api/market/goods/price_history/buff?game=csgo&goods_id=${w.ids.sticker}&currency=CNY&days=${days}`;

    test("happy: the daily medians of goods/price_history, in milliseconds and numbers", async () => {
      const answer = await get(`${trend(30)}&buff_price_type=1&with_sell_num=false&_=1700000000000`);
      assert.equal(answer.statusCode, 200, answer.body);
      assertSchema(getBuffPriceHistory.response, answer.json());
      const present = await get(
        `/api/market/goods/price_history?game=csgo&goods_id=${w.ids.sticker}&days=30`,
      );
      const expected = (present.json().data.price_history as Array<[number, string]>).map(([at, price]) => [
        at * 1000,
        Number(price),
      ]);
      assert.deepEqual(answer.json().data, {
        currency: "CNY",
        currency_symbol: "¥",
        days: 30,
        price_type: "median",
        steam_price_currency: "CNY",
        price_history: expected,
        // Beside each day's median, that day's count of trades.
        volume_history: expected.map(([at], index) => [at, [2, 1][index]]),
      });
      // Three days ago 2 and 4 (the lower middle), today 3.
      assert.deepEqual(
        expected.map(([, price]) => price),
        [2, 3],
      );
      const today = await get(trend(1));
      assert.deepEqual(
        today.json().data.price_history.map(([, price]: [number, number]) => price),
        [3],
      );
    });

    test("happy: v2 answers the same points as the one line sell_price_history", async () => {
      const v1 = await get(trend(7));
      const v2 = await get(
        `/api/market/goods/price_history/buff/v2?game=csgo&goods_id=${w.ids.sticker}&days=7`,
      );
      assert.equal(v2.statusCode, 200, v2.body);
      assertSchema(getBuffPriceHistoryV2.response, v2.json());
      const { lines, ...header } = v2.json().data;
      assert.deepEqual(header, { currency: "CNY", currency_symbol: "¥", days: 7, price_type: "median" });
      assert.equal(lines.length, 1);
      assert.equal(lines[0].key, "sell_price_history");
      assert.deepEqual(lines[0].points, v1.json().data.price_history);
      const none = await get(`/api/market/goods/price_history/buff/v2?game=csgo&goods_id=${w.ids.asiimov}`);
      assert.deepEqual(none.json().data.lines[0].points, []);
    });

    test("error: another currency, days out of 1-365 or an unknown goods are refused naming the field", async () => {
      for (const path of [
        "/api/market/goods/price_history/buff",
        "/api/market/goods/price_history/buff/v2",
      ]) {
        const base = `${path}?game=csgo&goods_id=${w.ids.sticker}`;
        assertRefused(await get(`${base}&currency=USD`), "currency");
        assertRefused(await get(`${base}&days=0`), "days");
        assertRefused(await get(`${base}&days=366`), "days");
        assertRefused(await get(`${base}&buff_price_type=3`), "buff_price_type");
        assertRefused(await get(`${path}?game=csgo`), "goods_id");
        const unknown = await get(`${path}?game=csgo&goods_id=999999999`);
        assert.equal(unknown.statusCode, 404);
        assert.match(unknown.json().error, /^goods_id: /);
      }
    });

    test("security: the trend names no trader, and a session changes nothing", async () => {
      const anonymous = await get(trend(30));
      const signedIn = await web(trend(30));
      assert.deepEqual(signedIn.json(), anonymous.json());
      assert.doesNotMatch(
        anonymous.body,
        new RegExp(`${w.seller.userId}|${w.buyer.userId}|${w.seller.platformid}`),
      );
    });
  });
  test("WebClient: the trend, popular listings and suggestions anonymously, the buying tab signed in", async () => {
    const baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const web = new WebClient({ baseUrl });
    const trend = await web.getBuffPriceHistory(w.ids.sticker, 7);
    assert.deepEqual(
      trend.data.price_history.map(([, price]) => price),
      [2, 3],
    );
    const lines = await web.getBuffPriceHistoryV2(w.ids.sticker, 7);
    assert.deepEqual(lines.data.lines[0]?.points, trend.data.price_history);
    assert.equal((await web.getPopularSellOrders()).data.items.length, 2);
    assert.equal(
      (await web.searchSuggest("ak47 redline")).data.suggestions[0]?.goods_ids,
      String(w.ids.redline),
    );
    await assert.rejects(
      web.listBuyingGoods(),
      (error: unknown) => error instanceof MarketApiError && error.code === "Login Required",
    );
    const user = await t.createUser();
    await web.login(user.nickname, user.password);
    const suggested = await web.searchSuggest(REDLINE);
    assert.equal(suggested.data.suggestions[0]?.goods_ids, String(w.ids.redline));
    const buying = await web.listBuyingGoods({ sort_by: "price.desc", page_size: 1 });
    assert.equal(buying.data.items[0]?.id, w.ids.asiimov);
    assert.equal(buying.data.total_page, 3);
  });
});
