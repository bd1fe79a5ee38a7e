import { getMarketItems as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { getMarketItems } from "../../../domain/market/get-market-items.ts";
import type { PriceSnapshots } from "../../../domain/market/price-snapshot.ts";
import { registerOperation } from "../../operation-route.ts";

/** GET /api/market/items: lowest prices, from the market snapshot; 500 requests a day per token. */
export function registerGetMarketItems(app: FastifyInstance, snapshots: PriceSnapshots): void {
  registerOperation(app, operation, ({ ctx, query }) =>
    getMarketItems(ctx, snapshots, {
      includeSticker: query.include_sticker === 1,
      ...(query.goods_id !== undefined ? { goodsId: query.goods_id } : {}),
      ...(query.market_hash_name !== undefined ? { marketHashName: query.market_hash_name } : {}),
      ...(query.min_price !== undefined ? { minPrice: query.min_price } : {}),
    }),
  );
}
