import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  formatMoney,
  getEnterpriseSellOrders,
  PAINTWEAR_INTERVALS,
  type AssetInfo,
  type OperationResponse,
} from "@skinmarket/contract";
import { MarketApiError, MarketClient } from "@skinmarket/client";
import { LimiterStore } from "../../src/http/limits/limiter-store.ts";
import { DELIVERY_WINDOW_MS } from "../../src/domain/market/delivery-window.ts";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const REDLINE = "AK-47 | Redline (Field-Tested)";
const DOPPLER = "★ Karambit | Doppler (Factory New)";
const STICKER = "Sticker | Crown (Foil)";
const PATH = "/api/market/enterprise/goods/sell_order";

type Answer = OperationResponse<typeof getEnterpriseSellOrders>;

/** The reference's enterprise listing record, field by field. */
const LISTING_FIELDS: Record<string, "string" | "integer" | "number" | "boolean" | "object"> = {
  id: "string",
  user_id: "string",
  game: "string",
  goods_id: "integer",
  price: "string",
  asset_info: "object",
  allow_wallet_zft: "boolean",
  allow_epay: "boolean",
  allow_pending_divide_balance: "boolean",
  force_buyer_send_offer: "boolean",
  recent_average_duration: "number",
  recent_deliver_rate: "number",
  sticker_premium: "number",
};
const ASSET_FIELDS = ["assetid", "classid", "contextid", "goods_id", "id", "info", "instanceid", "paintwear"];

function assertFieldTypes(record: Record<string, unknown>, fields: typeof LISTING_FIELDS): void {
  assert.deepEqual(Object.keys(record).sort(), Object.keys(fields).sort());
  for (const [field, type] of Object.entries(fields)) {
    const value = record[field];
    if (type === "integer") assert.ok(Number.isInteger(value), `${field} is an integer`);
    else if (type === "object")
      assert.ok(value !== null && typeof value === "object", `${field} is an object`);
    else assert.equal(typeof value, type, `${field} is a ${type}`);
  }
}

interface Query {
  market_hash_name: string;
  min_paintwear?: string;
  max_paintwear?: string;
  paintseed?: number;
  paintindex?: number;
  sort_by?: string;
  page_num?: number;
  page_size?: number;
  pay_method?: "epay" | "wallet" | "pending_divide_balance";
}

