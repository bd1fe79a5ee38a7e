import type { setBookmarkAlert } from "@skinmarket/contract";
import { useState } from "preact/hooks";
import { web } from "../../api.ts";
import { dateTime, money } from "../../format.ts";
import { t } from "../../i18n.ts";
import type { PriceAlertRecord } from "../../live.ts";
import { Feedback, useAction } from "../../use-data.tsx";

/** What a bookmark's alert watches and where it stands, in a line ("No price alert" without one). */
export function AlertSummary(props: { alert: PriceAlertRecord | null }) {
  const alert = props.alert;
  if (!alert) return <span class="muted small">{t("No price alert")}</span>;
  const sides = [
    alert.sell_at === null
      ? ""
      : `${t("lowest listing ≤ {price}", { price: money(alert.sell_at) })} · ${alert.sell_reached ? t("reached") : t("watching")}`,
    alert.buy_at === null
      ? ""
      : `${t("highest buy order ≥ {price}", { price: money(alert.buy_at) })} · ${alert.buy_reached ? t("reached") : t("watching")}`,
  ].filter(Boolean);
  return (
    <span class="small">
      {t("Price alert: {sides}", { sides: sides.join("; ") })}
      {alert.fired_at !== null
        ? ` · ${t("last alert {time} at {price}", { time: dateTime(alert.fired_at), price: money(alert.fired_price) })}`
        : ""}
    </span>
  );
}

/**
 * Sets or removes a bookmark's price alert (`POST /api/market/goods/bookmark/alert`): a target for
 * the lowest listing and one for the highest buy order, either left empty. Opened from the
 * bookmark's row, in place, so the outcome shows beside it.
 */
export function BookmarkAlertForm(props: {
  goodsId: number;
  name: string;
  alert: PriceAlertRecord | null;
  onSaved: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [message, error, run, busy] = useAction();
  const formId = `alert-${props.goodsId}`;
  const save = (sellAt: string | null, buyAt: string | null, done: string) =>
    run(async () => {
      await web<typeof setBookmarkAlert>("POST", "/api/market/goods/bookmark/alert", {
        body: { id: String(props.goodsId), sell_at: sellAt, buy_at: buyAt },
      });
      props.onSaved();
      setOpen(false);
      return done;
    });
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const field = (name: string) => String(form.get(name) ?? "").trim() || null;
    const sellAt = field("sell_at");
    const buyAt = field("buy_at");
    void save(sellAt, buyAt, sellAt || buyAt ? t("Price alert saved.") : t("Price alert removed."));
  };
  return (
    <div class="alert-editor">
      <button type="button" aria-expanded={open} aria-controls={formId} onClick={() => setOpen(!open)}>
        {t("Price alert for {name}", { name: props.name })}
      </button>
      {open ? (
        <form
          id={formId}
          class="row"
          aria-label={t("Price alert for {name}", { name: props.name })}
          onSubmit={submit}
        >
          <label>
            {t("Alert when the lowest listing is at or below (¥)")}
            <input name="sell_at" inputMode="decimal" size={8} defaultValue={props.alert?.sell_at ?? ""} />
          </label>
          <label>
            {t("Alert when the highest buy order is at or above (¥)")}
            <input name="buy_at" inputMode="decimal" size={8} defaultValue={props.alert?.buy_at ?? ""} />
          </label>
          <button type="submit" disabled={busy}>
            {t("Save alert")}
          </button>
          {props.alert ? (
            <button
              type="button"
              disabled={busy}
              onClick={() => void save(null, null, t("Price alert removed."))}
            >
              {t("Remove alert")}
            </button>
          ) : null}
        </form>
      ) : null}
      <Feedback message={message} error={error} />
    </div>
  );
}
