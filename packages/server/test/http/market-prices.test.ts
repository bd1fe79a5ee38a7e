import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  getEnterpriseFloatItems,
  getEnterpriseItems,
  getFloatItems,
  getMarketItems,
  type OperationDefinition,
} from "@skinmarket/contract";
import { Value } from "typebox/value";
import { LimiterStore } from "../../src/http/limits/limiter-store.ts";
import { expectedParts, fadeRangeIndex, figures, yuan } from "../support/market-recompute.ts";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const REDLINE = "AK-47 | Redline (Field-Tested)";
const DOPPLER = "★ Karambit | Doppler (Factory New)";
const FADE = "★ Karambit | Fade (Factory New)";
const STICKER = "Sticker | Crown (Foil)";
const QUIET = "AWP | Asiimov (Field-Tested)";

type Json = Record<string, unknown>;
type Entry = { goods_id: number; market_hash_name: string; name: string; update_time: number; sales: Json[] };

/** The response schema holds the answer: every field present, of its type. */
function assertShape(operation: OperationDefinition, body: unknown) {
  assert.ok(
    Value.Check(operation.response, body),
    JSON.stringify([...Value.Errors(operation.response, body)][0]),
  );
}

/**
 * The price operations (docs/design/market-data.md#the-market-figures-and-the-other-price-operations) against a recomputation from the listings and
 * buy orders in the database: a small market with paint-wear spread over several intervals, a
 * Doppler's phases, a Fade's ranges, pre-sell listings, and buy orders with and without constraints.
 */
