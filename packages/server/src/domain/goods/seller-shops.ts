import { sql } from "kysely";
import type { DomainContext } from "../context.ts";

/**
 * Of the sellers of a goods' listings page, those with listings of other goods on sale: a shop
 * worth opening (the website's `has_market_stores`).
 */
export async function readSellersWithShops(
  ctx: DomainContext,
  sellerIds: readonly number[],
  goodsId: number,
): Promise<Set<number>> {
  const ids = [...new Set(sellerIds)];
  if (ids.length === 0) return new Set();
  const shops = await ctx.db
    .selectFrom("listings")
    .select("user_id")
    .distinct()
    .where("user_id", "in", ids)
    .where("state", "=", sql.lit("ON_SALE"))
    .where("goods_id", "<>", goodsId)
    .execute();
  return new Set(shops.map((row) => row.user_id));
}
