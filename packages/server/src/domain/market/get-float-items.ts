import { toUnixSeconds } from "../clock.ts";
import { ok } from "../result.ts";
import { toFloatItem } from "./price-entries.ts";
import { minPriceFilter, selectListedGoods } from "./price-query.ts";
import type { PriceSnapshot } from "./price-snapshot.ts";

/**
 * Figures by float range (reference: POST /api/market/float/items): for each goods asked for by
 * id or market hash name, its whole figures with its liquidity rank, then one entry per fixed
 * paint-wear interval and per variant (phase or fade range) that has listings. `min_price` keeps
 * the goods whose lowest tradable price reaches it, as on `GET /api/market/items`.
 */
export function getFloatItems(
  snapshot: PriceSnapshot,
  query: { goodsIds?: readonly number[]; marketHashNames?: readonly string[]; minPrice?: unknown },
) {
  const reaches = minPriceFilter(query.minPrice);
  if (!reaches.ok) return reaches;
  const selected = selectListedGoods(snapshot, query);
  if (!selected.ok) return selected;
  const { statTime, entries } = selected.value;
  return ok({
    info: entries.filter(reaches.value).map((entry) => toFloatItem(entry)),
    stat_time: toUnixSeconds(statTime),
  });
}
