import type { Fen } from "@skinmarket/contract";
import { publicBook } from "./public-book.ts";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";

export interface GoodsPrices {
  /** Lowest tradable listing on sale; 0 while there is none. */
  sellMin: Fen;
  /** Best progressing buy order of an online buyer; 0 while there is none. */
  buyMax: Fen;
  /** Units still wanted by the progressing buy orders of online buyers. */
  buyOrderNum: number;
  /**
   * The goods' reference price on the platform's own market (Steam's lowest ask, as the game
   * platform answers it: docs/design/steam-face.md#market-prices); 0 while it has none, and 0
   * unless asked for (`platformPrice: true`): the order book's readers do without the platform.
   */
  platformPrice: Fen;
}

/**
 * Live market prices per goods, read from the listings on sale (pre-sell listings, still in trade
 * cooldown, do not set the lowest price) and the public buy-order book (orders of buyers who are
 * offline are hidden from it).
 */
export async function readGoodsPrices(
  ctx: DomainContext,
  goodsIds: readonly number[],
  options: { platformPrice?: boolean } = {},
): Promise<Map<number, GoodsPrices>> {
  const prices = new Map<number, GoodsPrices>(
    goodsIds.map((goodsId) => [goodsId, { sellMin: 0, buyMax: 0, buyOrderNum: 0, platformPrice: 0 }]),
  );
  if (goodsIds.length === 0) return prices;
  const now = ctx.clock.now();
  const [sells, buys, platformPrices] = await Promise.all([
    ctx.db
      .selectFrom("listings")
      .select(["goods_id", sql<number>`min(price)`.as("sell_min")])
      .where("goods_id", "in", [...goodsIds])
      .where("state", "=", sql.lit("ON_SALE"))
      .where((eb) => eb.or([eb("tradable_after", "is", null), eb("tradable_after", "<=", now)]))
      .groupBy("goods_id")
      .execute(),
    publicBook(ctx.db)
      .select([
        "buy_orders.goods_id",
        sql<number>`max(buy_orders.price)`.as("buy_max"),
        sql<number>`sum(buy_orders.num - buy_orders.real_num - buy_orders.frozen_num)`.as("wanted"),
      ])
      .where("buy_orders.goods_id", "in", [...goodsIds])
      .groupBy("buy_orders.goods_id")
      .execute(),
    options.platformPrice ? ctx.platform.marketPrices(ctx, { goodsIds }) : new Map<number, Fen>(),
  ]);
  for (const [goodsId, price] of platformPrices) {
    const entry = prices.get(goodsId);
    if (entry) entry.platformPrice = price;
  }
  for (const row of sells) {
    const entry = prices.get(row.goods_id)!;
    entry.sellMin = Number(row.sell_min);
  }
  for (const row of buys) {
    const entry = prices.get(row.goods_id)!;
    entry.buyMax = Number(row.buy_max);
    entry.buyOrderNum = Number(row.wanted);
  }
  return prices;
}
