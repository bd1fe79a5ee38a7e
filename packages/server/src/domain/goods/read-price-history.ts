import { formatMoney } from "@skinmarket/contract";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { fail, ok } from "../result.ts";
import { unknownGoodsMessage } from "./find-goods.ts";

const DAY_MS = 86_400_000;

/**
 * A goods' price history (website route `goods/price_history`, docs/design.md section 8): one
 * point per UTC day with completed trades, over the last `days` days including today, at the
 * start of the day; the price is the day's median, the lower middle one for an even count, so
 * every point is a price really paid. Days without trades have no point.
 */
export async function readPriceHistory(ctx: DomainContext, input: { goodsId: number; days: number }) {
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
    .select([day.as("day"), sql<string>`percentile_disc(0.5) WITHIN GROUP (ORDER BY price)`.as("median")])
    .where("goods_id", "=", input.goodsId)
    .where("state", "=", sql.lit("SUCCESS"))
    .where("updated_at", ">=", since)
    .groupBy(day)
    .orderBy(day)
    .execute();
  return ok({
    goods_id: input.goodsId,
    days: input.days,
    price_type: "median" as const,
    price_history: rows.map((row): [number, string] => [
      Number(row.day) * 86_400,
      formatMoney(Number(row.median)),
    ]),
  });
}
