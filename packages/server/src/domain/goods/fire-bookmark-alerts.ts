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

type FiredRow = BookmarkAlertRow & { user_id: number; crossed: "sell" | "buy"; price: number | string };

/**
 * The price alerts `prices` cross (docs/design/events.md#price-alerts-on-bookmarks), called by the
 * sequencer's round with the goods whose announced price moved, in the round's transaction. Each
 * side is a conditional update: an armed alert whose condition now holds is marked `reached` and
 * returned (it fires); a reached one whose condition no longer holds is armed again. The flag and
 * the event commit together with the price event, so one crossing fires once, whatever runs again.
 */
export async function fireBookmarkAlerts(
  ctx: DomainContext,
  prices: readonly AnnouncedPrice[],
): Promise<FiredBookmarkAlert[]> {
  if (prices.length === 0) return [];
  const now = ctx.clock.now();
  const announced = sql`jsonb_to_recordset(${JSON.stringify(prices)}::jsonb)
    AS p(goods_id integer, sell_min bigint, buy_max bigint)`;
  const alerting = sql`b.target_type = 'goods' AND b.target_id = p.goods_id`;
  const returning = sql`b.user_id, b.target_id, b.alert_sell_at, b.alert_buy_at, b.alert_sell_reached,
    b.alert_buy_reached, b.alert_fired_at, b.alert_fired_price`;
  const sellFired = await sql<FiredRow>`
    UPDATE bookmarks b SET alert_sell_reached = true, alert_fired_at = ${now}, alert_fired_price = p.sell_min
    FROM ${announced}
    WHERE ${alerting} AND b.alert_sell_at IS NOT NULL AND NOT b.alert_sell_reached
      AND p.sell_min > 0 AND p.sell_min <= b.alert_sell_at
    RETURNING ${returning}, 'sell' AS crossed, p.sell_min AS price`.execute(ctx.db);
  const buyFired = await sql<FiredRow>`
    UPDATE bookmarks b SET alert_buy_reached = true, alert_fired_at = ${now}, alert_fired_price = p.buy_max
    FROM ${announced}
    WHERE ${alerting} AND b.alert_buy_at IS NOT NULL AND NOT b.alert_buy_reached
      AND p.buy_max > 0 AND p.buy_max >= b.alert_buy_at
    RETURNING ${returning}, 'buy' AS crossed, p.buy_max AS price`.execute(ctx.db);
  // Re-armed when the price is back on the other side (no listing, or no bid, counts as back).
  await sql`
    UPDATE bookmarks b SET
      alert_sell_reached = alert_sell_reached AND COALESCE(p.sell_min > 0 AND p.sell_min <= b.alert_sell_at, false),
      alert_buy_reached = alert_buy_reached AND COALESCE(p.buy_max > 0 AND p.buy_max >= b.alert_buy_at, false)
    FROM ${announced}
    WHERE ${alerting} AND (
      (b.alert_sell_reached AND (p.sell_min = 0 OR p.sell_min > b.alert_sell_at OR b.alert_sell_at IS NULL))
      OR (b.alert_buy_reached AND (p.buy_max = 0 OR p.buy_max < b.alert_buy_at OR b.alert_buy_at IS NULL)))`.execute(
    ctx.db,
  );
  const fired = [...sellFired.rows, ...buyFired.rows];
  if (fired.length === 0) return [];
  const names = await ctx.db
    .selectFrom("goods")
    .select(["goods_id", "market_hash_name", "name"])
    .where("goods_id", "in", [...new Set(fired.map((row) => Number(row.target_id)))])
    .execute();
  const goodsById = new Map(names.map((goods) => [goods.goods_id, goods]));
  // In goods order, then user, then side: the same round gives the same events in the same order.
  return fired
    .map((row) => ({
      user_id: Number(row.user_id),
      goods_id: Number(row.target_id),
      data: {
        crossed: row.crossed,
        price: formatMoney(Number(row.price)),
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
