import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import {
  createReadyTrader,
  createTraderWithAccount,
  goodsIdOf,
  grant,
  grantOne,
  uploadCookies,
  type PlatformFixture,
} from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { highestEventId } from "../support/event-ids.ts";

const STICKER = "Sticker | Crown (Foil)";

interface WireEvent {
  id: string;
  type: string;
  created_at: number;
  goods_id: number | null;
  data: Record<string, unknown>;
}

/**
 * The event log (docs/design/events.md#written-by-the-changes-own-transaction): every change a user or the market cares about is an
 * event, written in the transaction of the change, read back in commit order with
 * GET /api/market/developer/events. The ledger invariants are checked after every step.
 */
describe("GET /api/market/developer/events", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let stickerId: number;
  const post = (token: string, path: string, body: unknown) =>
    t.as(token, "POST", `/api/market/developer/${path}`, body);
  /** Every event of the token's account after `afterId`, following `has_more`. */
  const eventsOf = async (token: string, afterId = "0", types?: string): Promise<WireEvent[]> => {
    const all: WireEvent[] = [];
    let cursor = afterId;
    for (;;) {
      const query = new URLSearchParams({ after: cursor, limit: "7", ...(types ? { types } : {}) });
      const response = await t.as(token, "GET", `/api/market/developer/events?${query}`);
      assert.equal(response.statusCode, 200, response.body);
      const page = response.json<{ items: WireEvent[]; has_more: boolean }>();
      all.push(...page.items);
      if (!page.has_more) return all;
      cursor = page.items.at(-1)!.id;
    }
  };
  const lastId = async (token: string) => (await eventsOf(token)).at(-1)?.id ?? "0";
  const publicEvents = async (afterId: number) =>
    t.database.db
      .selectFrom("events")
      .selectAll()
      .where("user_id", "is", null)
      .where("event_id", ">", afterId)
      .orderBy("event_id")
      .execute();

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createTraderWithAccount(t, "event-seller");
    buyer = await createTraderWithAccount(t, "event-buyer");
    for (const trader of [seller, buyer]) {
      await uploadCookies(t, trader);
      await post(trader.token, "platform/setup", { platformid: trader.platformid });
    }
    stickerId = (
      await t.database.db
        .selectFrom("goods")
        .select("goods_id")
        .where("market_hash_name", "=", STICKER)
        .executeTakeFirstOrThrow()
    ).goods_id;
  });
  after(() => t.close());

  test("happy: a listing's life is listing.created, listing.repriced, listing.withdrawn, with its on_sale record", async () => {
    const from = await lastId(seller.token);
    const publicFrom = await highestEventId(t.database.db);
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 1 });
    const listed = await post(seller.token, "sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price: 12 }],
    });
    const id = listed.json().sell_orders[assetid!].sell_order_id as string;
    await t.assertLedger();
    // A poll answers once what committed before it is sequenced: each step its own round, so its
    // own price event (changes sequenced in one round share one, docs/design/events.md#when-rounds-run).
    await lastId(seller.token);
    const repriced = await t.as(seller.token, "PUT", "/api/market/developer/sell_order/items", {
      game: "cs2",
      sell_orders: [{ sell_order_id: id, price: 11 }],
    });
    assert.equal(repriced.statusCode, 200, repriced.body);
    await lastId(seller.token);
    const delisted = await t.as(seller.token, "DELETE", "/api/market/developer/sell_order/items", {
      game: "cs2",
      sell_orders: [id],
    });
    assert.equal(delisted.statusCode, 200, delisted.body);
    await t.assertLedger();
    const events = await eventsOf(seller.token, from, "listing.*");
    assert.deepEqual(
      events.map((event) => [event.type, event.data.id, event.data.price]),
      [
        ["listing.created", id, "12.00"],
        ["listing.repriced", id, "11.00"],
        ["listing.withdrawn", id, "11.00"],
      ],
    );
    const onSaleFields = ["asset_info", "can_bargain", "description", "goods_id", "user_id"];
    for (const field of onSaleFields) assert.ok(field in events[0]!.data, field);
    assert.ok(events.every((event) => event.goods_id === stickerId));
    const ids = events.map((event) => BigInt(event.id));
    assert.deepEqual(
      [...ids].sort((a, b) => (a < b ? -1 : 1)),
      ids,
      "ids increase",
    );
    // The market saw it too: the book's events, and the lowest ask moving up and back.
    const market = await publicEvents(publicFrom);
    assert.deepEqual(
      market.filter((event) => event.goods_id === stickerId).map((event) => event.type),
      [
        "market.listing_added",
        "market.price_changed",
        "market.listing_repriced",
        "market.price_changed",
        "market.listing_removed",
        "market.price_changed",
      ],
    );
    const book = market.find((event) => event.type === "market.listing_added")!.data as Record<
      string,
      unknown
    >;
    assert.equal("description" in book, false, "the book's record is the public one");
    const prices = market
      .filter((event) => event.type === "market.price_changed")
      .map((event) => (event.data as { sell_min_price: string }).sell_min_price);
    assert.deepEqual(prices, ["12.00", "11.00", "0.00"]);
  });

  test("happy: a purchase and its delivery reach both sides, balances once per transaction", async () => {
    const sellerFrom = await lastId(seller.token);
    const buyerFrom = await lastId(buyer.token);
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 1 });
    await post(seller.token, "sell_order/items", { game: "cs2", assets: [{ assetid, price: 5 }] });
    await t.fund(buyer.userId, "balance", 10);
    const bought = await post(buyer.token, "purchase/orders", {
      game: "cs2",
      items: [{ goods_id: stickerId, max_price: 5, quantity: 1 }],
    });
    assert.equal(bought.statusCode, 200, bought.body);
    await t.assertLedger();
    const tradeId = bought.json().result[String(stickerId)].bill_order_ids[0] as string;
    assert.equal((await post(seller.token, "sell_order/send_offer", { order_id: tradeId })).statusCode, 200);
    const offer = (await post(buyer.token, "purchase/orders/list", { game: "cs2" }))
      .json()
      .items.find((item: { id: string }) => item.id === tradeId);
    await t.admin("POST", `/sandbox/platform/offers/${offer.tradeofferid}/accept`);
    await t.admin("POST", "/sandbox/jobs/run");
    await t.assertLedger();

    const buyerEvents = await eventsOf(buyer.token, buyerFrom);
    assert.deepEqual(
      buyerEvents.map((event) => event.type),
      [
        "balance.changed",
        // The purchase's transaction: the payment, then the trade it opened.
        "balance.changed",
        "trade.created",
        "trade.offer_sent",
        "trade.delivered",
        "balance.changed",
      ],
    );
    assert.deepEqual(
      buyerEvents.filter((event) => event.type === "balance.changed").map((event) => event.data),
      [
        { market_balance: "10.00", margin_balance: "0.00", wallet_balance: "0.00", frozen_amount: "0.00" },
        { market_balance: "5.00", margin_balance: "0.00", wallet_balance: "0.00", frozen_amount: "5.00" },
        { market_balance: "5.00", margin_balance: "0.00", wallet_balance: "0.00", frozen_amount: "0.00" },
      ],
    );
    const delivered = buyerEvents.find((event) => event.type === "trade.delivered")!;
    assert.equal(delivered.data.id, tradeId);
    assert.equal(delivered.data.state, "SUCCESS", "the buyer's record: purchase/orders/list's");
    const sellerEvents = await eventsOf(seller.token, sellerFrom);
    assert.deepEqual(
      sellerEvents.map((event) => event.type),
      [
        "listing.created",
        "listing.sold",
        "trade.created",
        "trade.offer_sent",
        "trade.delivered",
        "balance.changed",
      ],
    );
    const sold = sellerEvents.find((event) => event.type === "trade.created")!;
    assert.equal(sold.data.state, "SELLER_TO_SEND_OFFER", "the seller's record: sell_order/history's");
    assert.equal(sold.data.sell_order_id, sellerEvents[0]!.data.id);
    // Filters: a family and an exact type.
    assert.deepEqual(
      (await eventsOf(buyer.token, buyerFrom, "trade.*,balance.changed")).length,
      buyerEvents.length,
    );
    assert.deepEqual(
      (await eventsOf(buyer.token, buyerFrom, "trade.delivered")).map((event) => event.id),
      [delivered.id],
    );
  });

  test("happy: buy orders: created, filled, cancelled; the account's online status", async () => {
    const from = await lastId(buyer.token);
    await t.fund(buyer.userId, "balance", 50);
    const created = await post(buyer.token, "buy_order", {
      game: "cs2",
      goods_id: stickerId,
      price: 3,
      num: 2,
    });
    assert.equal(created.statusCode, 200, created.body);
    const orderId = created.json().id as string;
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 1 });
    await post(seller.token, "sell_order/items", { game: "cs2", assets: [{ assetid, price: 3 }] });
    await t.assertLedger();
    const cancelled = await t.as(buyer.token, "DELETE", "/api/market/developer/buy_order", {
      game: "cs2",
      buy_order_ids: [orderId],
    });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    await t.as(buyer.token, "PUT", "/api/market/developer/buy_order/status", { buy_order_status: "offline" });
    await t.assertLedger();
    const events = await eventsOf(buyer.token, from, "buy_order.*");
    assert.deepEqual(
      events.map((event) => event.type),
      ["buy_order.created", "buy_order.filled", "buy_order.cancelled", "buy_order.status_changed"],
    );
    assert.equal(events[1]!.data.frozen_num, 1, "a unit matched, its trade opened");
    assert.deepEqual(events[3]!.data, { buy_order_status: "offline", buy_order_auto_offline: false });
    await t.as(buyer.token, "PUT", "/api/market/developer/buy_order/status", { buy_order_status: "online" });
  });

  test("a transaction that rolls back writes no event", async () => {
    await eventsOf(seller.token); // what committed before is in the log
    const before = await highestEventId(t.database.db);
    await assert.rejects(
      t.database.db.transaction().execute(async (tx) => {
        await tx
          .updateTable("users")
          .set({ buy_order_status: "offline" })
          .where("user_id", "=", Number(seller.userId))
          .execute();
        throw new Error("roll back");
      }),
      /^Error: roll back$/,
      "the transaction rolled back for the reason the test gave, not another",
    );
    const outbox = await t.database.db.selectFrom("event_outbox").select("seq").execute();
    assert.deepEqual(outbox, []);
    await eventsOf(seller.token);
    assert.equal(await highestEventId(t.database.db), before);
  });

  test("error: an unknown type or a malformed after is refused naming the field", async () => {
    const unknown = await t.as(buyer.token, "GET", "/api/market/developer/events?types=trade.created,nope");
    assert.equal(unknown.statusCode, 400);
    assert.match(unknown.json().msg, /types/);
    assert.match(unknown.json().msg, /nope/);
    const after = await t.as(buyer.token, "GET", "/api/market/developer/events?after=-1");
    assert.equal(after.statusCode, 400);
    assert.match(after.json().msg, /after/);
    const limit = await t.as(buyer.token, "GET", "/api/market/developer/events?limit=1001");
    assert.equal(limit.statusCode, 400);
    assert.match(limit.json().msg, /limit/);
  });

  test("security: an account reads only its own events; no token, no events", async () => {
    const stranger = await t.createUser();
    assert.deepEqual(await eventsOf(stranger.token), []);
    const anonymous = await t.app.inject({ method: "GET", url: "/api/market/developer/events" });
    assert.equal(anonymous.statusCode, 401);
    const sellerIds = new Set((await eventsOf(seller.token)).map((event) => event.id));
    for (const event of await eventsOf(buyer.token)) assert.equal(sellerIds.has(event.id), false);
  });

  test("the demo build's bulk writes are quiet: a transaction that turns events off writes none", async () => {
    await eventsOf(seller.token);
    await t.database.db.transaction().execute(async (tx) => {
      await sql`SELECT set_config('skinmarket.events', 'off', true)`.execute(tx);
      await tx
        .updateTable("users")
        .set({ buy_order_status: "offline" })
        .where("user_id", "=", Number(seller.userId))
        .execute();
    });
    assert.deepEqual(await t.database.db.selectFrom("event_outbox").select("seq").execute(), []);
  });

  test("happy: stored cookies the platform ended are found by the jobs: platform.cookie_expired, once", async () => {
    const from = await lastId(seller.token);
    await t.admin("POST", `/sandbox/platform/accounts/${seller.platformid}/cookies/expire`);
    await t.admin("POST", "/sandbox/jobs/run");
    await t.admin("POST", "/sandbox/jobs/run");
    const events = await eventsOf(seller.token, from, "platform.*");
    assert.equal(events.length, 1);
    assert.equal(events[0]!.data.platformid, seller.platformid);
    assert.equal(events[0]!.data.cookie_state, "expired");
    assert.equal("cookies_sealed" in events[0]!.data, false, "no secret in an event");
    await uploadCookies(
      t,
      seller,
      (await t.admin("POST", `/sandbox/platform/accounts/${seller.platformid}/cookies`)).json().cookies,
    );
  });

  // Last: it moves the sandbox clock.
  test("events older than the retention window (30 days by default) are purged by the jobs", async () => {
    await t.as(seller.token, "PUT", "/api/market/developer/buy_order/status", { buy_order_status: "online" });
    const kept = await eventsOf(seller.token);
    assert.ok(kept.length > 0);
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 29 * 86_400 });
    await t.admin("POST", "/sandbox/jobs/run");
    const after29 = new Set((await eventsOf(seller.token)).map((event) => event.id));
    assert.ok(
      kept.every((event) => after29.has(event.id)),
      "29 days: all kept",
    );
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 2 * 86_400 });
    await t.admin("POST", "/sandbox/jobs/run");
    const after31 = new Set((await eventsOf(seller.token)).map((event) => event.id));
    assert.ok(
      kept.every((event) => !after31.has(event.id)),
      "31 days: purged",
    );
  });
});

