import { formatMoney, type Fen } from "@skinmarket/contract";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { unknownGoodsMessage } from "./find-goods.ts";

const DAY_MS = 86_400_000;

/** One point of a price history: the start of a UTC day (Unix seconds), that day's median and trades. */
export interface DailyMedian {
  day: number;
  median: Fen;
  trades: number;
}

/**
 * A goods' completed trades as one point per UTC day with trades, over the last `days` days
 * including today, at the start of the day (docs/design/website-goods-routes.md#the-websites-goods-pages); the price is the day's
 * median, the lower middle one for an even count, so every point is a price really paid, and
 * the day's count of trades. Days without trades have no point. Every price-history route answers from this one series.
 */
export async function readDailyMedians(
  ctx: DomainContext,
  input: { goodsId: number; days: number },
): Promise<Result<DailyMedian[]>> {
  const goods = await ctx.db
    .selectFrom("goods")
    .select("goods_id")
    .where("goods_id", "=", input.goodsId)
    .executeTakeFirst();
  if (!goods) return fail("Not Found", unknownGoodsMessage(input.goodsId));
  const today = Math.floor(ctx.clock.now().getTime() / DAY_MS) * DAY_MS;
  const since = new Date(today - (input.days - 1) * DAY_MS);
  const day = sql<string>`floor(extract(epoch FROM updated_at) / 86400)`;
  const rows = await ctx.db
    .selectFrom("trades")
    .select([
      day.as("day"),
      sql<string>`percentile_disc(0.5) WITHIN GROUP (ORDER BY price)`.as("median"),
      sql<string>`count(*)`.as("trades"),
    ])
    .where("goods_id", "=", input.goodsId)
    .where("state", "=", sql.lit("SUCCESS"))
    .where("updated_at", ">=", since)
    .groupBy(day)
    .orderBy(day)
    .execute();
  return ok(
    rows.map((row) => ({
      day: Number(row.day) * 86_400,
      median: Number(row.median),
      trades: Number(row.trades),
    })),
  );
}

/** A goods' price history as the website route `goods/price_history` answers it. */
export async function readPriceHistory(ctx: DomainContext, input: { goodsId: number; days: number }) {
  const medians = await readDailyMedians(ctx, input);
  if (!medians.ok) return medians;
  return ok({
    goods_id: input.goodsId,
    days: input.days,
    price_type: "median" as const,
    price_history: medians.value.map((point): [number, string] => [point.day, formatMoney(point.median)]),
  });
}
