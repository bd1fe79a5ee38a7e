import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { formatMoney, getBillOrders, getGoodsInfo, getPriceHistory } from "@skinmarket/contract";
import { Value } from "typebox/value";
import type { TSchema } from "typebox";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { tradeStickers as tradeStickersOf } from "../support/market-data-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
const REDLINE = "AK-47 | Redline (Field-Tested)";
const DAY = 86_400;

function assertSchema(schema: TSchema, value: unknown) {
  assert.deepEqual(
    [...Value.Errors(schema, value)].slice(0, 5),
    [],
    "the answer matches its contract schema",
  );
}

/** Price history and recent trades, from trades completed through the API on several days. */
describe("website price history and recent trades", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let stickerId: number;
  let redlineId: number;

  const post = (token: string, path: string, body: unknown) =>
    t.as(token, "POST", `/api/market/developer/${path}`, body);
  const get = (url: string) => t.app.inject({ method: "GET", url });

  /** Lists stickers at these prices, buys them all and completes each trade. */
  const tradeStickers = (prices: number[]) => tradeStickersOf(t, seller, buyer, stickerId, prices);

  const completed = () =>
    t.database.db
      .selectFrom("trades")
      .select(["trade_id", "price", "updated_at", "buy_order_id"])
      .where("goods_id", "=", stickerId)
      .where("state", "=", "SUCCESS")
      .execute();

  before(async () => {
    t = await createTestApp({ catalog: true });
    stickerId = await goodsIdOf(t, STICKER);
    redlineId = await goodsIdOf(t, REDLINE);
    seller = await createReadyTrader(t, "history-seller");
    buyer = await createReadyTrader(t, "history-buyer");
    await t.fund(buyer.userId, "balance", 500);
    // Ten days ago, three days ago (an even count), and today.
    await t.admin("POST", "/sandbox/clock/advance", { seconds: -10 * DAY });
    await tradeStickers([5]);
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 7 * DAY });
    await tradeStickers([2, 4, 3, 6]);
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 3 * DAY });
    await tradeStickers([3.5, 2.5, 9]);
  });
  after(() => t.close());

  /** The daily median (the lower middle price) of the trades completed within the window. */
  const expectedHistory = async (days: number) => {
    const today = Math.floor(t.clock.now().getTime() / 1000 / DAY) * DAY;
    const since = today - (days - 1) * DAY;
    const byDay = new Map<number, number[]>();
    for (const trade of await completed()) {
      const day = Math.floor(trade.updated_at.getTime() / 1000 / DAY) * DAY;
      if (day < since) continue;
      byDay.set(day, [...(byDay.get(day) ?? []), trade.price]);
    }
    return [...byDay.entries()]
      .sort(([a], [b]) => a - b)
      .map(([day, prices]) => {
        const sorted = [...prices].sort((a, b) => a - b);
        return [day, formatMoney(sorted[Math.ceil(sorted.length / 2) - 1]!)];
      });
  };

  test("price_history: one point per day with trades, the day's median, within 7, 30 or 180 days", async () => {
    for (const days of [7, 30, 180]) {
      const answer = await get(
        `/api/market/goods/price_history?game=csgo&goods_id=${stickerId}&days=${days}`,
      );
      assert.equal(answer.statusCode, 200, answer.body);
      assertSchema(getPriceHistory.response, answer.json());
      const data = answer.json().data;
      assert.deepEqual(Object.keys(data).sort(), ["days", "goods_id", "price_history", "price_type"]);
      assert.deepEqual(data.price_history, await expectedHistory(days), `${days} days`);
    }
    const week = (await get(`/api/market/goods/price_history?game=csgo&goods_id=${stickerId}&days=7`)).json();
    assert.equal(week.data.price_history.length, 2, "the trade of ten days ago is outside the week");
    assert.deepEqual(
      week.data.price_history.map((point: [number, string]) => point[1]),
      ["3.00", "3.50"],
    );
    const quiet = (
      await get(`/api/market/goods/price_history?game=csgo&goods_id=${redlineId}&days=30`)
    ).json();
    assert.deepEqual(quiet.data.price_history, []);
  });

  test("bill_order: the latest completed trades, newest first, with no trader data", async () => {
    const answer = await get(`/api/market/goods/bill_order?game=csgo&goods_id=${stickerId}`);
    assert.equal(answer.statusCode, 200, answer.body);
    assertSchema(getBillOrders.response, answer.json());
    const items = answer.json().data.items as Array<Record<string, unknown>>;
    const trades = (await completed()).sort(
      (a, b) => b.updated_at.getTime() - a.updated_at.getTime() || b.trade_id - a.trade_id,
    );
    assert.deepEqual(
      items.map((item) => [item.id, item.price, item.transact_time, item.type]),
      trades
        .slice(0, 20)
        .map((trade) => [
          String(trade.trade_id),
          formatMoney(trade.price),
          Math.floor(trade.updated_at.getTime() / 1000),
          trade.buy_order_id === null ? 1 : 2,
        ]),
    );
    const text = answer.body;
    for (const secret of [seller.userId, buyer.platformid, seller.platformid, "fee", "buyer", "seller"])
      assert.equal(text.includes(`"${secret}`), false, `no ${secret} in recent trades`);
    assert.equal(answer.json().data.total_count, trades.length, "every completed trade is counted");

    // Every completed trade is reachable a page at a time, each once, in the same order.
    const pageSize = Math.max(1, Math.ceil(trades.length / 2));
    const paged: string[] = [];
    for (let pageNum = 1; ; pageNum += 1) {
      const page = (
        await get(
          `/api/market/goods/bill_order?game=csgo&goods_id=${stickerId}&page_num=${pageNum}&page_size=${pageSize}`,
        )
      ).json();
      assertSchema(getBillOrders.response, page);
      assert.equal(page.data.total_page, Math.ceil(trades.length / pageSize));
      if (page.data.items.length === 0) break;
      paged.push(...page.data.items.map((item: { id: string }) => item.id));
    }
    assert.deepEqual(
      paged,
      trades.map((trade) => String(trade.trade_id)),
    );
  });

  test("goods/info counts the completed trades and takes the latest as the reference price", async () => {
    const answer = (await get(`/api/market/goods/info?game=csgo&goods_id=${stickerId}`)).json();
    assertSchema(getGoodsInfo.response, answer);
    const trades = await completed();
    const now = t.clock.now().getTime();
    assert.equal(answer.data.transacted_num, trades.length);
    assert.equal(
      answer.data.recent_sold_count,
      trades.filter((trade) => trade.updated_at.getTime() >= now - 7 * DAY * 1000).length,
    );
    const latest = [...trades].sort(
      (a, b) => b.updated_at.getTime() - a.updated_at.getTime() || b.trade_id - a.trade_id,
    )[0]!;
    assert.equal(answer.data.sell_reference_price, formatMoney(latest.price));
    assert.equal(answer.data.has_buff_price_history, true);
  });

  test("a seller's level follows their completed sales: 1 from the first, 2 from the tenth", async () => {
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 1 });
    await post(seller.token, "sell_order/items", { game: "cs2", assets: [{ assetid, price: 20 }] });
    const page = (await get(`/api/market/goods/sell_order?game=csgo&goods_id=${stickerId}`)).json().data;
    const sales = (await completed()).length;
    assert.equal(sales, 8);
    assert.equal(page.user_infos[seller.userId].seller_level, 1);
    await tradeStickers([1, 1]);
    const later = (await get(`/api/market/goods/sell_order?game=csgo&goods_id=${stickerId}`)).json().data;
    assert.equal((await completed()).length, 10);
    assert.equal(later.user_infos[seller.userId].seller_level, 2);
  });

  test("errors name the field: days, goods_id, game", async () => {
    for (const [url, field, status] of [
      [`/api/market/goods/price_history?game=csgo&goods_id=${stickerId}&days=14`, "days", 400],
      [`/api/market/goods/price_history?game=csgo&goods_id=0`, "goods_id", 400],
      [`/api/market/goods/price_history?game=csgo&goods_id=999999999`, "goods_id", 404],
      [`/api/market/goods/bill_order?game=dota2&goods_id=${stickerId}`, "game", 400],
      [`/api/market/goods/bill_order?game=csgo&goods_id=999999999`, "goods_id", 404],
    ] as const) {
      const answer = await get(url);
      assert.equal(answer.statusCode, status, `${url}: ${answer.body}`);
      assert.deepEqual(Object.keys(answer.json()).sort(), ["code", "error", "extra"]);
      assert.match(answer.json().error, new RegExp(`^${field}`), url);
    }
  });
});
