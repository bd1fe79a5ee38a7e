/**
 * The event types of the event log (docs/design/webhooks-and-tools.md#account-events-only). An account's events are private:
 * only its tokens and sessions read them. The market's are public.
 */
export const ACCOUNT_EVENT_TYPES = [
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
] as const;

export const MARKET_EVENT_TYPES = [
  "market.price_changed",
  "market.listing_added",
  "market.listing_repriced",
  "market.listing_removed",
  "market.buy_order_added",
  "market.buy_order_changed",
  "market.buy_order_removed",
  "market.reset",
] as const;

export const EVENT_TYPES = [...ACCOUNT_EVENT_TYPES, ...MARKET_EVENT_TYPES] as const;

export type AccountEventType = (typeof ACCOUNT_EVENT_TYPES)[number];
export type MarketEventType = (typeof MARKET_EVENT_TYPES)[number];
export type EventType = AccountEventType | MarketEventType;

/** One event as every channel delivers it (polling, the stream, webhooks). */
export interface MarketplaceEvent<Data = unknown> {
  /** Increasing across the whole log, in the order the changes committed; a decimal string. */
  id: string;
  type: EventType;
  /** Unix seconds, by the marketplace clock. */
  created_at: number;
  /** The goods the event concerns, when it concerns one. */
  goods_id: number | null;
  /** The record the REST operations answer for the object, as the change left it. */
  data: Data;
}

/**
 * A type filter: exact types, or a prefix with `.*` (`trade.*`), or `*` for all. Returns the
 * pattern that does not name a known type, if any.
 */
export function unknownEventTypePattern(patterns: readonly string[]): string | undefined {
  return patterns.find(
    (pattern) =>
      pattern !== "*" &&
      !(EVENT_TYPES as readonly string[]).includes(pattern) &&
      !(pattern.endsWith(".*") && EVENT_TYPES.some((type) => type.startsWith(pattern.slice(0, -1)))),
  );
}

/** Whether `type` matches any of `patterns` (none: every type matches). */
export function eventTypeMatches(type: string, patterns: readonly string[] | undefined): boolean {
  if (!patterns || patterns.length === 0) return true;
  return patterns.some(
    (pattern) =>
      pattern === "*" ||
      pattern === type ||
      (pattern.endsWith(".*") && type.startsWith(pattern.slice(0, -1))),
  );
}
