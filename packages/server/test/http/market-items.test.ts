import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { LimiterStore } from "../../src/http/limits/limiter-store.ts";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
const REDLINE = "AK-47 | Redline (Field-Tested)";
const KARAMBIT = "★ Karambit | Doppler (Factory New)";

/** GET /api/market/items against a recomputation from the listings behind it. */
describe("GET /api/market/items", () => {
  let t: TestApp;
  let store: LimiterStore;
  let seller: PlatformFixture;
  let ids: Record<string, number>;
  const items = (token: string, query = "") => t.as(token, "GET", `/api/market/items?game=cs2${query}`);

  before(async () => {
    store = new LimiterStore({ log: { warn() {}, info() {} } });
    t = await createTestApp({ catalog: true, limits: { store } });
    seller = await createReadyTrader(t);
    ids = {
      [STICKER]: await goodsIdOf(t, STICKER),
      [REDLINE]: await goodsIdOf(t, REDLINE),
      [KARAMBIT]: await goodsIdOf(t, KARAMBIT),
    };
    const list = async (goods: string, prices: number[], extra = {}) => {
      const assetids = await grant(t, seller.platformid, {
        market_hash_name: goods,
        count: prices.length,
        ...extra,
      });
      await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
        game: "cs2",
        assets: assetids.map((assetid, index) => ({ assetid, price: prices[index] })),
      });
    };
    await list(STICKER, [3, 2.5]);
    await list(REDLINE, [12, 11]);
    await list(REDLINE, [9], { cooldown_days: 3 });
  });
  after(async () => {
    await t.close();
    await store.close();
  });

  test("the whole market: each goods' lowest tradable and pre-sell prices, what is left of the day, and when it was computed", async () => {
    const buyer = await t.createUser();
    const asked = Math.floor(t.clock.now().getTime() / 1000);
    const answer = await items(buyer.token);
    const answered = Math.floor(t.clock.now().getTime() / 1000);
    assert.equal(answer.statusCode, 200, answer.body);
    const body = answer.json();
    const byId = new Map(body.info.map((entry: { goods_id: number }) => [entry.goods_id, entry]));
    assert.deepEqual((byId.get(ids[STICKER]!) as { sales: unknown }).sales, [
      { min_price: "2.50", pre_sell_min_price: "0.00" },
    ]);
    assert.deepEqual((byId.get(ids[REDLINE]!) as { sales: unknown }).sales, [
      { min_price: "11.00", pre_sell_min_price: "9.00" },
    ]);
    assert.equal(
      byId.has(ids[KARAMBIT]!),
      false,
      "a goods with no listing and no bid is not on the market list",
    );
    assert.equal(body.req_remaining, 499);
    assert.equal((await items(buyer.token)).json().req_remaining, 498);
    // The listings changed the market: the answer's figures were computed for this request.
    assert.ok(
      body.stat_time >= asked && body.stat_time <= answered,
      `${asked} <= ${body.stat_time} <= ${answered}`,
    );
  });

  test("include_sticker=0 leaves stickers out; min_price keeps goods priced at least that", async () => {
    const buyer = await t.createUser();
    const noStickers = (await items(buyer.token, "&include_sticker=0")).json();
    assert.ok(noStickers.info.every((entry: { goods_id: number }) => entry.goods_id !== ids[STICKER]));
    assert.ok(noStickers.info.some((entry: { goods_id: number }) => entry.goods_id === ids[REDLINE]));
    const dear = (await items(buyer.token, "&min_price=10")).json();
    assert.deepEqual(
      dear.info.map((entry: { goods_id: number }) => entry.goods_id),
      [ids[REDLINE]],
    );
  });

  test("one goods by id or by name, with 0.00 while it has no listing", async () => {
    const buyer = await t.createUser();
    const byName = (await items(buyer.token, `&market_hash_name=${encodeURIComponent(REDLINE)}`)).json();
    assert.equal(byName.info.length, 1);
    assert.equal(byName.info[0].name.length > 0, true);
    const quiet = (await items(buyer.token, `&goods_id=${ids[KARAMBIT]}`)).json();
    assert.deepEqual(quiet.info[0].sales, [{ min_price: "0.00", pre_sell_min_price: "0.00" }]);
    assert.equal(quiet.info[0].market_hash_name, KARAMBIT);
  });

  test("errors name the field; without a token it is Unauthorized", async () => {
    const buyer = await t.createUser();
    const unknown = await items(buyer.token, "&goods_id=999999999");
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.json().msg, /^goods_id: /);
    assert.equal((await items(buyer.token, "&min_price=abc")).statusCode, 400);
    assert.equal((await t.app.inject({ method: "GET", url: "/api/market/items?game=cs2" })).statusCode, 401);
    assert.equal((await t.as(buyer.token, "GET", "/api/market/items?game=dota3")).statusCode, 400);
  });
});

describe("GET /api/market/items with limits off", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ catalog: true });
  });
  after(() => t.close());

  test("answers, with the whole daily allowance as req_remaining", async () => {
    const user = await t.createUser();
    const answer = await t.as(user.token, "GET", "/api/market/items?game=cs2");
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual(answer.json().info, []);
    assert.equal(answer.json().req_remaining, 500);
  });
});
