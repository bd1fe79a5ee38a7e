import { formatMoney, type BookmarkPriceAlertFired } from "@skinmarket/contract";
import { sql } from "kysely";
import type { Static } from "typebox";
import type { DomainContext } from "../context.ts";
import { toBookmarkAlert, type BookmarkAlertRow } from "./bookmark-alert-record.ts";

/** A goods' public prices as the sequencer's round announces them (0: no listing, no bid). */
export interface AnnouncedPrice {
  goods_id: number;
  sell_min: number;
  buy_max: number;
}

/** A `bookmark.price_alert` owed to `user_id`. */
export interface FiredBookmarkAlert {
  user_id: number;
  goods_id: number;
  data: Static<typeof BookmarkPriceAlertFired>;
}

type AlertRow = BookmarkAlertRow & {
  user_id: number;
  sell_was: boolean;
  buy_was: boolean;
  sell_min: number | string;
  buy_max: number | string;
};

/**
 * The price alerts `prices` cross (docs/design/events.md#price-alerts-on-bookmarks), called by the
 * sequencer's round with the goods whose announced price moved, in the round's transaction. One
 * statement (a round is as few as it can be) reads each alert of those goods under a row lock,
 * as it is then, and writes whether each side's condition now holds: a side that held not and
 * now holds fires; one that held and no longer does is armed again. The flags and the events
 * commit together with the price event, so one crossing fires once, whatever runs again.
 */
export async function fireBookmarkAlerts(
  ctx: DomainContext,
  prices: readonly AnnouncedPrice[],
): Promise<FiredBookmarkAlert[]> {
  if (prices.length === 0) return [];
  const now = ctx.clock.now();
  const sellFires = sql`(old.sell_met AND NOT old.sell_was)`;
  const buyFires = sql`(old.buy_met AND NOT old.buy_was)`;
  // No listing (0), or no bid, is the price back on the other side: the next one is a new chance.
  const changed = await sql<AlertRow>`
    WITH announced AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(prices)}::jsonb)
        AS p(goods_id integer, sell_min bigint, buy_max bigint)
    ), old AS (
      SELECT b.user_id, b.target_id, b.alert_sell_reached AS sell_was, b.alert_buy_reached AS buy_was,
        COALESCE(p.sell_min > 0 AND p.sell_min <= b.alert_sell_at, false) AS sell_met,
        COALESCE(p.buy_max > 0 AND p.buy_max >= b.alert_buy_at, false) AS buy_met,
        p.sell_min, p.buy_max
      FROM bookmarks b JOIN announced p ON b.target_type = 'goods' AND b.target_id = p.goods_id
      WHERE b.alert_sell_at IS NOT NULL OR b.alert_buy_at IS NOT NULL
      FOR UPDATE OF b
    )
    UPDATE bookmarks b SET
      alert_sell_reached = old.sell_met,
      alert_buy_reached = old.buy_met,
      alert_fired_at = CASE WHEN ${sellFires} OR ${buyFires} THEN ${now} ELSE b.alert_fired_at END,
      alert_fired_price = CASE WHEN ${buyFires} THEN old.buy_max WHEN ${sellFires} THEN old.sell_min
        ELSE b.alert_fired_price END
    FROM old
    WHERE b.user_id = old.user_id AND b.target_type = 'goods' AND b.target_id = old.target_id
      AND (old.sell_met <> old.sell_was OR old.buy_met <> old.buy_was)
    RETURNING b.user_id, b.target_id, b.alert_sell_at, b.alert_buy_at, b.alert_sell_reached,
      b.alert_buy_reached, b.alert_fired_at, b.alert_fired_price, old.sell_was, old.buy_was,
      old.sell_min, old.buy_max`.execute(ctx.db);
  const fired = changed.rows.flatMap((row) => [
    ...(row.alert_sell_reached && !row.sell_was
      ? [{ row, crossed: "sell" as const, price: row.sell_min }]
      : []),
    ...(row.alert_buy_reached && !row.buy_was ? [{ row, crossed: "buy" as const, price: row.buy_max }] : []),
  ]);
  if (fired.length === 0) return [];
  const names = await ctx.db
    .selectFrom("goods")
    .select(["goods_id", "market_hash_name", "name"])
    .where("goods_id", "in", [...new Set(fired.map(({ row }) => Number(row.target_id)))])
    .execute();
  const goodsById = new Map(names.map((goods) => [goods.goods_id, goods]));
  // In goods order, then user, then side: the same round gives the same events in the same order.
  return fired
    .map(({ row, crossed, price }) => ({
      user_id: Number(row.user_id),
      goods_id: Number(row.target_id),
      data: {
        crossed,
        price: formatMoney(Number(price)),
        alert: toBookmarkAlert(row, goodsById.get(Number(row.target_id))!),
      },
    }))
    .sort(
      (a, b) =>
        a.goods_id - b.goods_id ||
        a.user_id - b.user_id ||
        Number(a.data.crossed === "buy") - Number(b.data.crossed === "buy"),
    );
}
