import { NO_FIGURES } from "../../src/domain/market/market-figures.ts";
import type { PriceEntry } from "../../src/domain/market/price-snapshot.ts";

/** A whole-market price entry of one goods: its lowest ask `minPrice`, its figures found at `foundAt`. */
export function priceEntry(goodsId: number, minPrice: number, foundAt: Date): PriceEntry {
  return {
    goods_id: goodsId,
    market_hash_name: `AK-47 | Redline (Field-Tested) ${goodsId}`,
    name: `AK-47 | 红线 ${goodsId}`,
    type: "weapon",
    whole: { ...NO_FIGURES, minPrice },
    intervals: [],
    variants: [],
    liquidityRank: 0,
    foundAt,
  };
}
