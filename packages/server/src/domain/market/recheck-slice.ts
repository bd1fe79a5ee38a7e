import type { MarketCatalog } from "./market-goods.ts";
import type { PriceEntry, PriceSnapshot } from "./price-snapshot.ts";
import type { GoodsRange } from "./market-figures.ts";

/** A slice of the rolling recheck: its goods, the range of ids they span, where the next begins. */
export interface RecheckSlice {
  goods: readonly number[];
  range: GoodsRange | undefined;
  next: number;
}

/** What each goods of the catalog weighs in a recheck: 1 + its listings on sale (the rows read). */
function recheckWeight(entry: PriceEntry | undefined): number {
  return entry ? 1 + entry.whole.sellNum + entry.whole.preSellNum : 1;
}

const totalWeights = new WeakMap<PriceSnapshot, number>();

/**
 * The rolling recheck's slice of `snapshot`'s catalog from index `from` (in id order) that weighs
 * `share` of the whole catalog's weight (its listings and goods), at least one goods.
 */
export function recheckSlice(snapshot: PriceSnapshot, from: number, share: number): RecheckSlice {
  const ids = goodsIdsOf(snapshot.catalog);
  if (ids.length === 0) return { goods: [], range: undefined, next: 0 };
  let total = totalWeights.get(snapshot);
  if (total === undefined) {
    total = 0;
    for (const goodsId of ids) total += recheckWeight(snapshot.entries.get(goodsId));
    totalWeights.set(snapshot, total);
  }
  const wanted = Math.ceil(total * share);
  const start = from < ids.length ? from : 0;
  let end = start;
  for (let weight = 0; end < ids.length && (end === start || weight < wanted); end++)
    weight += recheckWeight(snapshot.entries.get(ids[end]!));
  return {
    goods: ids.slice(start, end),
    range: { from: ids[start]!, to: ids[end - 1]! },
    next: end < ids.length ? end : 0,
  };
}

/** The catalog's goods ids in id order, kept per catalog (the recheck walks them). */
const sortedGoodsIds = new WeakMap<MarketCatalog, readonly number[]>();

function goodsIdsOf(catalog: MarketCatalog): readonly number[] {
  let ids = sortedGoodsIds.get(catalog);
  if (!ids) {
    ids = [...catalog.byId.keys()].sort((a, b) => a - b);
    sortedGoodsIds.set(catalog, ids);
  }
  return ids;
}
