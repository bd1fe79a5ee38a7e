import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import { sql } from "kysely";
import {
  createTraderWithAccount,
  grant,
  uploadCookies,
  type PlatformFixture,
} from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { usingPostgres } from "../support/test-database.ts";

const STICKER = "Sticker | Crown (Foil)";

type Step =
  | { kind: "list"; actor: number; pick: number; price: number }
  | { kind: "delist"; actor: number; pick: number }
  | { kind: "reprice"; actor: number; pick: number; price: number }
  | {
      kind: "purchase";
      actor: number;
      maxPrice: number;
      quantity: number;
      payMethod: "any" | "wallet" | "bankcard";
    }
  | { kind: "sendOffer"; actor: number; pick: number }
  | { kind: "answer"; pick: number; accept: boolean }
  | { kind: "cancel"; actor: number; pick: number }
  | { kind: "advance"; seconds: number }
  | { kind: "jobs" }
  | { kind: "bid"; actor: number; price: number; num: number; payMethod: "any" | "margin" }
  | { kind: "cancelBid"; actor: number; pick: number }
  | { kind: "supply"; actor: number; pick: number; assetPick: number }
  | { kind: "status"; actor: number; online: boolean; autoOffline: boolean };

const actor = fc.integer({ min: 0, max: 2 });
const pick = fc.nat({ max: 20 });
const price = fc.integer({ min: 1, max: 20 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("list" as const), actor, pick, price }) },
  fc.record({ kind: fc.constant("delist" as const), actor, pick }),
  fc.record({ kind: fc.constant("reprice" as const), actor, pick, price }),
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("purchase" as const),
      actor,
      maxPrice: price,
      quantity: fc.integer({ min: 1, max: 3 }),
      payMethod: fc.constantFrom("any" as const, "wallet" as const, "bankcard" as const),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("sendOffer" as const), actor, pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("answer" as const), pick, accept: fc.boolean() }) },
  fc.record({ kind: fc.constant("cancel" as const), actor, pick }),
  fc.record({
    kind: fc.constant("advance" as const),
    // 151 days: buy-order funds deposited before it expire.
    seconds: fc.constantFrom(5, 60, 31 * 60, 12 * 3600 + 1, 151 * 86_400),
  }),
  fc.record({ kind: fc.constant("jobs" as const) }),
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("bid" as const),
      actor,
      price,
      num: fc.integer({ min: 1, max: 3 }),
      payMethod: fc.constantFrom("any" as const, "margin" as const),
    }),
  },
  fc.record({ kind: fc.constant("cancelBid" as const), actor, pick }),
  fc.record({ kind: fc.constant("supply" as const), actor, pick, assetPick: pick }),
  fc.record({ kind: fc.constant("status" as const), actor, online: fc.boolean(), autoOffline: fc.boolean() }),
);

/**
 * Random sequences of listing, delisting, repricing, buying, sending offers, answering them,
 * cancelling, moving the clock, and buy orders (bids, cancels, supplies, status changes, funds
 * expiring), among three traders who all buy and sell. After every step:
 * the ledger invariants hold (no money created or lost; escrow equals in-flight purchases; fees
 * equal completed trades' fees), no item is in two places, and every trade was paid out or
 * refunded at most once, failed trades exactly once.
 */