/**
 * The events of changes a job or the clock brings about, and of the best bid (docs/design/webhooks-and-tools.md#attempts): a trade cancelled by its buyer after 30 minutes or by the seller's timeout
 * (`trade.cancelled`), a card payment confirmed (`trade.state_changed`), buy-order funds expiring
 * (`buy_order.expired`), and `market.price_changed` as the highest bid moves. A world of its own,
 * since the sandbox clock moves here; each test's traders are new, so their events are its own.
 */
describe("events of cancellations, card payments, expiring funds and bids", () => {
  let t: TestApp;
  let stickerId: number;
  const post = (token: string, path: string, body: unknown) =>
    t.as(token, "POST", `/api/market/developer/${path}`, body);
  /**
   * The token's account events of `types` after `afterId`, following `has_more`; a poll sequences
   * what committed before it.
   */
  const eventsOf = async (token: string, types: string, afterId = "0"): Promise<WireEvent[]> => {
    const all: WireEvent[] = [];
    let cursor = afterId;
    for (;;) {
      const query = new URLSearchParams({ after: cursor, limit: "1000", types });
      const response = await t.as(token, "GET", `/api/market/developer/events?${query}`);
      assert.equal(response.statusCode, 200, response.body);
      const page = response.json<{ items: WireEvent[]; has_more: boolean }>();
      all.push(...page.items);
      if (!page.has_more) return all;
      cursor = page.items.at(-1)!.id;
    }
  };
  /** Type, object id, state and `rollback_by` of each event (null where the record has none). */
  const summary = (events: WireEvent[]) =>
    events.map((event) => [
      event.type,
      event.data.id ?? null,
      event.data.state ?? null,
      event.data.rollback_by ?? null,
    ]);
  /** The sticker's public price events after `afterId`. */
  const priceEvents = async (afterId: number) =>
    (
      await t.database.db
        .selectFrom("events")
        .select("data")
        .where("user_id", "is", null)
        .where("goods_id", "=", stickerId)
        .where("type", "=", "market.price_changed")
        .where("event_id", ">", afterId)
        .orderBy("event_id")
        .execute()
    ).map((event) => event.data);
  const advance = async (seconds: number) => {
    assert.equal((await t.admin("POST", "/sandbox/clock/advance", { seconds })).statusCode, 200);
    assert.equal((await t.admin("POST", "/sandbox/jobs/run")).statusCode, 200);
    await t.assertLedger();
  };
  /** New traders: the seller lists one sticker at `price`, the buyer buys it (by card, or from a balance funded for it). */
  const sale = async (price: number, payMethod?: "bankcard") => {
    const seller = await createReadyTrader(t);
    const buyer = await createReadyTrader(t);
    const assetid = await grantOne(t, seller.platformid, { market_hash_name: STICKER });
    const listed = await post(seller.token, "sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price }],
    });
    assert.equal(listed.statusCode, 200, listed.body);
    if (!payMethod) await t.fund(buyer.userId, "balance", price);
    const bought = await post(buyer.token, "purchase/orders", {
      game: "cs2",
      ...(payMethod ? { pay_method: payMethod } : {}),
      items: [{ goods_id: stickerId, max_price: price, quantity: 1 }],
    });
    assert.equal(bought.statusCode, 200, bought.body);
    const tradeId = bought.json().result[String(stickerId)].bill_order_ids[0] as string;
    assert.ok(tradeId, bought.body);
    const listingId = listed.json().sell_orders[assetid].sell_order_id as string;
    return { seller, buyer, tradeId, listingId };
  };
  const placeBid = async (token: string, price: number, num: number) => {
    const placed = await post(token, "buy_order", {
      game: "cs2",
      goods_id: stickerId,
      price,
      num,
      pay_method: "margin",
    });
    assert.equal(placed.statusCode, 200, placed.body);
    return placed.json().id as string;
  };
  const cancelBids = async (token: string, ids: string[]) => {
    const cancelled = await t.as(token, "DELETE", "/api/market/developer/buy_order", {
      game: "cs2",
      buy_order_ids: ids,
    });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    stickerId = await goodsIdOf(t, STICKER);
  });
  after(() => t.close());

  test("happy: market.price_changed follows the highest bid: a better bid raises buy_max_price, its cancel lowers it; a lower bid moves nothing", async () => {
    const bidder = await createReadyTrader(t);
    await t.fund(bidder.userId, "margin", 100);
    const from = await highestEventId(t.database.db);
    // Each poll sequences what committed before it: every step below is its own round.
    const sequenced = () => eventsOf(bidder.token, "*");
    const first = await placeBid(bidder.token, 3, 2);
    await sequenced();
    const lower = await placeBid(bidder.token, 2, 1);
    await sequenced();
    const better = await placeBid(bidder.token, 4, 1);
    await sequenced();
    await cancelBids(bidder.token, [better]);
    await sequenced();
    await cancelBids(bidder.token, [lower]);
    await sequenced();
    await cancelBids(bidder.token, [first]);
    await sequenced();
    await t.assertLedger();
    const move = (buyMax: string, previous: string, wanted: number) => ({
      goods_id: stickerId,
      sell_min_price: "0.00",
      previous_sell_min_price: "0.00",
      buy_max_price: buyMax,
      previous_buy_max_price: previous,
      buy_order_num: wanted,
    });
    assert.deepEqual(await priceEvents(from), [
      move("3.00", "0.00", 2),
      move("4.00", "3.00", 4),
      move("3.00", "4.00", 3),
      move("0.00", "3.00", 0),
    ]);
    // The owner's records carry the book's best bid as it was when each change was sequenced.
    const created = (await eventsOf(bidder.token, "buy_order.created")).map((event) => [
      event.data.id,
      event.data.buy_max_price,
    ]);
    assert.deepEqual(created, [
      [first, "3.00"],
      [lower, "3.00"],
      [better, "4.00"],
    ]);
  });

  test("happy: trade.cancelled reaches both sides when the buyer cancels an unsent purchase after 30 minutes, rollback_by buyer_cancel", async () => {
    const { seller, buyer, tradeId, listingId } = await sale(5);
    const cancel = () =>
      t.as(buyer.token, "DELETE", "/api/market/developer/purchase/orders", {
        game: "cs2",
        order_ids: [tradeId],
      });
    const early = await cancel();
    assert.match(early.json().error_list[tradeId], /30 minutes/, early.body);
    await advance(30 * 60);
    const cancelled = await cancel();
    assert.deepEqual(cancelled.json().success_list, [tradeId], cancelled.body);
    await t.assertLedger();
    const buyerEvents = await eventsOf(buyer.token, "trade.*,balance.*");
    assert.deepEqual(summary(buyerEvents), [
      ["balance.changed", null, null, null],
      ["balance.changed", null, null, null],
      ["trade.created", tradeId, "PAYING", null],
      // The cancel's transaction: the trade fails, then the refund.
      ["trade.cancelled", tradeId, "FAIL", null],
      ["balance.changed", null, null, null],
    ]);
    assert.deepEqual(buyerEvents.at(-1)!.data, {
      market_balance: "5.00",
      margin_balance: "0.00",
      wallet_balance: "0.00",
      frozen_amount: "0.00",
    });
    const sellerEvents = await eventsOf(seller.token, "trade.*,listing.*");
    assert.deepEqual(summary(sellerEvents), [
      ["listing.created", listingId, null, null],
      ["listing.sold", listingId, null, null],
      ["trade.created", tradeId, "SELLER_TO_SEND_OFFER", ""],
      ["trade.cancelled", tradeId, "FAIL", "buyer_cancel"],
    ]);
    assert.equal(sellerEvents.at(-1)!.data.trade_offer_status, "failed");
  });

  test("happy: trade.cancelled reaches both sides when the seller sends no offer within 12 hours, rollback_by seller_timeout", async () => {
    const { seller, buyer, tradeId } = await sale(6);
    await advance(12 * 3600 - 60);
    assert.deepEqual(
      (await eventsOf(seller.token, "trade.*")).map((event) => event.type),
      ["trade.created"],
      "not before the deadline",
    );
    await advance(60);
    assert.deepEqual(summary(await eventsOf(seller.token, "trade.*")), [
      ["trade.created", tradeId, "SELLER_TO_SEND_OFFER", ""],
      ["trade.cancelled", tradeId, "FAIL", "seller_timeout"],
    ]);
    const buyerEvents = await eventsOf(buyer.token, "trade.*,balance.*");
    assert.deepEqual(summary(buyerEvents.slice(2)), [
      ["trade.created", tradeId, "PAYING", null],
      ["trade.cancelled", tradeId, "FAIL", null],
      ["balance.changed", null, null, null],
    ]);
    assert.equal(buyerEvents.at(-1)!.data.market_balance, "6.00", "refunded");
  });

  test("happy: trade.state_changed when a card payment is confirmed: PAYING to SELLER_TO_SEND_OFFER", async () => {
    const { seller, buyer, tradeId } = await sale(7, "bankcard");
    await advance(4);
    assert.deepEqual(
      (await eventsOf(seller.token, "trade.*")).map((event) => event.type),
      ["trade.created"],
      "not confirmed before five seconds",
    );
    await advance(1);
    assert.deepEqual(summary(await eventsOf(seller.token, "trade.*")), [
      ["trade.created", tradeId, "PAYING", ""],
      ["trade.state_changed", tradeId, "SELLER_TO_SEND_OFFER", ""],
    ]);
    const buyerEvents = await eventsOf(buyer.token, "trade.*,balance.*");
    assert.deepEqual(summary(buyerEvents), [
      ["trade.created", tradeId, "PAYING", null],
      // The confirmation's transaction: the card's money into escrow, then the trade.
      ["balance.changed", null, null, null],
      // The buyer's record says PAYING for every state in flight (purchase/orders/list's).
      ["trade.state_changed", tradeId, "PAYING", null],
    ]);
    assert.equal(buyerEvents[1]!.data.frozen_amount, "7.00");
  });

  // Last: it moves the clock 150 days (and the log's retention, 30 days, purges what came before).
  test("happy: buy_order.expired when expiring buy-order funds no longer cover an order; the book and the best bid follow", async () => {
    const bidder = await createReadyTrader(t);
    await t.fund(bidder.userId, "margin", 50);
    const orderId = await placeBid(bidder.token, 5, 2);
    const created = await eventsOf(bidder.token, "buy_order.*,balance.*");
    assert.deepEqual(summary(created), [
      ["balance.changed", null, null, null],
      ["buy_order.created", orderId, "progressing", null],
    ]);
    await advance(150 * 86_400 - 60);
    assert.deepEqual(
      await eventsOf(bidder.token, "buy_order.*,balance.*", created.at(-1)!.id),
      [],
      "the funds last 150 days",
    );
    const from = await highestEventId(t.database.db);
    await advance(61);
    const events = await eventsOf(bidder.token, "buy_order.*,balance.*", created.at(-1)!.id);
    assert.deepEqual(summary(events), [
      // The expiry's transaction: the funds leave, then the order they covered ends.
      ["balance.changed", null, null, null],
      ["buy_order.expired", orderId, "failed", null],
    ]);
    assert.equal(events[0]!.data.margin_balance, "0.00");
    const expired = events[1]!;
    assert.equal(expired.goods_id, stickerId);
    assert.deepEqual([expired.data.price, expired.data.num, expired.data.real_num], ["5.00", 2, 0]);
    assert.equal(expired.data.buy_max_price, "0.00", "the book as the expiry left it");
    const book = await t.database.db
      .selectFrom("events")
      .select(["type", "data"])
      .where("user_id", "is", null)
      .where("goods_id", "=", stickerId)
      .where("type", "like", "market.buy_order_%")
      .where("event_id", ">", from)
      .orderBy("event_id")
      .execute();
    assert.deepEqual(
      book.map((event) => {
        const data = event.data as { state: string; state_text: string };
        return [event.type, data.state, data.state_text];
      }),
      [["market.buy_order_removed", "failed", "已失效"]],
      "the removed order's record says it ended, in the website's words",
    );
    assert.equal((book[0]!.data as { id: string }).id, orderId);
    assert.deepEqual(await priceEvents(from), [
      {
        goods_id: stickerId,
        sell_min_price: "0.00",
        previous_sell_min_price: "0.00",
        buy_max_price: "0.00",
        previous_buy_max_price: "5.00",
        buy_order_num: 0,
      },
    ]);
  });
});
