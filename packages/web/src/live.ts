import type { MarketplaceEvent, OperationResponse, setBookmarkAlert } from "@skinmarket/contract";

/** A bookmark's price alert, as `setBookmarkAlert` answers it and `bookmark.price_alert` carries it. */
export type PriceAlertRecord = OperationResponse<typeof setBookmarkAlert>["data"]["alert"];

/** A `bookmark.price_alert` as the pages show it: which side crossed, at what price. */
export interface FiredPriceAlert {
  kind: "priceAlert";
  eventId: string;
  goodsId?: number;
  createdAt: number;
  crossed: "sell" | "buy";
  price: string;
  alert: PriceAlertRecord;
}

/**
 * Live updates (docs/design/website.md#live-updates-from-the-event-stream). Pages say what they show with `onLiveEvent` and
 * refresh when told; the event stream (`live-stream.ts`) maps each event it receives with
 * `liveEventOf` and `announce`s it.
 */

export type LiveEvent =
  | { kind: "listing"; goodsId?: number }
  | { kind: "sale"; goodsId?: number }
  | { kind: "fill"; goodsId?: number }
  | { kind: "buyOrder"; goodsId?: number }
  | { kind: "balance" }
  | { kind: "trade"; billOrderId?: string }
  | FiredPriceAlert;

type Listener = (event: LiveEvent) => void;
const listeners = new Set<Listener>();

/** Subscribes a page; answers the function that unsubscribes it (for a `useEffect` cleanup). */
export function onLiveEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells every subscribed page; the stream calls it for each event it receives. */
export function announce(event: LiveEvent): void {
  for (const listener of listeners) listener(event);
}

/** What an event changes, as the pages know it; `undefined` for what no page shows. */
export function liveEventOf(event: MarketplaceEvent): LiveEvent | undefined {
  const goodsId = event.goods_id ?? undefined;
  if (event.type.startsWith("listing.") || event.type.startsWith("market.listing_"))
    return { kind: "listing", goodsId };
  if (event.type === "market.price_changed") return { kind: "listing", goodsId };
  if (event.type === "buy_order.filled") return { kind: "fill", goodsId };
  // Created, cancelled, expired, changed, state or status changed: the account's buy orders; and
  // the public book's orders (`market.buy_order_*`) on the item page of their goods.
  if (event.type.startsWith("buy_order.") || event.type.startsWith("market.buy_order_"))
    return { kind: "buyOrder", goodsId };
  if (event.type === "balance.changed") return { kind: "balance" };
  if (event.type === "bookmark.price_alert") {
    const data = event.data as { crossed: "sell" | "buy"; price: string; alert: PriceAlertRecord };
    return {
      kind: "priceAlert",
      eventId: event.id,
      goodsId,
      createdAt: event.created_at,
      crossed: data.crossed,
      price: data.price,
      alert: data.alert,
    };
  }
  if (event.type.startsWith("trade.")) {
    const id = (event.data as { id?: unknown } | null)?.id;
    return { kind: "trade", billOrderId: typeof id === "string" ? id : undefined };
  }
  return undefined;
}
