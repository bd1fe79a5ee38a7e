import type { listEvents } from "@skinmarket/contract";
import { own } from "./api.ts";
import { liveEventOf, onLiveEvent, type FiredPriceAlert } from "./live.ts";
import { currentUser } from "./session.ts";
import { Store } from "./store.ts";

/** How many received alerts the bookmarks page lists. */
const KEPT = 20;
/** Where this browser keeps, per user, the id of the newest alert the user has seen listed. */
const SEEN_KEY = "skinmarket.priceAlertsSeen";

/**
 * The price alerts (`bookmark.price_alert`) the signed-in user received, newest first
 * (docs/design/website.md#price-alerts): read from the server's event log at sign-in (the
 * session reads `developer/events`), so they outlive the session they arrived in, and kept
 * up to date by the live stream whatever page is open; an event met twice is kept once.
 */
export const firedPriceAlerts = new Store<FiredPriceAlert[]>([]);
/** The id of the newest alert the user has seen on the bookmarks page ("0": none). */
export const seenPriceAlert = new Store<string>("0");

function keep(alerts: FiredPriceAlert[]): void {
  const byId = new Map([...alerts, ...firedPriceAlerts.value].map((alert) => [alert.eventId, alert]));
  firedPriceAlerts.set(
    [...byId.values()].sort((a, b) => Number(b.eventId) - Number(a.eventId)).slice(0, KEPT),
  );
}

onLiveEvent((event) => {
  if (event.kind === "priceAlert") keep([event]);
});

/** The user's alerts in the server's log (kept 30 days), oldest first page after page. */
async function loadReceived(userId: string): Promise<void> {
  let after = "0";
  for (;;) {
    const page = await own<typeof listEvents>("GET", "/api/market/developer/events", {
      query: { after, types: "bookmark.price_alert", limit: 1000 },
    });
    if (currentUser.value?.user_id !== userId) return;
    keep(
      page.items
        .map((event) => liveEventOf(event))
        .filter((event): event is FiredPriceAlert => event?.kind === "priceAlert"),
    );
    if (!page.has_more || page.items.length === 0) return;
    after = page.items.at(-1)!.id;
  }
}

function seenOf(userId: string): string {
  try {
    return (JSON.parse(localStorage.getItem(SEEN_KEY) ?? "{}") as Record<string, string>)[userId] ?? "0";
  } catch {
    return "0";
  }
}

/** Marks every alert listed as seen: the header's notice goes until a newer one arrives. */
export function markPriceAlertsSeen(): void {
  const userId = currentUser.value?.user_id;
  const newest = firedPriceAlerts.value[0]?.eventId;
  if (!userId || !newest || Number(newest) <= Number(seenPriceAlert.value)) return;
  seenPriceAlert.set(newest);
  try {
    const seen = JSON.parse(localStorage.getItem(SEEN_KEY) ?? "{}") as Record<string, string>;
    localStorage.setItem(SEEN_KEY, JSON.stringify({ ...seen, [userId]: newest }));
  } catch {
    // A browser that keeps nothing shows the notice again next time; nothing else depends on it.
  }
}

/** How many alerts arrived after the newest the user has seen. */
export function unseenPriceAlerts(alerts: FiredPriceAlert[], seen: string): number {
  return alerts.filter((alert) => Number(alert.eventId) > Number(seen)).length;
}

let userId = currentUser.value?.user_id;
currentUser.subscribe(() => {
  if (currentUser.value?.user_id === userId) return;
  userId = currentUser.value?.user_id;
  firedPriceAlerts.set([]);
  seenPriceAlert.set(userId ? seenOf(userId) : "0");
  // A failed read leaves the live alerts; the next sign-in reads again.
  if (userId) loadReceived(userId).catch(() => {});
});
