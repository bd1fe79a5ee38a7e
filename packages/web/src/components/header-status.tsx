import type { getBriefAsset, getNotification } from "@skinmarket/contract";
import { useEffect, useState } from "preact/hooks";
import { web } from "../api.ts";
import { money } from "../format.ts";
import { t } from "../i18n.ts";
import { onLiveEvent, type LiveEvent } from "../live.ts";
import { firedPriceAlerts, seenPriceAlert, unseenPriceAlerts } from "../price-alerts.ts";
import { useStore } from "../store.ts";
import { useLoad } from "../use-data.tsx";

/** The events that move the balance or what the user has to do. */
const MOVES: ReadonlySet<LiveEvent["kind"]> = new Set(["balance", "trade", "fill", "sale"]);
/** Events closer together than this are read as one: a burst of fills reloads once. */
const COALESCE_MS = 250;

/**
 * The signed-in user's balance and to-do counts in the header of every page
 * (docs/design/website.md#price-context-and-orientation): the balance from `asset/get_brief_asset`, the sales to deliver and
 * the offers to accept from `message/notification` (counted by the server from the trades), and
 * the price alerts not yet seen on the bookmarks page, each a link to the page where the user
 * acts; read again when a live event says they moved.
 */
export function HeaderStatus() {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onLiveEvent((event) => {
      if (!MOVES.has(event.kind) || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        setVersion((value) => value + 1);
      }, COALESCE_MS);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, []);
  const asset = useLoad(
    () => web<typeof getBriefAsset>("GET", "/api/asset/get_brief_asset"),
    [version],
  ).value;
  const counts = useLoad(
    () => web<typeof getNotification>("GET", "/api/message/notification"),
    [version],
  ).value;
  const unseen = unseenPriceAlerts(useStore(firedPriceAlerts), useStore(seenPriceAlert));
  const toDeliver = counts?.to_deliver_order.csgo ?? 0;
  const toAccept = counts?.to_accept_offer_order.csgo ?? 0;
  return (
    <div class="status">
      {asset ? (
        <a href="/me/wallet" class="balance">
          <span class="muted">{t("Balance")}</span> {money(asset.cash_amount)}
        </a>
      ) : null}
      {toDeliver > 0 ? (
        <a href="/me/sales" class="todo">
          {t("To deliver")} <span class="count">{toDeliver}</span>
        </a>
      ) : null}
      {unseen > 0 ? (
        <a href="/me/bookmarks" class="todo">
          {t("Price alerts")} <span class="count">{unseen}</span>
        </a>
      ) : null}
      {toAccept > 0 ? (
        <a href="/me/purchases" class="todo">
          {t("Offers to accept")} <span class="count">{toAccept}</span>
        </a>
      ) : null}
    </div>
  );
}
