import { INT32_MAX, parseMoney } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { readGoodsPrices } from "../market/read-goods-prices.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import {
  buyAlertMet,
  sellAlertMet,
  toBookmarkAlert,
  type BookmarkAlertRecord,
} from "./bookmark-alert-record.ts";

export interface BookmarkAlertInput {
  /** The bookmarked goods. */
  id: string;
  /** Yuan, as the wire gives it; left out or null: no alert of that kind. */
  sell_at?: unknown;
  buy_at?: unknown;
}

function alertPrice(field: "sell_at" | "buy_at", value: unknown): Result<number | null> {
  if (value === undefined || value === null) return ok(null);
  const parsed = parseMoney(value, { allowZero: false });
  return parsed.ok ? ok(parsed.fen) : invalidArgument(field, parsed.reason);
}

/**
 * Sets (or, with both prices null, clears) the price alert of one of the signed-in user's
 * bookmarked goods (docs/design/events.md#price-alerts-on-bookmarks). The alert is armed against
 * the market as it is now: a condition that already holds is `reached` and fires at the next
 * crossing, once the price has moved back, so setting an alert never fires it. Another user's
 * bookmark, or goods not bookmarked, is `Not Found` alike.
 */
export async function setBookmarkAlert(
  ctx: DomainContext,
  input: BookmarkAlertInput,
): Promise<Result<{ alert: BookmarkAlertRecord }>> {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const sellAt = alertPrice("sell_at", input.sell_at);
  if (!sellAt.ok) return sellAt;
  const buyAt = alertPrice("buy_at", input.buy_at);
  if (!buyAt.ok) return buyAt;
  const goodsId = Number(input.id);
  const notBookmarked = fail("Not Found", `id: goods ${input.id} is not among your bookmarks`);
  // Goods ids are the catalog's `integer` key: a larger id names no goods.
  if (goodsId > INT32_MAX) return notBookmarked;
  const prices = (await readGoodsPrices(ctx, [goodsId])).get(goodsId)!;
  const row = await ctx.db
    .updateTable("bookmarks")
    .set({
      alert_sell_at: sellAt.value,
      alert_buy_at: buyAt.value,
      alert_sell_reached: sellAlertMet(prices.sellMin, sellAt.value),
      alert_buy_reached: buyAlertMet(prices.buyMax, buyAt.value),
    })
    .where("user_id", "=", ctx.actor.userId)
    .where("target_type", "=", "goods")
    .where("target_id", "=", goodsId)
    .returningAll()
    .executeTakeFirst();
  if (!row) return notBookmarked;
  const goods = await ctx.db
    .selectFrom("goods")
    .select(["market_hash_name", "name"])
    .where("goods_id", "=", goodsId)
    .executeTakeFirstOrThrow();
  return ok({ alert: toBookmarkAlert(row, goods) });
}
