import { formatMoney } from "@skinmarket/contract";
import { toUnixSeconds } from "../clock.ts";
import { formatLiquidityRank } from "../liquidity/recompute-liquidity-ranks.ts";
import type { Figures, IntervalFigures, VariantFigures } from "./market-figures.ts";
import type { PriceEntry } from "./price-snapshot.ts";

/**
 * A snapshot entry as each price operation answers it (reference: "Market price entry"). Pure
 * functions of the entry and the snapshot's time, so that an answer can be serialized once for
 * everyone.
 */

function head(entry: PriceEntry, statTime: Date) {
  return {
    goods_id: entry.goods_id,
    market_hash_name: entry.market_hash_name,
    name: entry.name,
    update_time: toUnixSeconds(statTime),
  };
}

/** Which part a sales entry describes: nothing for the whole goods, an interval, or a variant. */
function partOf(part: Figures | IntervalFigures | VariantFigures) {
  if ("minFloat" in part) return { min_float: part.minFloat, max_float: part.maxFloat };
  if ("tagId" in part) return { tag_id: part.tagId, tag_name: part.tagName };
  return {};
}

/** The whole goods, then its paint-wear intervals, then its variants. */
function parts(entry: PriceEntry): Array<Figures | IntervalFigures | VariantFigures> {
  return [entry.whole, ...entry.intervals, ...entry.variants];
}

/** GET /api/market/items. */
export function toItemPrice(entry: PriceEntry, statTime: Date) {
  return {
    ...head(entry, statTime),
    sales: [
      {
        min_price: formatMoney(entry.whole.minPrice),
        pre_sell_min_price: formatMoney(entry.whole.preSellMinPrice),
      },
    ],
  };
}

/** POST /api/market/float/items: the liquidity rank rides on the whole goods' entry. */
export function toFloatItem(entry: PriceEntry, statTime: Date) {
  return {
    ...head(entry, statTime),
    sales: parts(entry).map((part) => ({
      min_price: formatMoney(part.minPrice),
      pre_sell_min_price: formatMoney(part.preSellMinPrice),
      sell_num: part.sellNum,
      pre_sell_num: part.preSellNum,
      ...(part === entry.whole ? { liquidity_rank: formatLiquidityRank(entry.liquidityRank) } : {}),
      ...partOf(part),
    })),
  };
}

/** GET /api/market/enterprise/items. */
export function toEnterpriseItem(entry: PriceEntry, statTime: Date) {
  return {
    ...head(entry, statTime),
    sales: [
      {
        min_price: formatMoney(entry.whole.minPrice),
        pre_sell_min_price: formatMoney(entry.whole.preSellMinPrice),
        buy_max_price: formatMoney(entry.whole.buyMaxPrice),
      },
    ],
  };
}

/** GET /api/market/enterprise/float/items. */
export function toEnterpriseFloatItem(entry: PriceEntry, statTime: Date) {
  return {
    ...head(entry, statTime),
    sales: parts(entry).map((part) => ({
      min_price: formatMoney(part.minPrice),
      pre_sell_min_price: formatMoney(part.preSellMinPrice),
      avg_min_price: formatMoney(part.avgMinPrice),
      buy_max_price: formatMoney(part.buyMaxPrice),
      sell_num: part.sellNum,
      pre_sell_num: part.preSellNum,
      buy_order_num: part.buyOrderNum,
      ...partOf(part),
    })),
  };
}

/** The variant tag of a liquidity rank that covers the whole goods (ranks are per goods). */
export const WHOLE_GOODS_TAG = { tag_id: 0, tag_name: "全部" } as const;

/** GET /api/market/enterprise/items/liquidity_rank (the reference's entry has no `name`). */
export function toLiquidityRank(entry: PriceEntry, statTime: Date) {
  return {
    goods_id: entry.goods_id,
    market_hash_name: entry.market_hash_name,
    update_time: toUnixSeconds(statTime),
    sales: [{ liquidity_rank: formatLiquidityRank(entry.liquidityRank), ...WHOLE_GOODS_TAG }],
  };
}