/** GET enterprise/goods/sell_order against a recomputation from the listings and trades tables. */
describe("GET /api/market/enterprise/goods/sell_order", () => {
  let t: TestApp;
  let enterprise: { token: string };
  let sellerA: PlatformFixture;
  let sellerB: PlatformFixture;

  const ask = (query: Query, token = enterprise.token) => {
    const search = new URLSearchParams({ game: "cs2" });
    for (const [key, value] of Object.entries(query)) search.set(key, String(value));
    return t.as(token, "GET", `${PATH}?${search}`);
  };

  const list = async (
    trader: PlatformFixture,
    goods: string,
    items: Array<{ price: number; grant?: Record<string, unknown>; flags?: Record<string, unknown> }>,
  ) => {
    const ids: string[] = [];
    for (const item of items) {
      const [assetid] = await grant(t, trader.platformid, {
        market_hash_name: goods,
        count: 1,
        ...item.grant,
      });
      const listed = await t.as(trader.token, "POST", "/api/market/developer/sell_order/items", {
        game: "cs2",
        assets: [{ assetid, price: item.price, ...item.flags }],
      });
      assert.equal(listed.json()[assetid!], "OK", listed.body);
      ids.push(listed.json().sell_orders[assetid!].sell_order_id);
    }
    return ids;
  };

  /** What the answer must hold: straight from the tables, filtered and sorted in plain code. */
  async function expected(query: Query) {
    const now = t.clock.now();
    const goodsId = await goodsIdOf(t, query.market_hash_name);
    const rows = await t.database.db
      .selectFrom("listings")
      .selectAll()
      .where("goods_id", "=", goodsId)
      .where("state", "=", "ON_SALE")
      .execute();
    const flag = {
      epay: "allow_epay",
      wallet: "allow_wallet_zft",
      pending_divide_balance: "allow_pending_divide_balance",
    } as const;
    const kept = rows.filter(
      (row) =>
        (row.tradable_after === null || row.tradable_after <= now) &&
        (query.min_paintwear === undefined ||
          (Number(row.paintwear) >= Number(query.min_paintwear) &&
            Number(row.paintwear) <= Number(query.max_paintwear))) &&
        (query.paintseed === undefined || row.paintseed === query.paintseed) &&
        (query.paintindex === undefined || row.paintindex === query.paintindex) &&
        (query.pay_method === undefined || row[flag[query.pay_method]]),
    );
    const [field, direction] = (query.sort_by ?? "price.asc").split(".");
    const key = (row: (typeof rows)[number]) =>
      field === "price"
        ? row.price
        : field === "paintwear"
          ? Number(row.paintwear)
          : row.created_at.getTime();
    const sign = direction === "asc" ? 1 : -1;
    kept.sort((a, b) => sign * (key(a) - key(b) || a.listing_id - b.listing_id));
    const pageSize = query.page_size ?? 10;
    const pageNum = query.page_num ?? 1;
    const page = kept.slice((pageNum - 1) * pageSize, pageNum * pageSize);
    const items = [];
    for (const row of page) {
      const stats = await deliveryRecord(row.user_id);
      items.push({
        id: String(row.listing_id),
        user_id: String(row.user_id),
        game: "csgo",
        goods_id: row.goods_id,
        price: formatMoney(row.price),
        asset_info: row.asset,
        allow_wallet_zft: row.allow_wallet_zft,
        allow_epay: row.allow_epay,
        allow_pending_divide_balance: row.allow_pending_divide_balance,
        force_buyer_send_offer: row.force_buyer_send_offer,
        recent_average_duration: stats.duration,
        recent_deliver_rate: stats.rate,
        sticker_premium: await stickerPremium(row.price, row.asset as AssetInfo, goodsId),
      });
    }
    return {
      items,
      page_num: pageNum,
      page_size: pageSize,
      total_count: kept.length,
      total_page: Math.ceil(kept.length / pageSize),
    };
  }

  /** A seller's sales of the last 7 days that finished: delivered, or failed by the seller. */
  async function deliveryRecord(sellerId: number) {
    const since = t.clock.now().getTime() - 7 * 86_400_000;
    const trades = (
      await t.database.db.selectFrom("trades").selectAll().where("seller_id", "=", sellerId).execute()
    ).filter((trade) => trade.created_at.getTime() >= since);
    const delivered = trades.filter((trade) => trade.state === "SUCCESS");
    const failed = trades.filter(
      (trade) =>
        trade.state === "FAIL" &&
        ["seller_timeout", "buyer_cancel", "offer_cancelled"].includes(trade.rollback_by!),
    );
    if (delivered.length + failed.length === 0) return { duration: 0, rate: 0 };
    const seconds = delivered.map(
      (trade) =>
        (trade.updated_at.getTime() -
          (trade.deliver_by ? trade.deliver_by.getTime() - DELIVERY_WINDOW_MS : trade.created_at.getTime())) /
        1000,
    );
    return {
      duration: delivered.length ? Math.round(seconds.reduce((a, b) => a + b, 0) / delivered.length) : 0,
      rate: Math.round((delivered.length / (delivered.length + failed.length)) * 10_000) / 10_000,
    };
  }

  /** The lowest price a buyer can take now, in fen, or undefined without one. */
  async function floorOf(goodsId: number) {
    const now = t.clock.now();
    const prices = (
      await t.database.db
        .selectFrom("listings")
        .select(["price", "tradable_after"])
        .where("goods_id", "=", goodsId)
        .where("state", "=", "ON_SALE")
        .execute()
    )
      .filter((row) => row.tradable_after === null || row.tradable_after <= now)
      .map((row) => row.price);
    return prices.length ? Math.min(...prices) : undefined;
  }

  async function stickerPremium(price: number, asset: AssetInfo, goodsId: number) {
    if (asset.info.stickers.length === 0) return 0;
    let value = 0;
    for (const sticker of asset.info.stickers)
      value += (await floorOf(await goodsIdOf(t, sticker.market_hash_name))) ?? 0;
    const floor = await floorOf(goodsId);
    if (value === 0 || floor === undefined) return 0;
    return Math.round(((price - floor) / value) * 10_000) / 10_000;
  }

  async function assertMatches(query: Query) {
    const answer = await ask(query);
    assert.equal(answer.statusCode, 200, answer.body);
    const body = answer.json<Answer>();
    assert.deepEqual(body, (await expected(query)) as unknown as Answer);
    return body;
  }

  before(async () => {
    t = await createTestApp({ catalog: true });
    enterprise = await t.createUser({ access_level: "enterprise" });
    sellerA = await createReadyTrader(t, "seller-a");
    sellerB = await createReadyTrader(t, "seller-b");
    const buyer = await createReadyTrader(t, "buyer");
    await t.fund(buyer.userId, "balance", 100);

    // Seller A's record: one sticker delivered, one not sent in time.
    await list(sellerA, STICKER, [{ price: 4 }, { price: 4 }]);
    const bought = await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [{ market_hash_name: STICKER, max_price: 4, quantity: 2 }],
    });
    const [delivered, missed] = Object.values(
      bought.json().result as Record<string, { bill_order_ids: string[] }>,
    )[0]!.bill_order_ids;
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 600 });
    await t.as(sellerA.token, "POST", "/api/market/developer/sell_order/send_offer", { order_id: delivered });
    const offer = (await t.admin("GET", `/sandbox/platform/offers?platformid=${buyer.platformid}`)).json()
      .items[0];
    await t.admin("POST", `/sandbox/platform/offers/${offer.tradeofferid}/accept`);
    await t.admin("POST", "/sandbox/jobs/run");
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 13 * 3600 });
    await t.admin("POST", "/sandbox/jobs/run");
    const states = await t.database.db
      .selectFrom("trades")
      .select(["trade_id", "state", "rollback_by"])
      .where("trade_id", "in", [Number(delivered), Number(missed)])
      .orderBy("trade_id")
      .execute();
    assert.deepEqual(
      states.map((trade) => [trade.state, trade.rollback_by]),
      [
        ["SUCCESS", null],
        ["FAIL", "seller_timeout"],
      ],
    );

    await list(sellerB, STICKER, [{ price: 3 }, { price: 2, grant: { cooldown_days: 2 } }]);
    await list(sellerA, REDLINE, [
      { price: 20, grant: { paintwear: "0.15", paintseed: 100 } },
      { price: 15, grant: { paintwear: "0.16", paintseed: 200 } },
      { price: 15, grant: { paintwear: "0.18", paintseed: 100 }, flags: { allow_epay: false } },
      {
        price: 30,
        grant: { paintwear: "0.27", paintseed: 7 },
        flags: { allow_pending_divide_balance: true },
      },
      { price: 12, grant: { paintwear: "0.3", paintseed: 8, stickers: [{ market_hash_name: STICKER }] } },
    ]);
    await list(sellerB, REDLINE, [
      { price: 18, grant: { paintwear: "0.2", paintseed: 100 }, flags: { allow_wallet_zft: false } },
      {
        price: 25,
        grant: { paintwear: "0.37", paintseed: 9 },
        flags: { allow_pending_divide_balance: true },
      },
      { price: 16, grant: { paintwear: "0.25", paintseed: 100, cooldown_days: 2 } },
      // Seeds are given so that no drawn seed can join the paintseed filters' counts.
      ...[40, 41, 42, 43, 44, 45].map((price, index) => ({
        price,
        grant: { paintwear: `0.3${index + 1}`, paintseed: 500 + index },
      })),
    ]);
    await list(
      sellerB,
      DOPPLER,
      [100, 101, 102, 103, 104, 105].map((price) => ({ price })),
    );
  });
  after(() => t.close());

  test("by default: tradable listings of the goods, cheapest first, 10 a page, pre-sell listings left out", async () => {
    const body = await assertMatches({ market_hash_name: REDLINE });
    assert.equal(body.total_count, 13);
    assert.equal(body.total_page, 2);
    assert.equal(body.items.length, 10);
    assert.equal(body.items[0]!.price, "12.00");
    assert.ok(!body.items.some((item: { price: string }) => item.price === "16.00"), "the pre-sell listing");
  });

  test("the answer has the reference's enterprise listing record, field by field", async () => {
    const body = (await ask({ market_hash_name: REDLINE })).json();
    assert.deepEqual(Object.keys(body).sort(), [
      "items",
      "page_num",
      "page_size",
      "total_count",
      "total_page",
    ]);
    for (const item of body.items) {
      assertFieldTypes(item, LISTING_FIELDS);
      assert.deepEqual(Object.keys(item.asset_info).sort(), ASSET_FIELDS);
    }
    assert.deepEqual(
      Object.keys(getEnterpriseSellOrders.response.properties.items.items.properties).sort(),
      Object.keys(LISTING_FIELDS).sort(),
    );
  });

  test("every sort, both directions, equal keys by listing id", async () => {
    for (const sort_by of [
      "price.asc",
      "price.desc",
      "paintwear.asc",
      "paintwear.desc",
      "created.asc",
      "created.desc",
    ])
      await assertMatches({ market_hash_name: REDLINE, sort_by, page_size: 10 });
  });

  test("pages: page_size 1-10, page_num beyond the last page is empty", async () => {
    for (const page_num of [1, 2, 3, 4, 5])
      await assertMatches({ market_hash_name: REDLINE, page_size: 4, page_num, sort_by: "paintwear.desc" });
    const beyond = await assertMatches({ market_hash_name: REDLINE, page_size: 4, page_num: 9 });
    assert.deepEqual(beyond.items, []);
    assert.equal(beyond.total_page, 4);
    const one = await assertMatches({ market_hash_name: REDLINE, page_size: 1, page_num: 13 });
    assert.equal(one.items.length, 1);
  });

  test("a fixed paint-wear interval is closed: a boundary wear is in both intervals", async () => {
    const low = await assertMatches({
      market_hash_name: REDLINE,
      min_paintwear: "0.11",
      max_paintwear: "0.15",
    });
    const high = await assertMatches({
      market_hash_name: REDLINE,
      min_paintwear: "0.15",
      max_paintwear: "0.18",
    });
    assert.deepEqual(
      low.items.map((item: { price: string }) => item.price),
      ["20.00"],
    );
    assert.equal(high.total_count, 3, "0.15, 0.16 and 0.18");
    for (const [min, max] of PAINTWEAR_INTERVALS)
      await assertMatches({
        market_hash_name: REDLINE,
        min_paintwear: min,
        max_paintwear: max,
        sort_by: "paintwear.asc",
      });
  });

  test("paint seed, paint index and pay method filters, alone and together", async () => {
    assert.equal((await assertMatches({ market_hash_name: REDLINE, paintseed: 100 })).total_count, 3);
    await assertMatches({
      market_hash_name: REDLINE,
      paintseed: 100,
      min_paintwear: "0.15",
      max_paintwear: "0.18",
    });
    const epay = await assertMatches({ market_hash_name: REDLINE, pay_method: "epay" });
    assert.equal(epay.total_count, 12);
    const wallet = await assertMatches({ market_hash_name: REDLINE, pay_method: "wallet" });
    assert.equal(wallet.total_count, 12);
    const divide = await assertMatches({ market_hash_name: REDLINE, pay_method: "pending_divide_balance" });
    assert.equal(divide.total_count, 2);
    const indexes = (
      await t.database.db
        .selectFrom("listings")
        .select("paintindex")
        .where("goods_id", "=", await goodsIdOf(t, DOPPLER))
        .execute()
    ).map((row) => row.paintindex!);
    for (const paintindex of new Set(indexes)) {
      const body = await assertMatches({ market_hash_name: DOPPLER, paintindex, sort_by: "price.desc" });
      assert.ok(body.total_count >= 1);
      assert.ok(
        body.items.every((item: { asset_info: AssetInfo }) => item.asset_info.info.paintindex === paintindex),
      );
    }
    assert.equal((await assertMatches({ market_hash_name: DOPPLER, paintindex: 1 })).total_count, 0);
  });

  test("the seller's delivery record and the sticker premium are figures, recomputed", async () => {
    const body = await assertMatches({ market_hash_name: REDLINE, sort_by: "price.asc" });
    const ofA = body.items.find((item) => item.user_id === sellerA.userId)!;
    const ofB = body.items.find((item) => item.user_id === sellerB.userId)!;
    assert.equal(ofA.recent_deliver_rate, 0.5, "one delivered, one not sent in time");
    assert.ok(ofA.recent_average_duration >= 600);
    assert.equal(ofB.recent_deliver_rate, 0);
    assert.equal(ofB.recent_average_duration, 0);
    const stickered = body.items.find((item) => item.price === "12.00")!;
    // 12.00 is the goods' lowest price: nothing asked on top of it for the sticker.
    assert.equal(stickered.sticker_premium, 0);
    await list(sellerB, REDLINE, [{ price: 11 }]);
    const after = await assertMatches({ market_hash_name: REDLINE });
    const premium = after.items.find((item) => item.price === "12.00")!.sticker_premium;
    assert.equal(
      premium,
      Math.round((100 / 300) * 10_000) / 10_000,
      "1.00 above the floor for a 3.00 sticker",
    );
  });

  test("a listing's record reaches the answer as listed; sold and withdrawn listings leave it", async () => {
    const [id] = await list(sellerA, REDLINE, [
      { price: 13, grant: { paintwear: "0.2222" }, flags: { force_buyer_send_offer: true } },
    ]);
    const listed = (await assertMatches({ market_hash_name: REDLINE, sort_by: "created.desc", page_size: 1 }))
      .items[0]!;
    assert.equal(listed.id, id);
    assert.equal(listed.force_buyer_send_offer, true);
    assert.equal(listed.asset_info.paintwear, "0.2222");
    await t.as(sellerA.token, "DELETE", "/api/market/developer/sell_order/items", {
      game: "cs2",
      sell_orders: [id],
    });
    const gone = await assertMatches({ market_hash_name: REDLINE, sort_by: "created.desc", page_size: 1 });
    assert.notEqual(gone.items[0]!.id, id);
  });

  test("errors name the field: intervals, sorts, page size, pay method, unknown goods, game", async () => {
    const cases: Array<[Query | Record<string, unknown>, RegExp]> = [
      [
        { market_hash_name: REDLINE, min_paintwear: "0.15", max_paintwear: "0.20" },
        /^min_paintwear: .*0\.00-0\.01, 0\.01-0\.02.*0\.90-1\.00$/,
      ],
      [{ market_hash_name: REDLINE, min_paintwear: "0.15" }, /^max_paintwear: required with min_paintwear/],
      [{ market_hash_name: REDLINE, max_paintwear: "0.18" }, /^min_paintwear: required with max_paintwear/],
      [{ market_hash_name: REDLINE, min_paintwear: "2", max_paintwear: "3" }, /^min_paintwear: /],
      [{ market_hash_name: REDLINE, sort_by: "updated.desc" }, /^sort_by: /],
      [{ market_hash_name: REDLINE, page_size: 11 }, /^page_size: /],
      [{ market_hash_name: REDLINE, page_size: 0 }, /^page_size: /],
      [{ market_hash_name: REDLINE, page_num: 0 }, /^page_num: /],
      [{ market_hash_name: REDLINE, pay_method: "alipay" }, /^pay_method: /],
      [{ market_hash_name: REDLINE, paintseed: "x" }, /^paintseed: /],
      [{ market_hash_name: "No Such | Goods" }, /^market_hash_name: no such goods/],
      [{}, /market_hash_name/],
    ];
    for (const [query, message] of cases) {
      const answer = await ask(query as Query);
      assert.equal(answer.statusCode, 400, `${JSON.stringify(query)}: ${answer.body}`);
      assert.equal(answer.json().code, "Invalid Argument");
      assert.match(answer.json().msg, message);
    }
    const dota = await t.as(enterprise.token, "GET", `${PATH}?game=dota2&market_hash_name=x`);
    assert.equal(dota.statusCode, 400);
  });

  test("the client SDK's getEnterpriseSellOrders answers the same; failures raise MarketApiError", async () => {
    const baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const client = new MarketClient({ baseUrl, token: enterprise.token });
    const query = {
      market_hash_name: REDLINE,
      sort_by: "paintwear.desc",
      page_size: 3,
      page_num: 2,
    } as const;
    assert.deepEqual(await client.getEnterpriseSellOrders(query), await expected(query));
    await assert.rejects(
      client.getEnterpriseSellOrders({ market_hash_name: REDLINE, min_paintwear: 0.15, max_paintwear: 0.2 }),
      (error: unknown) =>
        error instanceof MarketApiError &&
        error.code === "Invalid Argument" &&
        /^min_paintwear: /.test(error.msg),
    );
  });

  test("security: a token is required, a developer token is refused, a revoked token too", async () => {
    const url = `${PATH}?game=cs2&market_hash_name=${encodeURIComponent(REDLINE)}`;
    const anonymous = await t.app.inject({ method: "GET", url });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json().code, "Unauthorized");
    const developer = await t.createUser();
    const refused = await t.as(developer.token, "GET", url);
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, "Access Denied");
    const leaving = await t.createUser({ access_level: "enterprise" });
    assert.equal((await t.as(leaving.token, "GET", url)).statusCode, 200);
    await t.admin("DELETE", `/sandbox/tokens/${leaving.tokenId}`);
    assert.equal((await t.as(leaving.token, "GET", url)).statusCode, 401);
  });
});

