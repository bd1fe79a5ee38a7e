import { toUnixSeconds } from "../clock.ts";
import { ok } from "../result.ts";
import { toEnterpriseItem } from "./price-entries.ts";
import { selectPriceEntries, type PriceQuery } from "./price-query.ts";
import type { PriceSnapshot } from "./price-snapshot.ts";

/**
 * Lowest prices and best buy order (reference: GET /api/market/enterprise/items), of one goods or of
 * the whole market; `high_liquidity=1` keeps the goods ranked at least 80 %.
 */
export function getEnterpriseItems(snapshot: PriceSnapshot, query: PriceQuery) {
  const selected = selectPriceEntries(snapshot, query);
  if (!selected.ok) return selected;
  const { statTime, entries } = selected.value;
  return ok({
    info: entries.map((entry) => toEnterpriseItem(entry)),
    stat_time: toUnixSeconds(statTime),
  });
}
