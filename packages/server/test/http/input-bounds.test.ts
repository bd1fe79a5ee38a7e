import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, goodsIdOf, grantOne, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, withCsrf, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
const DEVELOPER = "/api/market/developer";
/** 2^31: one past the largest PostgreSQL `integer`, the type of goods ids. */
const PAST_INTEGER = 2 ** 31;
/** 9999-12-31T23:59:59Z, the last second a time may name. */
const LAST_SECOND = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;

/** The bounds of every input (docs/design/wire-conventions.md#bounds-of-every-input): beyond them, 400 naming the field. */
describe("bounds of every input", () => {
  let t: TestApp;
  let trader: PlatformFixture;
  let sticker: number;
  before(async () => {
    t = await createTestApp({ catalog: true });
    trader = await createReadyTrader(t, "bounds-trader");
    sticker = await goodsIdOf(t, STICKER);
  });
  after(() => t.close());

  const get = (url: string) => t.as(trader.token, "GET", url);
  const post = (url: string, body: unknown) => t.as(trader.token, "POST", url, body);
  const postText = (url: string, text: string) =>
    t.app.inject({
      method: "POST",
      url,
      headers: { authorization: `Bearer ${trader.token}`, "content-type": "application/json" },
      payload: text,
    });
  const refusal = (msg: string) => ({ code: "Invalid Argument", msg });
  const internalRefusal = (error: string) => ({ code: "Invalid Argument", error, extra: {} });

  describe("numbers", () => {
    test("a goods id past PostgreSQL's integer is refused naming the field, in queries, bodies and lists", async () => {
      const cases: Array<[Promise<{ statusCode: number; json(): unknown }>, unknown]> = [
        [
          get(`${DEVELOPER}/purchase/quantity?game=cs2&goods_id=${PAST_INTEGER}`),
          refusal(`goods_id: must be <= ${PAST_INTEGER - 1}`),
        ],
        [
          post(`${DEVELOPER}/purchase/orders/list`, { game: "cs2", goods_id: PAST_INTEGER }),
          refusal(`goods_id: must be <= ${PAST_INTEGER - 1}`),
        ],
        [
          post(`${DEVELOPER}/sell_order/history`, { game: "cs2", goods_id: PAST_INTEGER }),
          refusal(`goods_id: must be <= ${PAST_INTEGER - 1}`),
        ],
        [
          post("/api/market/float/items", { game: "cs2", goods_ids: [sticker, PAST_INTEGER] }),
          refusal(`goods_ids.1: must be <= ${PAST_INTEGER - 1}`),
        ],
        [
          t.app.inject({ method: "GET", url: `/api/market/goods/info?game=csgo&goods_id=${PAST_INTEGER}` }),
          internalRefusal(`goods_id: must be <= ${PAST_INTEGER - 1}`),
        ],
      ];
      for (const [pending, expected] of cases) {
        const response = await pending;
        assert.equal(response.statusCode, 400);
        assert.deepEqual(response.json(), expected);
      }
      const largest = await get(`${DEVELOPER}/purchase/quantity?game=cs2&goods_id=${PAST_INTEGER - 1}`);
      assert.equal(largest.statusCode, 404, "the largest integer is a goods id the catalog does not have");
    });

    test("bookmarking a goods whose id no integer column holds is Invalid Argument naming id", async () => {
      const member = await t.createUser({ nickname: "bounds-member", password: "bounds-password" });
      const login = await t.app.inject({
        method: "POST",
        url: "/account/api/login",
        payload: { nickname: member.nickname, password: "bounds-password" },
      });
      const cookie = String(login.headers["set-cookie"]).split(";")[0] as string;
      const response = await t.app.inject({
        method: "POST",
        url: "/api/market/goods/bookmark",
        headers: withCsrf(cookie),
        payload: { type: "goods", id: String(PAST_INTEGER) },
      });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), internalRefusal(`id: no goods ${PAST_INTEGER} in the catalog`));
    });

    test("page_num beyond 10,000 is refused naming it; page 10,000 answers", async () => {
      const deep = await get(`${DEVELOPER}/buy_order?game=cs2&page_num=10001`);
      assert.equal(deep.statusCode, 400);
      assert.deepEqual(deep.json(), refusal("page_num: must be <= 10000"));
      const huge = await post(`${DEVELOPER}/purchase/orders/list`, { game: "cs2", page_num: 1e21 });
      assert.deepEqual(huge.json(), refusal("page_num: must be <= 10000"));
      const last = await get(`${DEVELOPER}/buy_order?game=cs2&page_num=10000`);
      assert.equal(last.statusCode, 200);
      assert.deepEqual(last.json().items, []);
    });

    test("times past the last second of year 9999 are refused naming the field", async () => {
      for (const time of [LAST_SECOND + 1, 2 ** 53 + 1]) {
        const query = await get(`${DEVELOPER}/buy_order?game=cs2&end_time=${time}`);
        assert.deepEqual(query.json(), refusal(`end_time: must be <= ${LAST_SECOND}`), String(time));
        const body = await post(`${DEVELOPER}/sell_order/history`, { game: "cs2", start_time: time });
        assert.deepEqual(body.json(), refusal(`start_time: must be <= ${LAST_SECOND}`), String(time));
      }
      const last = await get(`${DEVELOPER}/buy_order?game=cs2&start_time=0&end_time=${LAST_SECOND}`);
      assert.equal(last.statusCode, 200);
    });

    test("1e309, Infinity and NaN in a query are refused naming the field", async () => {
      for (const text of ["1e309", "Infinity", "-Infinity", "NaN"]) {
        const integer = await get(`${DEVELOPER}/buy_order?game=cs2&page_num=${text}`);
        assert.deepEqual(integer.json(), refusal("page_num: must be integer"), text);
        const number = await get(`${DEVELOPER}/sell_order/on_sale?game=cs2&min_paintwear=${text}`);
        assert.deepEqual(number.json(), refusal("min_paintwear: must be number"), text);
      }
    });

    test("a raw 1e309 in a JSON body (Infinity once parsed) is refused by integer and number schemas", async () => {
      const integer = await postText(`${DEVELOPER}/purchase/orders/list`, '{"game":"cs2","end_time":1e309}');
      assert.equal(integer.statusCode, 400);
      assert.deepEqual(integer.json(), refusal("end_time: must be integer"));
      const amount = await postText(
        `${DEVELOPER}/purchase/orders`,
        `{"game":"cs2","items":[{"goods_id":${sticker},"max_price":1e309,"quantity":1}]}`,
      );
      assert.equal(amount.statusCode, 400);
      assert.deepEqual(amount.json(), refusal("items.0.max_price: must be number or string"));
    });
  });

  describe("text", () => {
    test("a NUL byte or another control character in free text is refused naming the field", async () => {
      const assetid = await grantOne(t, trader.platformid, { market_hash_name: STICKER });
      const cases: Array<[Promise<{ statusCode: number; json(): unknown }>, string]> = [
        [
          post(`${DEVELOPER}/sell_order/items`, {
            game: "cs2",
            assets: [{ assetid, price: "1.00", description: "mint\u0000" }],
          }),
          "assets.0.description: must not contain control characters other than tabs and line breaks",
        ],
        [
          post(`${DEVELOPER}/purchase/orders`, {
            game: "cs2",
            items: [{ market_hash_name: `${STICKER}\u0000`, max_price: 1, quantity: 1 }],
          }),
          "items.0.market_hash_name: must not contain control characters",
        ],
        [
          t.as(
            (await t.createUser({ access_level: "enterprise" })).token,
            "GET",
            `/api/market/enterprise/goods/sell_order?game=cs2&market_hash_name=a%00b`,
          ),
          "market_hash_name: must not contain control characters",
        ],
        [
          get(`${DEVELOPER}/sell_order/on_sale?game=cs2&search=%1B%5B31m`),
          "search: must not contain control characters",
        ],
        [
          t.admin("POST", `/sandbox/platform/accounts/${trader.platformid}/items`, {
            market_hash_name: "\u0000",
          }),
          "market_hash_name: must not contain control characters",
        ],
        [
          t.admin("POST", `/sandbox/platform/accounts/${trader.platformid}/items`, {
            market_hash_name: STICKER,
            nametag: "tag\u0007",
          }),
          "nametag: must not contain control characters",
        ],
        [
          post(`${DEVELOPER}/purchase/orders`, {
            game: "cs2",
            items: [{ goods_id: sticker, max_price: "1\u0000", quantity: 1 }],
          }),
          "items.0.max_price: must not contain control characters",
        ],
        [
          post(`${DEVELOPER}/purchase/orders`, {
            game: "cs2",
            items: [{ goods_id: sticker, max_price: 1, quantity: 1 }],
            trade_url: "\ud800",
          }),
          "trade_url: must not contain control characters",
        ],
      ];
      for (const [pending, message] of cases) {
        const response = await pending;
        assert.equal(response.statusCode, 400, message);
        assert.deepEqual(response.json(), refusal(message));
      }
    });

    test("a listing description keeps its line breaks and tabs", async () => {
      const assetid = await grantOne(t, trader.platformid, { market_hash_name: STICKER });
      const description = "line one\n\tline two";
      const listed = await post(`${DEVELOPER}/sell_order/items`, {
        game: "cs2",
        assets: [{ assetid, price: "1.00", description }],
      });
      assert.equal(listed.statusCode, 200, listed.body);
      assert.equal(listed.json()[assetid], "OK");
      const onSale = await get(`${DEVELOPER}/sell_order/on_sale?game=cs2`);
      const listing = onSale
        .json()
        .data.items.find((item: { asset_info: { assetid: string } }) => item.asset_info.assetid === assetid);
      assert.equal(listing.description, description);
    });
  });

  describe("lenient parsing", () => {
    test("integer query parameters are plain decimal digits: hex, exponents, signs and spaces are refused", async () => {
      for (const text of ["0x1A", "1e2", "+26", "%2026", "26%20", "26.0", "2_6", "%EF%BC%92%EF%BC%96", ""]) {
        const response = await t.app.inject({
          method: "GET",
          url: `/api/market/goods/info?game=csgo&goods_id=${text}`,
        });
        assert.equal(response.statusCode, 400, text);
        assert.deepEqual(response.json(), internalRefusal("goods_id: must be integer"), text);
      }
      const paged = await get(`${DEVELOPER}/buy_order?game=cs2&page_num=1e2`);
      assert.deepEqual(paged.json(), refusal("page_num: must be integer"));
      const plain = await t.app.inject({
        method: "GET",
        url: `/api/market/goods/info?game=csgo&goods_id=${sticker}`,
      });
      assert.equal(plain.statusCode, 200);
      assert.equal(plain.json().data.id, sticker);
    });

    test("a number given twice in a query is refused naming it", async () => {
      const response = await get(`${DEVELOPER}/buy_order?game=cs2&page_num=1&page_num=2`);
      assert.deepEqual(response.json(), refusal("page_num: must be integer"));
    });

    test("an amount with white space around it is refused, in a query and in a body", async () => {
      const query = await get(
        `${DEVELOPER}/purchase/quantity?game=cs2&goods_id=${sticker}&max_price=%201%20`,
      );
      assert.deepEqual(query.json(), refusal("max_price: must be an amount in yuan with at most 2 decimals"));
      const assetid = await grantOne(t, trader.platformid, { market_hash_name: STICKER });
      const body = await post(`${DEVELOPER}/sell_order/items`, {
        game: "cs2",
        assets: [{ assetid, price: " 1 " }],
      });
      assert.equal(body.statusCode, 200);
      assert.equal(body.json()[assetid], "price must be an amount in yuan with at most 2 decimals");
    });

    test("a purchase item naming no goods is refused naming the item, and nothing is bought", async () => {
      const seller = await createReadyTrader(t, "bounds-seller");
      const assetid = await grantOne(t, seller.platformid, { market_hash_name: STICKER });
      await t.as(seller.token, "POST", `${DEVELOPER}/sell_order/items`, {
        game: "cs2",
        assets: [{ assetid, price: "1.00" }],
      });
      await t.fund(trader.userId, "balance", "100.00");
      const before = (await t.admin("GET", `/sandbox/users/${trader.userId}/balances`)).json();
      const response = await post(`${DEVELOPER}/purchase/orders`, {
        game: "cs2",
        items: [
          { goods_id: sticker, max_price: 10, quantity: 1 },
          { max_price: 10, quantity: 1 },
        ],
      });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json(), refusal("items.1.goods_id: give goods_id or market_hash_name"));
      assert.deepEqual((await t.admin("GET", `/sandbox/users/${trader.userId}/balances`)).json(), before);
      const quantity = await get(`${DEVELOPER}/purchase/quantity?game=cs2&goods_id=${sticker}&max_price=10`);
      assert.equal(quantity.json().quantity, 1, "the listing is still on sale");
    });
  });
});
