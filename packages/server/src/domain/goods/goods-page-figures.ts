import type { Fen } from "@skinmarket/contract";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { readGoodsPrices } from "../market/read-goods-prices.ts";

/** Trades completed within this window count as "recently sold" (docs/design/website-goods-routes.md#the-websites-goods-pages). */
export const RECENT_SOLD_DAYS = 7;

/** One goods' live market, as its pages show it; amounts in fen, 0 where there is none. */
export interface MarketFigures {
  /** Lowest tradable listing on sale. */
  sellMin: Fen;
  /** Tradable listings on sale. */
  sellNum: number;
  /** Lowest listing still in trade cooldown, and how many there are. */
  preSellMin: Fen;
  preSellNum: number;
  /** Lowest listing on sale, tradable or not. */
  marketMin: Fen;
  /** Best buy order of the public book, and the units the book still wants. */
  buyMax: Fen;
  buyNum: number;
  /** Completed trades, all time and in the last `RECENT_SOLD_DAYS` days. */
  transactedNum: number;
  recentSoldCount: number;
  /** The price of the latest completed trade. */
  lastTradePrice: Fen;
  /** The goods' reference price on the platform's market (`readGoodsPrices`). */
  platformPrice: Fen;
  /** Some listing on sale takes offers. */
  canBargain: boolean;
}

/**
 * The figures of a few goods (one page), each from its own indexed reads: listings on sale
 * (`listings_market_idx`), the public buy-order book (through `readGoodsPrices`) and completed
 * trades (`trades_goods_completed_idx`).
 */
export async function readMarketFigures(
  ctx: DomainContext,
  goodsIds: readonly number[],
): Promise<Map<number, MarketFigures>> {
  const figures = new Map<number, MarketFigures>();
  if (goodsIds.length === 0) return figures;
  const ids = [...new Set(goodsIds)];
  const now = ctx.clock.now();
  const recentSince = new Date(now.getTime() - RECENT_SOLD_DAYS * 86_400_000);
  const [prices, listings, trades, lastTrades] = await Promise.all([
    readGoodsPrices(ctx, ids, { platformPrice: true }),
    ctx.db
      .selectFrom("listings")
      .select([
        "goods_id",
        sql<string>`count(*) FILTER (WHERE tradable_after IS NULL OR tradable_after <= ${now})`.as(
          "sell_num",
        ),
        sql<string | null>`min(price) FILTER (WHERE tradable_after > ${now})`.as("pre_sell_min"),
        sql<string>`count(*) FILTER (WHERE tradable_after > ${now})`.as("pre_sell_num"),
        sql<string>`min(price)`.as("market_min"),
        sql<boolean>`bool_or(allow_bargain)`.as("can_bargain"),
      ])
      .where("goods_id", "in", ids)
      .where("state", "=", sql.lit("ON_SALE"))
      .groupBy("goods_id")
      .execute(),
    ctx.db
      .selectFrom("trades")
      .select([
        "goods_id",
        sql<string>`count(*)`.as("transacted"),
        sql<string>`count(*) FILTER (WHERE updated_at >= ${recentSince})`.as("recent"),
      ])
      .where("goods_id", "in", ids)
      .where("state", "=", sql.lit("SUCCESS"))
      .groupBy("goods_id")
      .execute(),
    ctx.db
      .selectFrom("trades")
      .distinctOn("goods_id")
      .select(["goods_id", "price"])
      .where("goods_id", "in", ids)
      .where("state", "=", sql.lit("SUCCESS"))
      .orderBy("goods_id")
      .orderBy("updated_at", "desc")
      .orderBy("trade_id", "desc")
      .execute(),
  ]);
  for (const id of ids) {
    const price = prices.get(id)!;
    figures.set(id, {
      sellMin: price.sellMin,
      platformPrice: price.platformPrice,
      sellNum: 0,
      preSellMin: 0,
      preSellNum: 0,
      marketMin: 0,
      buyMax: price.buyMax,
      buyNum: price.buyOrderNum,
      transactedNum: 0,
      recentSoldCount: 0,
      lastTradePrice: 0,
      canBargain: false,
    });
  }
  for (const row of listings) {
    const entry = figures.get(row.goods_id)!;
    entry.sellNum = Number(row.sell_num);
    entry.preSellMin = Number(row.pre_sell_min ?? 0);
    entry.preSellNum = Number(row.pre_sell_num);
    entry.marketMin = Number(row.market_min);
    entry.canBargain = row.can_bargain;
  }
  for (const row of trades) {
    const entry = figures.get(row.goods_id)!;
    entry.transactedNum = Number(row.transacted);
    entry.recentSoldCount = Number(row.recent);
  }
  for (const row of lastTrades) figures.get(row.goods_id)!.lastTradePrice = Number(row.price);
  return figures;
}
