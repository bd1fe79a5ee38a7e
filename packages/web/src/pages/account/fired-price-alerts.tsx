import { dateTime, goodsName, money } from "../../format.ts";
import { t } from "../../i18n.ts";
import { useEffect } from "preact/hooks";
import { firedPriceAlerts, markPriceAlertsSeen } from "../../price-alerts.ts";
import { useStore } from "../../store.ts";

/**
 * The price alerts received (`bookmark.price_alert`: the server's log, then the event stream),
 * newest first, each saying which price crossed which target. A polite live region: an alert
 * that fires while the page is open is read out. Listed here, they are seen: the header's notice
 * of them goes.
 */
export function FiredPriceAlerts() {
  const fired = useStore(firedPriceAlerts);
  useEffect(markPriceAlertsSeen, [fired]);
  return (
    <section aria-labelledby="fired-alerts-title">
      <h3 id="fired-alerts-title">{t("Price alerts received")}</h3>
      <ul aria-labelledby="fired-alerts-title" aria-live="polite">
        {fired.map((alert) => (
          <li key={alert.eventId}>
            <a href={`/goods/${alert.alert.goods_id}`}>{goodsName(alert.alert)}</a>{" "}
            {alert.crossed === "sell"
              ? t("lowest listing {price}, at or below {target}", {
                  price: money(alert.price),
                  target: money(alert.alert.sell_at),
                })
              : t("highest buy order {price}, at or above {target}", {
                  price: money(alert.price),
                  target: money(alert.alert.buy_at),
                })}{" "}
            <span class="muted small">{dateTime(alert.createdAt)}</span>
          </li>
        ))}
      </ul>
      {fired.length === 0 ? <p class="muted">{t("No price alert has fired.")}</p> : null}
    </section>
  );
}
