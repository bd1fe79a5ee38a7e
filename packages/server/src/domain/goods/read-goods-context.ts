import { formatMoney, PAINTWEAR_RANK_IDS_MAX } from "@skinmarket/contract";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { publicBook } from "../market/public-book.ts";
import { fail, invalidArgument, ok } from "../result.ts";
import { findGoods, unknownGoodsMessage } from "./find-goods.ts";

/**
 * The goods page's price context (docs/design/website-goods-routes.md#price-context-on-the-goods-page):
 * the buy-order book summed by price, as Steam's market shows its order book, and the wear rank
 * of listings among the goods' listings on sale, as CSFloat shows a float's rank.
 */

/**
 * The public book (`goods/buy_order`'s orders) summed by price: the best `levels` prices, each with
 * the units still wanted and the orders wanting them; the totals cover every price. Orders with
 * conditions count at their price as well: they are bids a seller of a fitting item can fill.
 */
export async function readBuyOrderDepth(ctx: DomainContext, input: { goodsId: number; levels: number }) {
  const goods = await findGoods(ctx, input.goodsId);
  if (!goods) return fail("Not Found", unknownGoodsMessage(input.goodsId));
  const wanted = sql<number>`buy_orders.num - buy_orders.real_num - buy_orders.frozen_num`;
  const book = publicBook(ctx.db).where("buy_orders.goods_id", "=", input.goodsId);
  const [rows, totals] = await Promise.all([
    book
      .select([
        "buy_orders.price as price",
        sql<string>`sum(${wanted})`.as("num"),
        sql<string>`count(*)`.as("orders"),
      ])
      .groupBy("buy_orders.price")
      .orderBy("buy_orders.price", "desc")
      .limit(input.levels)
      .execute(),
    book
      .select([
        sql<string | null>`sum(${wanted})`.as("num"),
        sql<string>`count(DISTINCT buy_orders.price)`.as("levels"),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return ok({
    goods_id: goods.goods_id,
    levels: rows.map((row) => ({
      price: formatMoney(row.price),
      num: Number(row.num),
      orders: Number(row.orders),
    })),
    total_num: Number(totals.num ?? 0),
    total_levels: Number(totals.levels),
  });
}

const LISTING_IDS = /^[1-9]\d{0,14}(?:,[1-9]\d{0,14})*$/;

/**
 * Each named listing's wear rank among the goods' listings on sale that have a wear, lowest first:
 * one more than the listings of lower wear, so equal wears share a rank. Listings of another
 * goods, sold, or without wear are left out; a goods without wear ranks none.
 */
export async function readPaintwearRank(
  ctx: DomainContext,
  input: { goodsId: number; sellOrderIds: string },
) {
  if (!LISTING_IDS.test(input.sellOrderIds))
    return invalidArgument("sell_order_ids", "must be listing ids separated by commas, such as 1001,1002");
  const ids = [...new Set(input.sellOrderIds.split(",").map(Number))];
  if (ids.length > PAINTWEAR_RANK_IDS_MAX)
    return invalidArgument(
      "sell_order_ids",
      `at most ${PAINTWEAR_RANK_IDS_MAX} listings, ${ids.length} given`,
    );
  const goods = await findGoods(ctx, input.goodsId);
  if (!goods) return fail("Not Found", unknownGoodsMessage(input.goodsId));
  const onSale = ctx.db
    .selectFrom("listings")
    .where("listings.goods_id", "=", goods.goods_id)
    .where("listings.state", "=", sql.lit("ON_SALE"))
    .where("listings.paintwear", "is not", null);
  const [ranked, total] = await Promise.all([
    onSale
      .where("listings.listing_id", "in", ids)
      .select((eb) => [
        "listings.listing_id",
        eb
          .selectFrom("listings as lower")
          .where("lower.goods_id", "=", goods.goods_id)
          .where("lower.state", "=", sql.lit("ON_SALE"))
          .whereRef("lower.paintwear", "<", "listings.paintwear")
          .select((inner) => inner.fn.countAll<string>().as("count"))
          .as("lower"),
      ])
      .execute(),
    onSale.select((eb) => eb.fn.countAll<string>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return ok({
    goods_id: goods.goods_id,
    total_count: Number(total.count),
    ranks: Object.fromEntries(ranked.map((row) => [String(row.listing_id), Number(row.lower ?? 0) + 1])),
  });
}
