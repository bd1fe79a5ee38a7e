import { formatMoney } from "@skinmarket/contract";
import { sql } from "kysely";
import { publicBook } from "../market/public-book.ts";
import { phasePaintIndex, phaseTagsOf } from "../catalog/phases.ts";
import type { DomainContext } from "../context.ts";
import type { FilterGoods } from "./goods-filters.ts";

/**
 * The phases a buyer may name in a buy order's `specific` (goods details `goods_info.specific`),
 * each with its own market: the lowest tradable listing of that phase and the best buy order of
 * the public book that names it. Empty for goods without phases.
 */
export async function phaseSpecificChoices(ctx: DomainContext, goods: FilterGoods & { goods_id: number }) {
  const phases = phaseTagsOf(goods);
  if (phases.length === 0) return [];
  const now = ctx.clock.now();
  const [listings, orders] = await Promise.all([
    ctx.db
      .selectFrom("listings")
      .select(["paintindex", sql<string>`min(price)`.as("sell_min")])
      .where("goods_id", "=", goods.goods_id)
      .where("state", "=", sql.lit("ON_SALE"))
      .where((eb) => eb.or([eb("tradable_after", "is", null), eb("tradable_after", "<=", now)]))
      .groupBy("paintindex")
      .execute(),
    publicBook(ctx.db)
      .select(["buy_orders.price", "buy_orders.specific"])
      .where("buy_orders.goods_id", "=", goods.goods_id)
      .execute(),
  ]);
  const sellMin = new Map(listings.map((row) => [row.paintindex, Number(row.sell_min)]));
  return [
    {
      items: phases.map((tag) => {
        const buyMax = Math.max(
          0,
          ...orders
            .filter((order) =>
              order.specific.some(
                (entry) => entry.type === "phase" && entry.values.includes(tag.internal_name),
              ),
            )
            .map((order) => order.price),
        );
        return {
          buy_max_price: formatMoney(buyMax),
          name: tag.localized_name,
          sell_min_price: formatMoney(sellMin.get(phasePaintIndex(goods, tag.internal_name)) ?? 0),
          value: tag.id,
        };
      }),
      limit: phases.length,
      name: "款式",
      specific_type: "phase",
      type: "tag_ids",
    },
  ];
}
