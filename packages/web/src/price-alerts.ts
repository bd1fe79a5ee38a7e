import { onLiveEvent, type FiredPriceAlert } from "./live.ts";
import { currentUser } from "./session.ts";
import { Store } from "./store.ts";

/** How many received alerts the bookmarks page lists. */
const KEPT = 20;

/**
 * The price alerts (`bookmark.price_alert`) received live since the session signed in, newest
 * first (docs/design/website.md#price-alerts): kept from sign-in, whatever page is open when one
 * fires, so the bookmarks page can list them; a replayed event (the stream resumed) is kept once.
 */
export const firedPriceAlerts = new Store<FiredPriceAlert[]>([]);

onLiveEvent((event) => {
  if (event.kind !== "priceAlert") return;
  const others = firedPriceAlerts.value.filter((kept) => kept.eventId !== event.eventId);
  firedPriceAlerts.set([event, ...others].slice(0, KEPT));
});

let userId = currentUser.value?.id;
currentUser.subscribe(() => {
  if (currentUser.value?.id === userId) return;
  userId = currentUser.value?.id;
  firedPriceAlerts.set([]);
});
