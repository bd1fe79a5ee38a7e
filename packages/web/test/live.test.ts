import assert from "node:assert/strict";
import { test } from "node:test";
import type { EventType, MarketplaceEvent } from "@skinmarket/contract";
import { announce, liveEventOf, onLiveEvent } from "../src/live.ts";

function event(type: EventType, goodsId: number | null, data: unknown = {}): MarketplaceEvent {
  return { id: "7", type, created_at: 1_700_000_000, goods_id: goodsId, data };
}

test("listing and market listing events refresh the goods' listings", () => {
  for (const type of [
    "listing.created",
    "listing.sold",
    "market.listing_added",
    "market.listing_removed",
  ] as const)
    assert.deepEqual(liveEventOf(event(type, 42)), { kind: "listing", goodsId: 42 }, type);
  assert.deepEqual(liveEventOf(event("market.price_changed", 42)), { kind: "listing", goodsId: 42 });
});

test("trade events carry the bill order's id; a filled buy order is a fill", () => {
  assert.deepEqual(liveEventOf(event("trade.state_changed", 42, { id: "B1" })), {
    kind: "trade",
    billOrderId: "B1",
  });
  assert.deepEqual(liveEventOf(event("trade.delivered", null, null)), {
    kind: "trade",
    billOrderId: undefined,
  });
  assert.deepEqual(liveEventOf(event("buy_order.filled", 42)), { kind: "fill", goodsId: 42 });
});

test("buy-order changes other than fills, and the book's orders, refresh buy orders; balances the wallet", () => {
  for (const type of [
    "buy_order.created",
    "buy_order.cancelled",
    "buy_order.expired",
    "buy_order.changed",
    "buy_order.state_changed",
    "market.buy_order_added",
    "market.buy_order_removed",
  ] as const)
    assert.deepEqual(liveEventOf(event(type, 42)), { kind: "buyOrder", goodsId: 42 }, type);
  assert.deepEqual(liveEventOf(event("buy_order.status_changed", null)), {
    kind: "buyOrder",
    goodsId: undefined,
  });
  assert.deepEqual(liveEventOf(event("balance.changed", null)), { kind: "balance" });
});

test("a price alert carries what crossed, at what price, and the alert's record", () => {
  const alert = { goods_id: "42", market_hash_name: "X", name: "X", sell_at: "10.00", buy_at: null };
  assert.deepEqual(
    liveEventOf(event("bookmark.price_alert", 42, { crossed: "sell", price: "9.50", alert })),
    {
      kind: "priceAlert",
      eventId: "7",
      goodsId: 42,
      createdAt: 1_700_000_000,
      crossed: "sell",
      price: "9.50",
      alert,
    },
  );
});

test("events no page shows are not announced", () => {
  assert.equal(liveEventOf(event("market.reset", null)), undefined);
  assert.equal(liveEventOf(event("platform.cookie_expired", null)), undefined);
});

test("announce tells every subscribed page until it unsubscribes", () => {
  const told: string[] = [];
  const stop = onLiveEvent((live) => told.push(live.kind));
  announce({ kind: "listing", goodsId: 1 });
  stop();
  announce({ kind: "fill" });
  assert.deepEqual(told, ["listing"]);
});
