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
 * entries' serialized fragments (docs/design/market-snapshots.md#answers-made-of-parts).
 */
export function priceListJson(entries: readonly PriceEntry[], statTime: Date, shape: ItemShape): string {
  return [...priceListParts(entries, statTime, shape)].map((part) => part.text()).join("");
}

/**
 * A consecutive part of a price list: its text is a function of `made` alone (the same values,
 * compared with `===`, in the same order make the same text), so that a new answer can reuse the
 * bytes made for a part of the answer it replaces (`PrebuiltJson.ofParts`).
 */
export interface PriceListPart {
  readonly made: readonly unknown[];
  text(): string;
}

/** Entries a part of `priceListParts` holds on average (docs/design/market-snapshots.md#answers-made-of-parts). */
export const PRICE_LIST_PART_ENTRIES = 250;

/**
 * `priceListJson` in consecutive parts: their texts joined are the price list. A part ends after
 * an entry whose goods id a hash marks (one in `entriesPerPart`, so parts hold that many entries
 * on average), or at four times that many: where parts end depends on the goods ids alone, not on
 * positions, so a goods entering or leaving the market changes its own part, not every part after
 * it. The first part opens the list, the others start with a comma; the last closes it with the
 * snapshot's `stat_time`. Lazy: an entry's fragment is made (or found) when its part's text is
 * asked for, so that a caller may let other work run between parts (docs/design/performance.md#whole-market-answers-by-parts).
 */
export function* priceListParts(
  entries: readonly PriceEntry[],
  statTime: Date,
  shape: ItemShape,
  entriesPerPart = PRICE_LIST_PART_ENTRIES,
): Generator<PriceListPart> {
  const longest = entriesPerPart * 4;
  let opening = `{"info":[`;
  let start = 0;
  for (let index = 0; index < entries.length; index++) {
    const last =
      index === entries.length - 1 ||
      index - start + 1 >= longest ||
      endsPart(entries[index]!.goods_id, entriesPerPart);
    if (!last) continue;
    const slice = entries.slice(start, index + 1);
    const prefix = opening;
    yield {
      made: [prefix, shape, ...slice],
      text: () => prefix + slice.map((entry) => fragmentOf(entry, shape)).join(","),
    };
    opening = ",";
    start = index + 1;
  }
  const closing = `${entries.length === 0 ? opening : ""}],"stat_time":${toUnixSeconds(statTime)}`;
  yield { made: [closing], text: () => closing };
}

/** Whether a part of `priceListParts` ends after the goods: one goods id in `per`, by a hash. */
function endsPart(goodsId: number, per: number): boolean {
  // MurmurHash3's finalizer: every bit of the id moves the result, so that neither runs of
  // consecutive ids nor ids sharing their low bits end parts together.
  let hash = goodsId | 0;
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return ((hash ^ (hash >>> 16)) >>> 0) % per === 0;
}
