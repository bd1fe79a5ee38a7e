/**
 * The seam for live updates. Pages say what they show with `onMarketChange`, and refresh when told;
 * today nothing tells them (they refresh on their own actions and on reload). The event stream,
 * built separately, plugs in here: its subscription calls `announce` with each event's kind and
 * goods, and every page subscribed to that kind refreshes without a reload.
 */

export type LiveEvent =
  | { kind: "listing"; goodsId?: number }
  | { kind: "sale"; goodsId?: number }
  | { kind: "fill"; goodsId?: number }
  | { kind: "trade"; billOrderId?: string };

type Listener = (event: LiveEvent) => void;
const listeners = new Set<Listener>();

/** Subscribes a page; answers the function that unsubscribes it (for a `useEffect` cleanup). */
export function onLiveEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Called by the stream subscription (to come) for each event it receives. */
export function announce(event: LiveEvent): void {
  for (const listener of listeners) listener(event);
}
