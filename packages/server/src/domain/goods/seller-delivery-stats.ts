import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { DELIVERY_WINDOW_MS } from "../market/delivery-window.ts";

/** How far back a seller's record counts: the sales of the last 7 days (marketplace clock). */
export const DELIVERY_RECORD_MS = 7 * 86_400_000;

/**
 * Failures that were the seller's to prevent: no offer in time, the buyer giving up after waiting
 * for one, or the seller withdrawing the offer. A declined or expired offer is the buyer's doing,
 * and a failed card payment happened before the seller had anything to deliver.
 */
export const SELLER_FAILURES = ["seller_timeout", "buyer_cancel", "offer_cancelled"] as const;

export interface SellerDeliveryStats {
  /** Mean whole seconds from when the seller could deliver to the buyer's acceptance. */
  averageSeconds: number;
  /** Delivered sales over delivered and seller-failed sales, rounded to 4 decimals. */
  deliverRate: number;
}

/**
 * The delivery record of each seller (`recent_average_duration`, `recent_deliver_rate`), from their
 * finished sales made in the last 7 days. A seller could deliver from the sale on, or, for an item
 * sold in trade cooldown, from the cooldown's end (the start of its delivery window). Sellers
 * without a finished sale in the window are absent from the answer.
 */
export async function sellerDeliveryStats(
  ctx: DomainContext,
  sellerIds: number[],
): Promise<Map<number, SellerDeliveryStats>> {
  const stats = new Map<number, SellerDeliveryStats>();
  if (sellerIds.length === 0) return stats;
  const since = new Date(ctx.clock.now().getTime() - DELIVERY_RECORD_MS);
  const failures = sql.join(SELLER_FAILURES.map((reason) => sql.lit(reason)));
  const rows = await sql<{ seller_id: number; delivered: string; failed: string; seconds: string | null }>`
    SELECT seller_id,
      count(*) FILTER (WHERE state = 'SUCCESS') AS delivered,
      count(*) FILTER (WHERE state = 'FAIL' AND rollback_by IN (${failures})) AS failed,
      avg(extract(epoch FROM updated_at - coalesce(deliver_by - ${`${DELIVERY_WINDOW_MS} milliseconds`}::interval, created_at)))
        FILTER (WHERE state = 'SUCCESS') AS seconds
    FROM trades
    WHERE seller_id IN (${sql.join(sellerIds)}) AND created_at >= ${since} AND state IN ('SUCCESS', 'FAIL')
    GROUP BY seller_id
  `.execute(ctx.db);
  for (const row of rows.rows) {
    const delivered = Number(row.delivered);
    const owed = delivered + Number(row.failed);
    if (owed === 0) continue;
    stats.set(row.seller_id, {
      averageSeconds: delivered === 0 ? 0 : Math.round(Number(row.seconds)),
      deliverRate: Math.round((delivered / owed) * 10_000) / 10_000,
    });
  }
  return stats;
}
