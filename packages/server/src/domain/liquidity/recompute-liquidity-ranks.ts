import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange, noteRanksChanged } from "../transaction.ts";

/** The window of trades a rank counts: the last 30 days on the marketplace clock. */
export const LIQUIDITY_WINDOW_MS = 30 * 86_400_000;
/** Ranks are recomputed once a day (and on demand from the sandbox). */
export const LIQUIDITY_REFRESH_MS = 86_400_000;
/** Shared by the daily job and the sandbox's recomputation: one computation at a time. */
export const LIQUIDITY_LOCK_KEY = 730_110;

export interface LiquidityComputation {
  computedAt: Date;
  /** Goods with at least one completed trade in the window (the others rank 0). */
  rankedGoods: number;
}

/**
 * Recomputes every goods' liquidity rank (docs/design/market-data.md#market-data): among all goods of the
 * catalog, the percentile of its traded amount (weight 0.7) and of its traded quantity (0.3) over
 * the completed trades (`SUCCESS`, by the time they completed) of the last 30 days. A percentile
 * is the share of the other goods that traded strictly less (`percent_rank`), so the most traded
 * goods ranks 100 % and a goods without trades 0 %. The score is kept in hundredths of a percent,
 * rounded half up in integer arithmetic, so that anyone recomputing it gets the same digits.
 */
export async function recomputeLiquidityRanks(ctx: DomainContext): Promise<Result<LiquidityComputation>> {
  return inTransaction(ctx, async (tx) => {
    // Ranks only: the snapshots read the ranks table again, not the market (docs/design/market-snapshots.md#market-snapshots).
    noteRanksChanged(tx);
    await sql`SELECT pg_advisory_xact_lock(${LIQUIDITY_LOCK_KEY})`.execute(tx.db);
    const computedAt = tx.clock.now();
    const since = new Date(computedAt.getTime() - LIQUIDITY_WINDOW_MS);
    await tx.db.deleteFrom("liquidity_ranks").execute();
    const inserted = await sql`
      WITH traded AS (
        SELECT goods_id, sum(price) AS amount, count(*) AS quantity
        FROM trades
        WHERE state = 'SUCCESS' AND updated_at > ${since} AND updated_at <= ${computedAt}
        GROUP BY goods_id
      ), ranked AS (
        SELECT goods.goods_id, traded.amount, traded.quantity,
          rank() OVER (ORDER BY coalesce(traded.amount, 0)) - 1 AS below_by_amount,
          rank() OVER (ORDER BY coalesce(traded.quantity, 0)) - 1 AS below_by_quantity,
          greatest(count(*) OVER () - 1, 1) AS others
        FROM goods LEFT JOIN traded ON traded.goods_id = goods.goods_id
      )
      INSERT INTO liquidity_ranks (goods_id, rank_hundredths, traded_amount, traded_quantity)
      SELECT goods_id,
        (2 * (7000 * below_by_amount + 3000 * below_by_quantity) + others) / (2 * others),
        amount, quantity
      FROM ranked WHERE amount IS NOT NULL
    `.execute(tx.db);
    await tx.db
      .insertInto("liquidity_rank_state")
      .values({ id: 1, computed_at: computedAt })
      .onConflict((conflict) => conflict.column("id").doUpdateSet({ computed_at: computedAt }))
      .execute();
    return ok({ computedAt, rankedGoods: Number(inserted.numAffectedRows ?? 0) });
  });
}

/**
 * The daily job: recomputes the ranks when the last computation is a day old (or there was none),
 * by the marketplace clock; answers how many goods it ranked (0 when nothing was due).
 */
export async function refreshLiquidityRanks(ctx: DomainContext): Promise<number> {
  const state = await ctx.db.selectFrom("liquidity_rank_state").select("computed_at").executeTakeFirst();
  if (state && ctx.clock.now().getTime() - state.computed_at.getTime() < LIQUIDITY_REFRESH_MS) {
    // Not due: nothing written, so the market's snapshots have nothing to read again.
    noteNoMarketChange(ctx);
    return 0;
  }
  const computed = await recomputeLiquidityRanks(ctx);
  return computed.ok ? computed.value.rankedGoods : 0;
}

/** A rank in hundredths of a percent as the reference writes it: `"87.52%"`. */
export function formatLiquidityRank(hundredths: number): string {
  return `${(hundredths / 100).toFixed(2)}%`;
}
