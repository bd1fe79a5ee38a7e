import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { getLiquidityRanks } from "@skinmarket/contract";
import { Value } from "typebox/value";
import { LimiterStore } from "../../src/http/limits/limiter-store.ts";
import { createReadyTrader, grant, uploadCookies, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

type Entry = {
  goods_id: number;
  market_hash_name: string;
  update_time: number;
  sales: Array<Record<string, unknown>>;
};

const DAY = 86_400;

/**
 * Liquidity ranks (docs/design/market-data.md#the-market-figures-and-the-other-price-operations) against figures worked out by hand from the trades
 * made here: percentiles among the catalog by traded amount (0.7) and quantity (0.3) of the last
 * 30 days, recomputed on demand from the sandbox and daily by a job.
 */
describe("liquidity ranks", () => {
  let t: TestApp;
  let store: LimiterStore;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let enterprise: { token: string };
  let standard: Array<{ goods_id: number; market_hash_name: string }>;

  const post = (trader: PlatformFixture, path: string, body: unknown) =>
    t.as(trader.token, "POST", `/api/market/developer/${path}`, body);
  /** Lists items of a goods and has the buyer buy them all, through to completed trades. */
  const trade = async (goods: { market_hash_name: string }, prices: number[]) => {
    const assetids = await grant(t, seller.platformid, {
      market_hash_name: goods.market_hash_name,
      count: prices.length,
    });
    const listed = await post(seller, "sell_order/items", {
      game: "cs2",
      assets: assetids.map((assetid, index) => ({ assetid, price: prices[index] })),
    });
    assert.equal(listed.statusCode, 200, listed.body);
    const bought = await post(buyer, "purchase/orders", {
      game: "cs2",
      items: [
        { market_hash_name: goods.market_hash_name, max_price: Math.max(...prices), quantity: prices.length },
      ],
    });
    assert.equal(bought.statusCode, 200, bought.body);
    const waiting = (
      await post(seller, "sell_order/history", { game: "cs2", state: "SELLER_TO_SEND_OFFER", page_size: 100 })
    ).json<{ items: Array<{ id: string }> }>();
    for (const order of waiting.items) {
      const sent = await post(seller, "sell_order/send_offer", { order_id: order.id });
      assert.equal(sent.statusCode, 200, sent.body);
    }
    await t.admin("POST", "/sandbox/jobs/run");
  };
  const listOnly = async (goods: { market_hash_name: string }, price: number) => {
    const [assetid] = await grant(t, seller.platformid, {
      market_hash_name: goods.market_hash_name,
      count: 1,
    });
    await post(seller, "sell_order/items", { game: "cs2", assets: [{ assetid, price }] });
  };
  const advance = (seconds: number) => t.admin("POST", "/sandbox/clock/advance", { seconds });
  const ranks = async (query = "") => {
    const answer = await t.as(
      enterprise.token,
      "GET",
      `/api/market/enterprise/items/liquidity_rank?game=cs2${query}`,
    );
    assert.equal(answer.statusCode, 200, answer.body);
    assert.ok(Value.Check(getLiquidityRanks.response, answer.json()));
    return answer.json<{ info: Entry[]; req_remaining: number; stat_time: number }>();
  };

  /**
   * Each goods' rank text, worked out by hand from the trades this suite makes (docs/design/market-data.md#market-data):
   * 0.7 × the share of the other goods that traded a smaller amount in the last 30 days, plus 0.3 ×
   * the share that traded fewer units, in hundredths of a percent rounded half up. Of the catalog's
   * N goods, N - 4 traded nothing in the window; the four others traded [0] 2.00 once (its 5.00
   * trade is older than 30 days), [1] 1.00 three times, [2] 50.00 once and [3] 2.00 once.
   */
  const expectedRanks = async (): Promise<Map<number, string>> => {
    const goodsCount = (await t.database.db.selectFrom("goods").select("goods_id").execute()).length;
    const others = goodsCount - 1;
    const untraded = goodsCount - 4;
    const rank = (belowByAmount: number, belowByQuantity: number) =>
      `${(Math.round((7000 * belowByAmount + 3000 * belowByQuantity) / others) / 100).toFixed(2)}%`;
    return new Map([
      // 2.00 and one unit: above the untraded goods only (equal to [3], below [1] and [2]).
      [standard[0]!.goods_id, rank(untraded, untraded)],
      // 3.00: above [0] and [3] too; three units: above every other goods.
      [standard[1]!.goods_id, rank(untraded + 2, untraded + 3)],
      // 50.00: above every other goods; one unit: above the untraded only.
      [standard[2]!.goods_id, rank(untraded + 3, untraded)],
      [standard[3]!.goods_id, rank(untraded, untraded)],
    ]);
  };

  before(async () => {
    store = new LimiterStore({ log: { warn() {}, info() {} } });
    t = await createTestApp({ catalog: true, limits: { store } });
    seller = await createReadyTrader(t);
    buyer = await createReadyTrader(t);
    const accepted = await t.admin("PUT", `/sandbox/platform/accounts/${buyer.platformid}/auto_accept`, {
      enabled: true,
    });
    assert.equal(accepted.statusCode, 200, accepted.body);
    await t.fund(buyer.userId, "balance", 10_000);
    enterprise = await t.createUser({ access_level: "enterprise" });
    standard = await t.database.db
      .selectFrom("goods")
      .select(["goods_id", "market_hash_name"])
      .where("is_standard", "=", true)
      .where("type", "=", "sticker")
      .orderBy("goods_id")
      .limit(5)
      .execute();
    // A month-old trade falls out of the window; then trades of four goods inside it.
    await trade(standard[0]!, [500]);
    await advance(31 * DAY);
    // A month on, the seller signs in to the platform again to send offers.
    const issued = await t.admin("POST", `/sandbox/platform/accounts/${seller.platformid}/cookies`);
    assert.equal((await uploadCookies(t, seller, issued.json().cookies)).statusCode, 200);
    await trade(standard[0]!, [2]);
    await trade(standard[1]!, [1, 1, 1]);
    await trade(standard[2]!, [50]);
    await trade(standard[3]!, [2]);
    await listOnly(standard[4]!, 3);
    await listOnly(standard[1]!, 4);
  });
  after(async () => {
    await t.close();
    await store.close();
  });

  test("the sandbox recomputes the ranks; every goods' rank matches the trades, 0.00% without any", async () => {
    const asked = Math.floor(t.clock.now().getTime() / 1000);
    const computed = await t.admin("POST", "/sandbox/market/liquidity_ranks");
    const answered = Math.floor(t.clock.now().getTime() / 1000);
    assert.equal(computed.statusCode, 200, computed.body);
    assert.equal(computed.json().ranked_goods, 4);
    const computedAt = computed.json().computed_at as number;
    assert.ok(computedAt >= asked && computedAt <= answered, `${asked} <= ${computedAt} <= ${answered}`);
    await advance(2);
    const expected = await expectedRanks();
    assert.equal(expected.size, 4);
    const whole = await ranks();
    // The whole-market answer lists the goods on the market: the two still listed.
    assert.deepEqual(
      whole.info.map((entry) => entry.goods_id),
      [standard[1]!.goods_id, standard[4]!.goods_id],
    );
    for (const goods of standard) {
      const one = await ranks(`&goods_id=${goods.goods_id}`);
      assert.deepEqual(one.info[0]!.sales, [
        { liquidity_rank: expected.get(goods.goods_id) ?? "0.00%", tag_id: 0, tag_name: "全部" },
      ]);
      assert.equal(one.info[0]!.market_hash_name, goods.market_hash_name);
    }
    const stored = await t.database.db
      .selectFrom("liquidity_ranks")
      .selectAll()
      .orderBy("goods_id")
      .execute();
    assert.deepEqual(
      stored.map((row) => [row.goods_id, row.traded_amount, row.traded_quantity]),
      [
        [standard[0]!.goods_id, 200, 1],
        [standard[1]!.goods_id, 300, 3],
        [standard[2]!.goods_id, 5000, 1],
        [standard[3]!.goods_id, 200, 1],
      ],
    );
  });

  test("float/items carries the rank, and enterprise/items high_liquidity keeps ranks of 80 % and more", async () => {
    const expected = await expectedRanks();
    const developer = await t.createUser();
    const floatItems = await t.as(developer.token, "POST", "/api/market/float/items", {
      game: "cs2",
      goods_ids: standard.map((goods) => goods.goods_id),
    });
    assert.equal(floatItems.statusCode, 200, floatItems.body);
    for (const entry of floatItems.json<{ info: Entry[] }>().info)
      assert.equal(entry.sales[0]!.liquidity_rank, expected.get(entry.goods_id) ?? "0.00%");
    // Only standard[1] is traded and still on the market; stickers stay in with include_sticker=0.
    const high = await t.as(
      enterprise.token,
      "GET",
      "/api/market/enterprise/items?game=cs2&high_liquidity=1&include_sticker=0",
    );
    assert.equal(high.statusCode, 200, high.body);
    assert.ok(parseFloat(expected.get(standard[1]!.goods_id)!) >= 80);
    assert.deepEqual(
      high.json<{ info: Entry[] }>().info.map((entry) => entry.goods_id),
      [standard[1]!.goods_id],
    );
  });

  test("the daily job recomputes once a day, and the window moves with the clock", async () => {
    const jobRun = async () =>
      (await t.admin("POST", "/sandbox/jobs/run"))
        .json<{ jobs: Array<{ name: string; processed: number }> }>()
        .jobs.find((job) => job.name === "refresh-liquidity-ranks")!.processed;
    assert.equal(await jobRun(), 0, "computed by the sandbox less than a day ago");
    await advance(DAY);
    assert.equal(await jobRun(), 4);
    assert.equal(await jobRun(), 0);
    // Thirty days on, every trade has left the window.
    await advance(30 * DAY);
    assert.equal(await jobRun(), 0);
    await advance(2);
    const after = await ranks(`&goods_id=${standard[2]!.goods_id}`);
    assert.equal(after.info[0]!.sales[0]!.liquidity_rank, "0.00%");
  });

  test("liquidity_rank: bad input names the field; developer tokens are refused", async () => {
    const unknown = await t.as(
      enterprise.token,
      "GET",
      "/api/market/enterprise/items/liquidity_rank?game=cs2&goods_id=999999999",
    );
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.json().msg, /^goods_id: /);
    const dota = await t.as(
      enterprise.token,
      "GET",
      "/api/market/enterprise/items/liquidity_rank?game=dota2",
    );
    assert.equal(dota.statusCode, 400);
    assert.match(dota.json().msg, /^game: /);
    const developer = await t.createUser();
    const refused = await t.as(
      developer.token,
      "GET",
      "/api/market/enterprise/items/liquidity_rank?game=cs2",
    );
    assert.equal(refused.statusCode, 403);
    const notAdmin = await t.as(developer.token, "POST", "/sandbox/market/liquidity_ranks");
    assert.equal(notAdmin.statusCode, 401);
  });
});
