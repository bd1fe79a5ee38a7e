import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import type { GoodsChoice } from "./market-figures.ts";

/** What a price snapshot's build and updates read beside the market figures: ranks and cooldowns. */

/** The liquidity ranks (hundredths of a percent) of the goods traded in the last 30 days. */
export async function readLiquidityRanks(ctx: DomainContext): Promise<Map<number, number>> {
  const ranks = await ctx.db
    .selectFrom("liquidity_ranks")
    .select(["goods_id", "rank_hundredths"])
    .orderBy("goods_id")
    .execute();
  return new Map(ranks.map((row) => [row.goods_id, row.rank_hundredths]));
}

/**
 * The first end of a listing's trade cooldown after `after`, among the goods named or the whole
 * market (`listings_cooldown_end_idx`, which holds only listings with a cooldown end).
 */
export async function nextCooldownEnd(
  ctx: DomainContext,
  after: Date,
  goods?: GoodsChoice,
): Promise<Date | null> {
  let query = ctx.db
    .selectFrom("listings")
    .select((eb) => eb.fn.min("tradable_after").as("next"))
    .where("state", "=", sql.lit("ON_SALE"))
    .where("tradable_after", ">", after);
  if (goods && "goodsIds" in goods)
    query = query.where("goods_id", "in", goods.goodsIds.length > 0 ? goods.goodsIds : [-1]);
  if (goods && "goodsRange" in goods)
    query = query.where("goods_id", ">=", goods.goodsRange.from).where("goods_id", "<=", goods.goodsRange.to);
  return (await query.executeTakeFirst())?.next ?? null;
}

/**
 * The goods with a listing whose trade cooldown ended from `from` to `to` (its pre-sell price
 * turned tradable): however many, the update reads them in slices (a jump of the sandbox clock may
 * end most cooldowns at once).
 */
export async function goodsOutOfCooldown(ctx: DomainContext, from: Date, to: Date): Promise<number[]> {
  const rows = await ctx.db
    .selectFrom("listings")
    .select("goods_id")
    .distinct()
    .where("state", "=", sql.lit("ON_SALE"))
    .where("tradable_after", ">=", from)
    .where("tradable_after", "<=", to)
    .execute();
  return rows.map((row) => row.goods_id);
}

/** `liquidity` with the ranks of `goodsIds` read from the database now (its primary key). */
export async function readGoodsRanks(
  ctx: DomainContext,
  liquidity: ReadonlyMap<number, number>,
  goodsIds: readonly number[],
): Promise<Map<number, number>> {
  const rows = await ctx.db
    .selectFrom("liquidity_ranks")
    .select(["goods_id", "rank_hundredths"])
    .where("goods_id", "in", goodsIds)
    .execute();
  const read = new Map<number, number>(liquidity);
  for (const goodsId of goodsIds) read.delete(goodsId);
  for (const row of rows) read.set(row.goods_id, row.rank_hundredths);
  return read;
}