describe("price operations", () => {
  let t: TestApp;
  let store: LimiterStore;
  let seller: PlatformFixture;
  let developer: { token: string };
  let enterprise: { token: string };
  const ids: Record<string, number> = {};
  const seeds: number[] = [];

  const list = async (goods: string, items: Array<{ price: number } & Json>) => {
    const assets: Array<{ assetid: string; price: number }> = [];
    for (const { price, ...extra } of items) {
      const [assetid] = await grant(t, seller.platformid, { market_hash_name: goods, count: 1, ...extra });
      assets.push({ assetid: assetid!, price });
    }
    const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets,
    });
    assert.equal(listed.statusCode, 200, listed.body);
  };
  const bid = async (
    trader: PlatformFixture,
    goods: string,
    price: number,
    num: number,
    specific?: Json[],
  ) => {
    const response = await t.as(trader.token, "POST", "/api/market/developer/buy_order", {
      game: "cs2",
      goods_id: ids[goods],
      price,
      num,
      ...(specific ? { specific } : {}),
    });
    assert.equal(response.statusCode, 200, response.body);
  };
  /** The snapshot is at most a second old: move the clock past it so the next answer is fresh. */
  const freshSnapshot = () => t.admin("POST", "/sandbox/clock/advance", { seconds: 2 });

  before(async () => {
    store = new LimiterStore({ log: { warn() {}, info() {} } });
    t = await createTestApp({ catalog: true, limits: { store } });
    seller = await createReadyTrader(t);
    developer = await t.createUser();
    enterprise = await t.createUser({ access_level: "enterprise" });
    for (const goods of [REDLINE, DOPPLER, FADE, STICKER, QUIET]) ids[goods] = await goodsIdOf(t, goods);

    await list(REDLINE, [
      { price: 10.05, paintwear: "0.16" },
      { price: 11.1, paintwear: "0.16" },
      { price: 12.33, paintwear: "0.17" },
      { price: 13, paintwear: "0.18" },
      { price: 14.07, paintwear: "0.2" },
      { price: 15, paintwear: "0.2" },
      { price: 16.5, paintwear: "0.25" },
      { price: 17, paintwear: "0.25" },
      { price: 18.25, paintwear: "0.26" },
      { price: 19.99, paintwear: "0.3" },
      { price: 20.01, paintwear: "0.31" },
      { price: 21, paintwear: "0.37" },
      { price: 10.5, paintwear: "0.16", cooldown_days: 3 },
      { price: 22, paintwear: "0.3", cooldown_days: 3 },
    ]);
    await list(
      DOPPLER,
      [1500, 1510, 1620, 1730, 1840, 1950, 2060, 2170].map((price) => ({ price })),
    );
    await list(DOPPLER, [{ price: 1400, cooldown_days: 2 }]);
    // Seeds in three fade ranges, two of each.
    for (const range of [0, 3, 5]) {
      const found = Array.from({ length: 1001 }, (_, seed) => seed).filter(
        (seed) => fadeRangeIndex(FADE, seed) === range,
      );
      seeds.push(found[0]!, found[1]!);
    }
    await list(
      FADE,
      seeds.map((paintseed, index) => ({ price: 3000 + 111 * index, paintseed })),
    );
    await list(STICKER, [{ price: 3 }, { price: 2.5 }]);

    const buyer = await createReadyTrader(t);
    await t.fund(buyer.userId, "balance", 20_000);
    await bid(buyer, REDLINE, 8, 3);
    await bid(buyer, REDLINE, 9, 2, [{ type: "paintwear", values: ["0.15", "0.21"] }]);
    await bid(buyer, REDLINE, 9.9, 1, [{ type: "paintseed", values: ["661"] }]);
    const doppler = await t.database.db
      .selectFrom("goods")
      .select("tags")
      .where("goods_id", "=", ids[DOPPLER]!)
      .executeTakeFirstOrThrow();
    const phase = doppler.tags.find((tag) => tag.category === "phase")!.internal_name;
    await bid(buyer, DOPPLER, 1000, 1, [{ type: "phase", values: [phase] }]);
    await bid(buyer, DOPPLER, 900, 2);
    await bid(buyer, FADE, 2500, 1, [{ type: "fade", values: ["95", "100"] }]);
    // An offline buyer's orders are not in the public book.
    const offline = await createReadyTrader(t);
    await t.fund(offline.userId, "balance", 100);
    await bid(offline, REDLINE, 9.95, 1);
    const settings = await t.admin("PUT", `/sandbox/users/${offline.userId}/settings`, {
      buy_order_status: "offline",
    });
    assert.equal(settings.statusCode, 200, settings.body);
    await freshSnapshot();
  });
  after(async () => {
    await t.close();
    await store.close();
  });

  const enterpriseFloat = async (goods: string) => {
    const answer = await t.as(
      enterprise.token,
      "GET",
      `/api/market/enterprise/float/items?game=cs2&goods_id=${ids[goods]}`,
    );
    assert.equal(answer.statusCode, 200, answer.body);
    assertShape(getEnterpriseFloatItems, answer.json());
    return answer.json<{ info: Entry[] }>().info[0]!;
  };

  test("enterprise/float/items: every figure of every interval, phase and fade range matches the rows", async () => {
    for (const goods of [REDLINE, DOPPLER, FADE, STICKER]) {
      const entry = await enterpriseFloat(goods);
      const expected = (await expectedParts(t, ids[goods]!)).map(figures);
      assert.deepEqual(entry.sales, expected, goods);
    }
  });

  test("the market is what the test built: boundaries, phases, fade ranges and bids all show", async () => {
    const redline = await enterpriseFloat(REDLINE);
    const intervals = redline.sales.filter((sale) => "min_float" in sale);
    // 0.18 sits on the boundary of two closed intervals and counts in both.
    assert.deepEqual(
      intervals.map((sale) => `${sale.min_float}-${sale.max_float}`),
      ["0.15-0.18", "0.18-0.21", "0.24-0.27", "0.27-0.38"],
    );
    assert.equal(intervals[0]!.sell_num, 4);
    assert.equal(intervals[0]!.pre_sell_num, 1);
    assert.equal(intervals[1]!.sell_num, 3);
    // The wear-constrained bid covers the first two intervals only; the seed-constrained one none.
    assert.deepEqual(
      intervals.map((sale) => [sale.buy_max_price, sale.buy_order_num]),
      [
        ["9.00", 5],
        ["9.00", 5],
        ["8.00", 3],
        ["8.00", 3],
      ],
    );
    const whole = redline.sales[0]!;
    assert.equal(
      whole.avg_min_price,
      yuan(Math.floor((1005 + 1110 + 1233 + 1300 + 1407 + 1500 + 1650 + 1700 + 1825 + 1999) / 10 + 0.5)),
    );
    assert.equal(whole.buy_max_price, "9.90", "the offline buyer's 9.95 is not in the book");
    assert.equal(whole.buy_order_num, 6);
    const doppler = await enterpriseFloat(DOPPLER);
    assert.ok(doppler.sales.some((sale) => typeof sale.tag_id === "number" && sale.tag_id < 1_000_000));
    const fade = await enterpriseFloat(FADE);
    assert.deepEqual(
      fade.sales.filter((sale) => "tag_id" in sale).map((sale) => [sale.tag_name, sale.sell_num]),
      [
        ["80%-90%", 2],
        ["95%-97%", 2],
        ["99%-100%", 2],
      ],
    );
  });

  test("the whole market answers the same entries as single-goods lookups", async () => {
    const whole = await t.as(enterprise.token, "GET", "/api/market/enterprise/float/items?game=cs2");
    assert.equal(whole.statusCode, 200, whole.body);
    assertShape(getEnterpriseFloatItems, whole.json());
    const info = whole.json<{ info: Entry[] }>().info;
    assert.deepEqual(
      info.map((entry) => entry.goods_id),
      [ids[REDLINE]!, ids[DOPPLER]!, ids[FADE]!, ids[STICKER]!].sort((a, b) => a - b),
    );
    for (const entry of info) {
      const expected = (await expectedParts(t, entry.goods_id)).map(figures);
      assert.deepEqual(entry.sales, expected);
    }
    const noStickers = (
      await t.as(enterprise.token, "GET", "/api/market/enterprise/float/items?game=cs2&include_sticker=0")
    ).json<{ info: Entry[] }>();
    assert.ok(noStickers.info.every((entry) => entry.goods_id !== ids[STICKER]));
  });

  test("enterprise/items: lowest prices and the best bid of the public book", async () => {
    const answer = await t.as(enterprise.token, "GET", "/api/market/enterprise/items?game=cs2");
    assert.equal(answer.statusCode, 200, answer.body);
    assertShape(getEnterpriseItems, answer.json());
    const body = answer.json<{ info: Entry[]; req_remaining: number; stat_time: number }>();
    for (const entry of body.info) {
      const whole = figures((await expectedParts(t, entry.goods_id))[0]!);
      assert.deepEqual(entry.sales, [
        {
          min_price: whole.min_price,
          pre_sell_min_price: whole.pre_sell_min_price,
          buy_max_price: whole.buy_max_price,
        },
      ]);
    }
    assert.equal(body.req_remaining, 4999);
    const dear = (
      await t.as(enterprise.token, "GET", "/api/market/enterprise/items?game=cs2&min_price=100")
    ).json<{ info: Entry[] }>();
    assert.deepEqual(
      dear.info.map((entry) => entry.goods_id),
      [ids[DOPPLER]!, ids[FADE]!].sort((a, b) => a - b),
    );
    const quiet = (
      await t.as(
        enterprise.token,
        "GET",
        `/api/market/enterprise/items?game=cs2&market_hash_name=${encodeURIComponent(QUIET)}`,
      )
    ).json<{ info: Entry[] }>();
    assert.deepEqual(quiet.info[0]!.sales, [
      { min_price: "0.00", pre_sell_min_price: "0.00", buy_max_price: "0.00" },
    ]);
    const dota = await t.as(enterprise.token, "GET", "/api/market/enterprise/items?game=dota2");
    assert.equal(dota.statusCode, 200, dota.body);
    assert.deepEqual(dota.json().info, []);
    const dotaGoods = await t.as(
      enterprise.token,
      "GET",
      `/api/market/enterprise/items?game=dota2&goods_id=${ids[REDLINE]}`,
    );
    assert.equal(dotaGoods.statusCode, 400);
    assert.match(dotaGoods.json().msg, /^goods_id: /);
  });

  test("float/items: by id and by name, each goods once, with the liquidity rank on the whole goods", async () => {
    const answer = await t.as(developer.token, "POST", "/api/market/float/items", {
      game: "cs2",
      goods_ids: [ids[REDLINE], ids[QUIET]],
      market_hash_names: [FADE, REDLINE],
    });
    assert.equal(answer.statusCode, 200, answer.body);
    assertShape(getFloatItems, answer.json());
    const body = answer.json<{ info: Entry[]; req_remaining: number }>();
    assert.deepEqual(
      body.info.map((entry) => entry.goods_id),
      [ids[REDLINE], ids[QUIET], ids[FADE]],
    );
    for (const entry of body.info) {
      const expected = (await expectedParts(t, entry.goods_id)).map((part, index) => {
        const { avg_min_price: _avg, buy_max_price: _max, buy_order_num: _num, ...rest } = figures(part);
        const { min_float, max_float, tag_id, tag_name, ...core } = rest as Json;
        return {
          ...core,
          ...(index === 0 ? { liquidity_rank: "0.00%" } : {}),
          ...(min_float !== undefined ? { min_float, max_float } : {}),
          ...(tag_id !== undefined ? { tag_id, tag_name } : {}),
        };
      });
      assert.deepEqual(entry.sales, expected);
    }
    assert.equal(body.req_remaining, 499);
  });

  test("market/items keeps its answer on the new snapshot", async () => {
    const answer = await t.as(developer.token, "GET", "/api/market/items?game=cs2");
    assertShape(getMarketItems, answer.json());
    for (const entry of answer.json<{ info: Entry[] }>().info) {
      const whole = figures((await expectedParts(t, entry.goods_id))[0]!);
      assert.deepEqual(entry.sales, [
        { min_price: whole.min_price, pre_sell_min_price: whole.pre_sell_min_price },
      ]);
    }
  });

  test("a change in listings shows once the snapshot is a second old", async () => {
    await list(STICKER, [{ price: 1.5 }]);
    await freshSnapshot();
    const entry = await enterpriseFloat(STICKER);
    assert.equal(entry.sales[0]!.min_price, "1.50");
    assert.equal(entry.sales[0]!.sell_num, 3);
  });

  test("errors name the field; enterprise routes refuse developer tokens; no token is Unauthorized", async () => {
    const cases: Array<["GET", string, unknown, RegExp]> = [
      ["GET", "/api/market/enterprise/float/items?game=cs2&goods_id=999999999", undefined, /^goods_id: /],
      [
        "GET",
        `/api/market/enterprise/items?game=cs2&market_hash_name=Nothing`,
        undefined,
        /^market_hash_name: /,
      ],
      ["GET", "/api/market/enterprise/items?game=cs2&min_price=1.234", undefined, /^min_price: /],
      ["GET", "/api/market/enterprise/items?game=dota3", undefined, /^game: /],
      ["GET", "/api/market/enterprise/items?game=cs2&high_liquidity=2", undefined, /^high_liquidity: /],
      [
        "GET",
        "/api/market/enterprise/float/items?game=cs2&include_sticker=3",
        undefined,
        /^include_sticker: /,
      ],
    ];
    for (const [method, url, body, message] of cases) {
      const answer = await t.as(enterprise.token, method, url, body);
      assert.equal(answer.statusCode, 400, `${url}: ${answer.body}`);
      assert.equal(answer.json().code, "Invalid Argument");
      assert.match(answer.json().msg, message, url);
    }
    const floatCases: Array<[unknown, RegExp]> = [
      [{ game: "cs2" }, /^goods_ids: /],
      [{ game: "cs2", goods_ids: [] }, /^goods_ids: /],
      [{ game: "cs2", goods_ids: [ids[REDLINE], 999999999] }, /^goods_ids\.1: /],
      [{ game: "cs2", market_hash_names: ["Nothing at all"] }, /^market_hash_names\.0: /],
      [{ game: "cs2", goods_ids: ["x"] }, /^goods_ids/],
      [{ game: "cs2", goods_ids: [1], colour: 1 }, /^colour: /],
    ];
    for (const [body, message] of floatCases) {
      const answer = await t.as(developer.token, "POST", "/api/market/float/items", body);
      assert.equal(answer.statusCode, 400, answer.body);
      assert.match(answer.json().msg, message, JSON.stringify(body));
    }
    for (const path of [
      "/api/market/enterprise/items?game=cs2",
      "/api/market/enterprise/float/items?game=cs2",
      "/api/market/enterprise/items/liquidity_rank?game=cs2",
    ]) {
      const refused = await t.as(developer.token, "GET", path);
      assert.equal(refused.statusCode, 403, path);
      assert.equal(refused.json().code, "Access Denied");
      assert.equal((await t.app.inject({ method: "GET", url: path })).statusCode, 401);
    }
    const anonymous = await t.app.inject({
      method: "POST",
      url: "/api/market/float/items",
      payload: { game: "cs2", goods_ids: [1] },
    });
    assert.equal(anonymous.statusCode, 401);
  });
});
