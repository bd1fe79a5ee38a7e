import { toUnixSeconds } from "../clock.ts";
import { ok } from "../result.ts";
import { toEnterpriseFloatItem } from "./price-entries.ts";
import { selectPriceEntries, type PriceQuery } from "./price-query.ts";
import type { PriceSnapshot } from "./price-snapshot.ts";

/**
 * Every figure by float range (reference: GET /api/market/enterprise/float/items): per goods, its
 * whole figures, then each fixed paint-wear interval and variant that has listings.
 */
export function getEnterpriseFloatItems(snapshot: PriceSnapshot, query: Omit<PriceQuery, "highLiquidity">) {
  const selected = selectPriceEntries(snapshot, query);
  if (!selected.ok) return selected;
  const { statTime, entries } = selected.value;
  return ok({
    info: entries.map((entry) => toEnterpriseFloatItem(entry)),
    stat_time: toUnixSeconds(statTime),
  });
}
