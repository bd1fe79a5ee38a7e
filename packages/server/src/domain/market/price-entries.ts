import { formatMoney } from "@skinmarket/contract";
import { toUnixSeconds } from "../clock.ts";
import { formatLiquidityRank } from "../liquidity/recompute-liquidity-ranks.ts";
import type { Figures, IntervalFigures, VariantFigures } from "./market-figures.ts";
import type { PriceEntry } from "./price-snapshot.ts";

/**
 * A snapshot entry as each price operation answers it (reference: "Market price entry"). Pure
 * functions of the entry alone (its `update_time` is the moment its figures were found, which
 * the entry carries), so that an entry is serialized once for every answer that lists it.
 */

function head(entry: PriceEntry) {
  return {
    goods_id: entry.goods_id,
    market_hash_name: entry.market_hash_name,
    name: entry.name,
    update_time: toUnixSeconds(entry.foundAt),
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
export function toItemPrice(entry: PriceEntry) {
  return {
    ...head(entry),
    sales: [
      {
        min_price: formatMoney(entry.whole.minPrice),
        pre_sell_min_price: formatMoney(entry.whole.preSellMinPrice),
      },
    ],
  };
}

/** POST /api/market/float/items: the liquidity rank rides on the whole goods' entry. */
export function toFloatItem(entry: PriceEntry) {
  return {
    ...head(entry),
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
export function toEnterpriseItem(entry: PriceEntry) {
  return {
    ...head(entry),
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
export function toEnterpriseFloatItem(entry: PriceEntry) {
  return {
    ...head(entry),
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
export function toLiquidityRank(entry: PriceEntry) {
  return {
    goods_id: entry.goods_id,
    market_hash_name: entry.market_hash_name,
    update_time: toUnixSeconds(entry.foundAt),
    sales: [{ liquidity_rank: formatLiquidityRank(entry.liquidityRank), ...WHOLE_GOODS_TAG }],
  };
}

/** How a price operation answers one entry (`toItemPrice` and the others). */
export type ItemShape = (entry: PriceEntry) => object;

/**
 * Per entry and shape, its serialized JSON: an entry a snapshot update keeps (the same object,
 * with the time its figures were found) is not serialized again.
 */
const fragments = new WeakMap<PriceEntry, Map<ItemShape, string>>();

function fragmentOf(entry: PriceEntry, shape: ItemShape): string {
  let byShape = fragments.get(entry);
  if (!byShape) fragments.set(entry, (byShape = new Map()));
  let fragment = byShape.get(shape);
  if (fragment === undefined) {
    fragment = JSON.stringify(shape(entry));
    byShape.set(shape, fragment);
  }
  return fragment;
}

/**
 * A price list `{ "info": [...], "stat_time": ... }` serialized as `JSON.stringify` would, without
 * its closing brace (the answer's own fields follow: `PrebuiltJson`), put together from the
 * entries' serialized fragments (docs/design.md section 4).
 */
export function priceListJson(entries: readonly PriceEntry[], statTime: Date, shape: ItemShape): string {
  return [...priceListParts(entries, statTime, shape)].join("");
}

/** Entries a part of `priceListParts` holds: a few hundred kilobytes, a millisecond or two of work. */
export const PRICE_LIST_PART_ENTRIES = 1000;

/**
 * `priceListJson` in consecutive parts, each of at most `entriesPerPart` entries: their
 * concatenation is the price list. Lazy: an entry's fragment is made (or found) when its part is
 * asked for, so that a caller may let other work run between parts (docs/design.md section 12).
 */
export function* priceListParts(
  entries: readonly PriceEntry[],
  statTime: Date,
  shape: ItemShape,
  entriesPerPart = PRICE_LIST_PART_ENTRIES,
): Generator<string> {
  let opening = `{"info":[`;
  for (let start = 0; start < entries.length; start += entriesPerPart) {
    const parts = entries.slice(start, start + entriesPerPart).map((entry) => fragmentOf(entry, shape));
    yield opening + parts.join(",");
    opening = ",";
  }
  yield `${entries.length === 0 ? opening : ""}],"stat_time":${toUnixSeconds(statTime)}`;
}