describe("trading (model-based)", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ catalog: true });
  });
  after(() => t.close());

  const api = (
    trader: PlatformFixture,
    method: "GET" | "POST" | "PUT" | "DELETE",
    path: string,
    body?: unknown,
  ) => t.as(trader.token, method, `/api/market/developer/${path}`, body);

  async function world(): Promise<PlatformFixture[]> {
    const traders = await Promise.all([0, 1, 2].map(() => createTraderWithAccount(t)));
    for (const trader of traders) {
      await uploadCookies(t, trader);
      await api(trader, "POST", "platform/setup", { platformid: trader.platformid });
      await grant(t, trader.platformid, { market_hash_name: STICKER, count: 3 });
      await t.fund(trader.userId, "balance", 15);
      await t.fund(trader.userId, "wallet", 10);
      await t.fund(trader.userId, "margin", 10);
    }
    return traders;
  }

  async function apply(traders: PlatformFixture[], current: Step): Promise<void> {
    const db = t.database.db;
    switch (current.kind) {
      case "list": {
        const trader = traders[current.actor]!;
        const held = await db
          .selectFrom("sandbox_assets")
          .select("assetid")
          .where("platformid", "=", trader.platformid)
          .where("traded_to_assetid", "is", null)
          .where(
            "assetid",
            "not in",
            db.selectFrom("listings").select("assetid").where("state", "=", "ON_SALE"),
          )
          .orderBy("assetid")
          .execute();
        const asset = held[current.pick % Math.max(held.length, 1)];
        if (asset)
          await api(trader, "POST", "sell_order/items", {
            game: "cs2",
            assets: [{ assetid: String(asset.assetid), price: current.price }],
          });
        return;
      }
      case "delist":
      case "reprice": {
        const trader = traders[current.actor]!;
        const listings = await db
          .selectFrom("listings")
          .select("listing_id")
          .where("user_id", "=", Number(trader.userId))
          .where("state", "=", "ON_SALE")
          .orderBy("listing_id")
          .execute();
        const listing = listings[current.pick % Math.max(listings.length, 1)];
        if (!listing) return;
        if (current.kind === "delist")
          await api(trader, "DELETE", "sell_order/items", {
            game: "cs2",
            sell_orders: [String(listing.listing_id)],
          });
        else
          await api(trader, "PUT", "sell_order/items", {
            game: "cs2",
            sell_orders: [{ sell_order_id: String(listing.listing_id), price: current.price }],
          });
        return;
      }
      case "purchase": {
        const trader = traders[current.actor]!;
        const goods = await db
          .selectFrom("goods")
          .select("goods_id")
          .where("market_hash_name", "=", STICKER)
          .executeTakeFirstOrThrow();
        const response = await api(trader, "POST", "purchase/orders", {
          game: "cs2",
          ...(current.payMethod === "any" ? {} : { pay_method: current.payMethod }),
          items: [{ goods_id: goods.goods_id, max_price: current.maxPrice, quantity: current.quantity }],
        });
        assert.equal(response.statusCode, 200, response.body);
        return;
      }
      case "sendOffer":
      case "cancel": {
        const trader = traders[current.actor]!;
        const column = current.kind === "sendOffer" ? "seller_id" : "buyer_id";
        const trades = await db
          .selectFrom("trades")
          .select("trade_id")
          .where(column, "=", Number(trader.userId))
          .where("state", "=", "SELLER_TO_SEND_OFFER")
          .orderBy("trade_id")
          .execute();
        const trade = trades[current.pick % Math.max(trades.length, 1)];
        if (!trade) return;
        if (current.kind === "sendOffer")
          await api(trader, "POST", "sell_order/send_offer", { order_id: String(trade.trade_id) });
        else
          await api(trader, "DELETE", "purchase/orders", {
            game: "cs2",
            order_ids: [String(trade.trade_id)],
          });
        return;
      }
      case "answer": {
        const offers = await db
          .selectFrom("sandbox_trade_offers")
          .select("tradeofferid")
          .where("state", "=", "active")
          .orderBy("tradeofferid")
          .execute();
        const offer = offers[current.pick % Math.max(offers.length, 1)];
        if (offer)
          await t.admin(
            "POST",
            `/sandbox/platform/offers/${offer.tradeofferid}/${current.accept ? "accept" : "decline"}`,
          );
        return;
      }
      case "advance":
        await t.admin("POST", "/sandbox/clock/advance", { seconds: current.seconds });
        return;
      case "jobs":
        await t.admin("POST", "/sandbox/jobs/run");
        return;
      case "bid": {
        const trader = traders[current.actor]!;
        const response = await api(trader, "POST", "buy_order", {
          game: "cs2",
          goods_id: await stickerId(),
          price: current.price,
          num: current.num,
          ...(current.payMethod === "any" ? {} : { pay_method: current.payMethod }),
        });
        assert.ok([200, 409].includes(response.statusCode), response.body);
        return;
      }
      case "cancelBid": {
        const trader = traders[current.actor]!;
        const orders = await db
          .selectFrom("buy_orders")
          .select("buy_order_id")
          .where("user_id", "=", Number(trader.userId))
          .where("state", "=", "progressing")
          .orderBy("buy_order_id")
          .execute();
        const order = orders[current.pick % Math.max(orders.length, 1)];
        if (order)
          assert.equal(
            (
              await api(trader, "DELETE", "buy_order", {
                game: "cs2",
                buy_order_ids: [String(order.buy_order_id)],
              })
            ).json()[String(order.buy_order_id)],
            "OK",
          );
        return;
      }
      case "supply": {
        const trader = traders[current.actor]!;
        const orders = await db
          .selectFrom("buy_orders")
          .select("buy_order_id")
          .where("user_id", "<>", Number(trader.userId))
          .where("state", "=", "progressing")
          .orderBy("buy_order_id")
          .execute();
        const order = orders[current.pick % Math.max(orders.length, 1)];
        const held = await db
          .selectFrom("sandbox_assets")
          .select("assetid")
          .where("platformid", "=", trader.platformid)
          .where("traded_to_assetid", "is", null)
          .orderBy("assetid")
          .execute();
        const asset = held[current.assetPick % Math.max(held.length, 1)];
        if (!order || !asset) return;
        const response = await api(trader, "POST", "buy_order/supply", {
          game: "cs2",
          buy_order_id: String(order.buy_order_id),
          assets: [String(asset.assetid)],
        });
        assert.equal(response.statusCode, 200, response.body);
        return;
      }
      case "status":
        await api(traders[current.actor]!, "PUT", "buy_order/status", {
          buy_order_status: current.online ? "online" : "offline",
          buy_order_auto_offline: current.autoOffline,
        });
        return;
    }
  }

  let goodsId: number | undefined;
  async function stickerId(): Promise<number> {
    goodsId ??= (
      await t.database.db
        .selectFrom("goods")
        .select("goods_id")
        .where("market_hash_name", "=", STICKER)
        .executeTakeFirstOrThrow()
    ).goods_id;
    return goodsId;
  }

  async function checkInvariants(): Promise<void> {
    // Includes every buy order's counters against its trades.
    await t.assertLedger();
    const db = t.database.db;
    const twice = await sql<{ assetid: string }>`
      SELECT traded_from_assetid::text AS assetid FROM sandbox_assets WHERE traded_from_assetid IS NOT NULL
      GROUP BY traded_from_assetid HAVING COUNT(*) > 1 LIMIT 1
    `.execute(db);
    assert.equal(twice.rows.length, 0, `item ${twice.rows[0]?.assetid} arrived in two places`);
    const onSaleNotHeld = await sql<{ listing_id: string }>`
      SELECT l.listing_id::text FROM listings l LEFT JOIN sandbox_assets a ON a.assetid = l.assetid
      WHERE l.state = 'ON_SALE' AND (a.traded_to_assetid IS NOT NULL OR a.platformid <> l.platformid) LIMIT 1
    `.execute(db);
    assert.equal(
      onSaleNotHeld.rows.length,
      0,
      `listing ${onSaleNotHeld.rows[0]?.listing_id} sells an item its seller no longer holds`,
    );
    const settlements = await sql<{
      trade_id: string;
      state: string;
      rollback_by: string | null;
      payouts: string;
      refunds: string;
    }>`
      SELECT t.trade_id::text, t.state, t.rollback_by,
        (SELECT COUNT(*) FROM journal_entries e WHERE e.reference = 'trade:' || t.trade_id AND e.kind = 'trade_payout')::text AS payouts,
        (SELECT COUNT(*) FROM journal_entries e WHERE e.reference = 'trade:' || t.trade_id AND e.kind = 'trade_refund')::text AS refunds
      FROM trades t
    `.execute(db);
    for (const row of settlements.rows) {
      // A card payment that failed moved no money, so nothing is refunded.
      const refunded = row.state === "FAIL" && row.rollback_by !== "payment_failed";
      const expected = row.state === "SUCCESS" ? ["1", "0"] : refunded ? ["0", "1"] : ["0", "0"];
      assert.deepEqual(
        [row.payouts, row.refunds],
        expected,
        `trade ${row.trade_id} (${row.state}) settled ${row.payouts}/${row.refunds}`,
      );
    }
  }

  test(`ledger, items and settlements stay consistent (${usingPostgres ? "PostgreSQL, 200" : "PGlite, 40"} sequences)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const traders = await world();
        for (const current of steps) {
          await apply(traders, current);
          await checkInvariants();
        }
      }),
      { numRuns: usingPostgres ? 200 : 40 },
    );
  });
});
