import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
const REDLINE = "AK-47 | Redline (Field-Tested)";

/**
 * The habits of the tools written for the real service (docs/design/wire-conventions.md#tolerance-of-the-website-routes): empty parameters mean absent, `csgo` and `cs2` name the same game, and
 * `float/items` takes the body those tools send.
 */
describe("tolerance of what real tools send", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let token: string;
  let redlineId: number;
  let stickerId: number;

  const get = (url: string) => t.app.inject({ method: "GET", url });
  const prices = (answer: { json(): { data: { items: Array<{ price: string }> } } }) =>
    answer.json().data.items.map((item) => item.price);

  before(async () => {
    t = await createTestApp({ catalog: true });
    redlineId = await goodsIdOf(t, REDLINE);
    stickerId = await goodsIdOf(t, STICKER);
    seller = await createReadyTrader(t, "tolerance-seller");
    const redlines = await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 2 });
    const [sticker] = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 1 });
    const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [
        { assetid: redlines[0], price: 12 },
        { assetid: redlines[1], price: 11 },
        { assetid: sticker, price: 2.5 },
      ],
    });
    assert.equal(listed.statusCode, 200, listed.body);
    token = (await t.createUser()).token;
    await t.admin("POST", "/sandbox/jobs/run");
  });
  after(() => t.close());

  test("goods/sell_order: empty optional parameters are absent, the same page as without them", async () => {
    const base = `/api/market/goods/sell_order?game=csgo&goods_id=${redlineId}`;
    const plain = await get(base);
    assert.equal(plain.statusCode, 200, plain.body);
    assert.deepEqual(prices(plain), ["11.00", "12.00"]);
    for (const empty of [
      "mode",
      "sort_by",
      "page_num",
      "min_paintwear",
      "paintseed",
      "tag_ids",
      "min_fade",
    ]) {
      const answer = await get(`${base}&${empty}=`);
      assert.equal(answer.statusCode, 200, `${empty}=: ${answer.body}`);
      assert.deepEqual(prices(answer), ["11.00", "12.00"], `${empty}= changes nothing`);
    }
    const all = await get(`${base}&mode=&sort_by=&page_num=&allow_tradable_cooldown=&max_paintwear=`);
    assert.equal(all.statusCode, 200, all.body);
    assert.equal(all.json().data.sort_by, "default");
    assert.equal(all.json().data.page_num, 1);
  });

  test("a required parameter given empty is refused naming it", async () => {
    const cases: Array<[string, string]> = [
      [`/api/market/goods/sell_order?game=csgo&goods_id=`, "goods_id"],
      [`/api/market/goods/info?game=&goods_id=${redlineId}`, "game"],
    ];
    for (const [url, field] of cases) {
      const answer = await get(url);
      assert.equal(answer.statusCode, 400, `${url}: ${answer.body}`);
      assert.match(answer.json().error, new RegExp(`^${field}: `), url);
    }
    const official = await t.as(token, "GET", "/api/market/items?game=");
    assert.equal(official.statusCode, 400, official.body);
    assert.match(official.json().msg, /^game: /);
  });

  test("an empty value that is present but wrong elsewhere is still refused: mode=3", async () => {
    const answer = await get(`/api/market/goods/sell_order?game=csgo&goods_id=${redlineId}&mode=3`);
    assert.equal(answer.statusCode, 400);
    assert.match(answer.json().error, /^mode: /);
  });

  test("GET /api/market/items takes game=csgo as game=cs2, with the same answer", async () => {
    const csgo = await t.as(token, "GET", `/api/market/items?game=csgo&goods_id=${redlineId}`);
    const cs2 = await t.as(token, "GET", `/api/market/items?game=cs2&goods_id=${redlineId}`);
    assert.equal(csgo.statusCode, 200, csgo.body);
    assert.deepEqual(csgo.json().info, cs2.json().info);
    assert.deepEqual(csgo.json().info[0].sales, [{ min_price: "11.00", pre_sell_min_price: "0.00" }]);
    const other = await t.as(token, "GET", "/api/market/items?game=dota3");
    assert.equal(other.statusCode, 400);
    assert.match(other.json().msg, /^game: /);
  });

  test("website routes take game=cs2 as game=csgo", async () => {
    const cs2 = await get(`/api/market/goods/info?game=cs2&goods_id=${redlineId}`);
    assert.equal(cs2.statusCode, 200, cs2.body);
    assert.equal(cs2.json().data.game, "csgo", "records still say csgo");
    assert.equal(cs2.json().data.sell_min_price, "11.00");
  });

  test("float/items: game may be left out, and min_price keeps goods whose lowest price reaches it", async () => {
    const answer = await t.as(token, "POST", "/api/market/float/items", {
      goods_ids: [redlineId, stickerId],
      min_price: 10,
    });
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual(
      answer.json().info.map((entry: { goods_id: number }) => entry.goods_id),
      [redlineId],
      "the 2.50 sticker is below min_price",
    );
    const csgo = await t.as(token, "POST", "/api/market/float/items", {
      game: "csgo",
      goods_ids: [stickerId],
    });
    assert.equal(csgo.statusCode, 200, csgo.body);
    assert.equal(csgo.json().info[0].sales[0].min_price, "2.50");
  });

  test("float/items still refuses a bad min_price and a field nobody sends, naming them", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ goods_ids: [stickerId], min_price: "1.234" }, /^min_price: /],
      [{ goods_ids: [stickerId], max_pric: 3 }, /max_pric/],
      [{ game: "dota3", goods_ids: [stickerId] }, /^game: /],
    ];
    for (const [body, message] of cases) {
      const answer = await t.as(token, "POST", "/api/market/float/items", body);
      assert.equal(answer.statusCode, 400, JSON.stringify(body));
      assert.match(answer.json().msg, message);
    }
  });

  test("empty parameters do not open a signed-in route: the buying tab with search= still needs a session", async () => {
    const answer = await get("/api/market/goods/buying?game=csgo&search=&page_size=");
    assert.equal(answer.statusCode, 401);
    assert.equal(answer.json().code, "Login Required");
  });
});
