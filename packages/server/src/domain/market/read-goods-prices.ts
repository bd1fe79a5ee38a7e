import type { Fen } from "@skinmarket/contract";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";

export interface GoodsPrices {
  /** Lowest tradable listing on sale; 0 while there is none. */
  sellMin: Fen;
  /** Best progressing buy order; 0 while there is none. */
  buyMax: Fen;
  /** The marketplace's reference price for the goods: its lowest tradable listing. */
  platformPrice: Fen;
}

/**
 * Live market prices per goods, read from the listings on sale (pre-sell listings, still in trade
 * cooldown, do not set the lowest price). Buy orders arrive with their own feature; until then no
 * goods has a buy price.
 */
export async function readGoodsPrices(
  ctx: DomainContext,
  goodsIds: readonly number[],
): Promise<Map<number, GoodsPrices>> {
  const prices = new Map<number, GoodsPrices>(
    goodsIds.map((goodsId) => [goodsId, { sellMin: 0, buyMax: 0, platformPrice: 0 }]),
  );
  if (goodsIds.length === 0) return prices;
  const now = ctx.clock.now();
  const rows = await ctx.db
    .selectFrom("listings")
    .select(["goods_id", sql<number>`min(price)`.as("sell_min")])
    .where("goods_id", "in", [...goodsIds])
    .where("state", "=", "ON_SALE")
    .where((eb) => eb.or([eb("tradable_after", "is", null), eb("tradable_after", "<=", now)]))
    .groupBy("goods_id")
    .execute();
  for (const row of rows)
    prices.set(row.goods_id, {
      sellMin: Number(row.sell_min),
      buyMax: 0,
      platformPrice: Number(row.sell_min),
    });
  return prices;
}
