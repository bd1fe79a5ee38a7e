import { formatMoney, type BookmarkPriceAlert } from "@skinmarket/contract";
import type { Static } from "typebox";
import { toUnixSeconds } from "../clock.ts";

/** A bookmark's alert columns (migration 0034), as read or returned by an update. */
export interface BookmarkAlertRow {
  target_id: number | string;
  alert_sell_at: number | string | null;
  alert_buy_at: number | string | null;
  alert_sell_reached: boolean;
  alert_buy_reached: boolean;
  alert_fired_at: Date | null;
  alert_fired_price: number | string | null;
}

export type BookmarkAlertRecord = Static<typeof BookmarkPriceAlert>;

const moneyOrNull = (fen: number | string | null) => (fen === null ? null : formatMoney(Number(fen)));

/**
 * The alert record every channel carries (`setBookmarkAlert`, `listBookmarks`, the
 * `bookmark.price_alert` event): one function, so a subscriber reads the same shape as the page.
 */
export function toBookmarkAlert(
  row: BookmarkAlertRow,
  goods: { market_hash_name: string; name: string },
): BookmarkAlertRecord {
  return {
    goods_id: String(row.target_id),
    market_hash_name: goods.market_hash_name,
    name: goods.name,
    sell_at: moneyOrNull(row.alert_sell_at),
    buy_at: moneyOrNull(row.alert_buy_at),
    sell_reached: row.alert_sell_reached,
    buy_reached: row.alert_buy_reached,
    fired_at: row.alert_fired_at === null ? null : toUnixSeconds(row.alert_fired_at),
    fired_price: moneyOrNull(row.alert_fired_price),
  };
}

/** Whether a lowest listing of `sellMin` (0: none) meets a `sell_at` alert. */
export function sellAlertMet(sellMin: number, sellAt: number | null): boolean {
  return sellAt !== null && sellMin > 0 && sellMin <= sellAt;
}

/** Whether a highest buy order of `buyMax` (0: none) meets a `buy_at` alert. */
export function buyAlertMet(buyMax: number, buyAt: number | null): boolean {
  return buyAt !== null && buyMax > 0 && buyMax >= buyAt;
}
