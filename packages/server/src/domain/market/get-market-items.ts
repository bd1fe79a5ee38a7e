import { toUnixSeconds } from "../clock.ts";
import { ok } from "../result.ts";
import { toItemPrice } from "./price-entries.ts";
import { selectPriceEntries, type PriceQuery } from "./price-query.ts";
import type { PriceSnapshot } from "./price-snapshot.ts";

export type MarketItemsQuery = Omit<PriceQuery, "game" | "highLiquidity">;

/**
 * Lowest prices (reference: GET /api/market/items). With `goods_id` or `market_hash_name`, that
 * goods alone (prices `0.00` while it has no listing); without, every goods on the market (with a
 * listing on sale or a buy order in the public book), stickers, slabs and sealed graffiti left out
 * with `include_sticker=0`. `min_price` keeps the goods whose lowest tradable price reaches it.
 */
export function getMarketItems(snapshot: PriceSnapshot, query: MarketItemsQuery) {
  const selected = selectPriceEntries(snapshot, query);
  if (!selected.ok) return selected;
  const { statTime, entries } = selected.value;
  return ok({
    info: entries.map((entry) => toItemPrice(entry)),
    stat_time: toUnixSeconds(statTime),
  });
}
