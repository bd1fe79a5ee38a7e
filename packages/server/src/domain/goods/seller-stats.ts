import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { sellerDeliveryStats } from "../listings/seller-delivery-stats.ts";

export interface SellerStats {
  /** Mean seconds from when the seller could deliver to delivery; 0 without a recent sale. */
  averageDuration: number;
  /** Delivered share of the sales the seller owed (0 to 1); 0 without a recent sale. */
  deliverRate: number;
  /** The seller has listings of other goods on sale: a shop worth opening. */
  hasOtherListings: boolean;
}

/**
 * What a listings page shows of its sellers: the delivery record the enterprise listing records
 * carry (`sellerDeliveryStats`), and whether each has a shop beyond this goods.
 */
export async function readSellerStats(
  ctx: DomainContext,
  sellerIds: readonly number[],
  goodsId: number,
): Promise<Map<number, SellerStats>> {
  const ids = [...new Set(sellerIds)];
  const stats = new Map<number, SellerStats>();
  if (ids.length === 0) return stats;
  const [delivery, shops] = await Promise.all([
    sellerDeliveryStats(ctx, ids),
    ctx.db
      .selectFrom("listings")
      .select("user_id")
      .distinct()
      .where("user_id", "in", ids)
      .where("state", "=", sql.lit("ON_SALE"))
      .where("goods_id", "<>", goodsId)
      .execute(),
  ]);
  const withShops = new Set(shops.map((row) => row.user_id));
  for (const id of ids) {
    const record = delivery.get(id);
    stats.set(id, {
      averageDuration: record?.averageSeconds ?? 0,
      deliverRate: record?.deliverRate ?? 0,
      hasOtherListings: withShops.has(id),
    });
  }
  return stats;
}
