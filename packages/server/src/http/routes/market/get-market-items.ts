import { getMarketItems as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { getMarketItems } from "../../../domain/market/get-market-items.ts";
import { toItemPrice } from "../../../domain/market/price-entries.ts";
import { selectPriceEntries } from "../../../domain/market/price-query.ts";
import { registerOperation } from "../../operation-route.ts";
import { namedGoods, type PriceAnswers } from "./price-answers.ts";

/** GET /api/market/items: lowest prices, from the market snapshot; 500 requests a day per token. */
export function registerGetMarketItems(app: FastifyInstance, prices: PriceAnswers): void {
  registerOperation(app, operation, ({ ctx, query }) => {
    const wholeMarket =
      query.goods_id === undefined && query.market_hash_name === undefined && query.min_price === undefined;
    return prices.answer(
      ctx,
      wholeMarket
        ? {
            key: `items:sticker=${query.include_sticker}`,
            select: (snapshot) =>
              selectPriceEntries(snapshot, { includeSticker: query.include_sticker === 1 }),
            item: toItemPrice,
          }
        : undefined,
      (snapshot) =>
        getMarketItems(snapshot, {
          includeSticker: query.include_sticker === 1,
          ...(query.goods_id !== undefined ? { goodsId: query.goods_id } : {}),
          ...(query.market_hash_name !== undefined ? { marketHashName: query.market_hash_name } : {}),
          ...(query.min_price !== undefined ? { minPrice: query.min_price } : {}),
        }),
      namedGoods(query),
    );
  });
}
