import type { Fen } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";

export interface GoodsPrices {
  /** Lowest tradable listing; 0 while nothing is listed. */
  sellMin: Fen;
  /** Best progressing buy order; 0 while there is none. */
  buyMax: Fen;
  /** The marketplace's reference price for the goods: today its lowest listing. */
  platformPrice: Fen;
}

/**
 * Live market prices per goods, for records that carry them (inventory items, and later listings
 * and buy orders). The market consists of listings and buy orders; until those exist in the
 * database every goods has no price, which is what this answers.
 */
export async function readGoodsPrices(
  _ctx: DomainContext,
  goodsIds: readonly number[],
): Promise<Map<number, GoodsPrices>> {
  return new Map(goodsIds.map((goodsId) => [goodsId, { sellMin: 0, buyMax: 0, platformPrice: 0 }]));
}
