import type { EventType } from "@skinmarket/contract";

/**
 * Every event type (the contract's `EVENT_TYPES`), restated so that the page does not bundle the
 * contract's schemas; the check below fails to compile when the contract adds a type.
 */
export const EVENT_TYPE_NAMES = [
  "listing.created",
  "listing.repriced",
  "listing.changed",
  "listing.withdrawn",
  "listing.sold",
  "trade.created",
  "trade.state_changed",
  "trade.offer_sent",
  "trade.delivered",
  "trade.cancelled",
  "trade.rolled_back",
  "trade.released",
  "buy_order.created",
  "buy_order.changed",
  "buy_order.filled",
  "buy_order.state_changed",
  "buy_order.cancelled",
  "buy_order.expired",
  "buy_order.status_changed",
  "balance.changed",
  "platform.cookie_expired",
  "bookmark.price_alert",
  "market.price_changed",
  "market.listing_added",
  "market.listing_repriced",
  "market.listing_removed",
  "market.buy_order_added",
  "market.buy_order_changed",
  "market.buy_order_removed",
  "market.reset",
] as const satisfies readonly EventType[];
export type EveryEventTypeListed = [Exclude<EventType, (typeof EVENT_TYPE_NAMES)[number]>] extends [never]
  ? true
  : never;
true satisfies EveryEventTypeListed;