describe("GET /api/market/enterprise/goods/sell_order limits (memory store)", () => {
  let t: TestApp;
  let store: LimiterStore;
  let names: string[];
  before(async () => {
    store = new LimiterStore({ log: { warn() {}, info() {} } });
    t = await createTestApp({
      catalog: true,
      limits: {
        store,
        settings: { overrides: { getEnterpriseSellOrders: { points: 1000, seconds: 3600 } } },
      },
    });
    names = (
      await t.database.db
        .selectFrom("goods")
        .select("market_hash_name")
        .orderBy("goods_id")
        .limit(201)
        .execute()
    ).map((row) => row.market_hash_name);
  });
  after(async () => {
    await t.close();
    await store.close();
  });

  test("the contract declares 3 requests a second and 200 distinct goods a day by market_hash_name", () => {
    assert.deepEqual(getEnterpriseSellOrders.limits, {
      rate: { points: 3, seconds: 1 },
      distinctGoods: { perDay: 200, field: "market_hash_name", in: "query" },
    });
  });

  test("200 distinct goods a day per token; a goods asked again costs nothing; the 201st is Quota Exceeded", async () => {
    const user = await t.createUser({ access_level: "enterprise" });
    const ask = (name: string) =>
      t.as(user.token, "GET", `${PATH}?game=cs2&market_hash_name=${encodeURIComponent(name)}`);
    for (const name of names.slice(0, 200)) assert.equal((await ask(name)).statusCode, 200);
    assert.equal((await ask(names[0]!)).statusCode, 200, "already asked for today");
    const over = await ask(names[200]!);
    assert.equal(over.statusCode, 429);
    assert.equal(over.json().code, "Quota Exceeded");
    assert.match(over.json().msg, /allows 200 distinct market_hash_name per day \(UTC\) per token/);
    const other = await t.createUser({ access_level: "enterprise" });
    const fresh = await t.as(
      other.token,
      "GET",
      `${PATH}?game=cs2&market_hash_name=${encodeURIComponent(names[200]!)}`,
    );
    assert.equal(fresh.statusCode, 200, "another token counts its own");
  });

  test("3 requests a second: the fourth in the same window is Rate Limit Exceeded", async () => {
    // Its own store: token ids of another app's database would share counters.
    const strictStore = new LimiterStore({ log: { warn() {}, info() {} } });
    const strict = await createTestApp({ catalog: false, limits: { store: strictStore } });
    try {
      const user = await strict.createUser({ access_level: "enterprise" });
      const url = `${PATH}?game=cs2&market_hash_name=x`;
      // A window that turns over between the four requests admits them all; then try again.
      for (let attempt = 0; attempt < 5; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 1100));
        const answers = await Promise.all([0, 1, 2, 3].map(() => strict.as(user.token, "GET", url)));
        const refused = answers.filter((answer) => answer.statusCode === 429);
        if (refused.length === 0) continue;
        assert.equal(refused.length, 1);
        assert.equal(refused[0]!.json().code, "Rate Limit Exceeded");
        assert.equal(refused[0]!.headers["ratelimit-policy"], "3;w=1");
        return;
      }
      assert.fail("four requests in one second were all admitted");
    } finally {
      await strict.close();
      await strictStore.close();
    }
  });
});
