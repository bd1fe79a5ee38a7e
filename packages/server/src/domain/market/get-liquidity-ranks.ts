import { toUnixSeconds } from "../clock.ts";
import { ok } from "../result.ts";
import { toLiquidityRank } from "./price-entries.ts";
import { selectPriceEntries, type PriceQuery } from "./price-query.ts";
import type { PriceSnapshot } from "./price-snapshot.ts";

/**
 * Liquidity ranks (reference: GET /api/market/enterprise/items/liquidity_rank) of one goods, or of
 * every goods on the market; a goods without trades in the last 30 days ranks `"0.00%"`.
 */
export function getLiquidityRanks(
  snapshot: PriceSnapshot,
  query: Omit<PriceQuery, "game" | "highLiquidity" | "minPrice">,
) {
  const selected = selectPriceEntries(snapshot, query);
  if (!selected.ok) return selected;
  const { statTime, entries } = selected.value;
  return ok({
    info: entries.map((entry) => toLiquidityRank(entry)),
    stat_time: toUnixSeconds(statTime),
  });
}
