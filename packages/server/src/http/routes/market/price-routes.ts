import {
  getEnterpriseFloatItems as enterpriseFloatItems,
  getEnterpriseItems as enterpriseItems,
  getFloatItems as floatItems,
  getLiquidityRanks as liquidityRanks,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { getEnterpriseFloatItems } from "../../../domain/market/get-enterprise-float-items.ts";
import { getEnterpriseItems } from "../../../domain/market/get-enterprise-items.ts";
import { getFloatItems } from "../../../domain/market/get-float-items.ts";
import { getLiquidityRanks } from "../../../domain/market/get-liquidity-ranks.ts";
import {
  toEnterpriseFloatItem,
  toEnterpriseItem,
  toLiquidityRank,
  type ItemShape,
} from "../../../domain/market/price-entries.ts";
import { selectPriceEntries, type PriceQuery } from "../../../domain/market/price-query.ts";
import { registerOperation } from "../../operation-route.ts";
import { namedGoods, type PriceAnswers, type WholeMarket } from "./price-answers.ts";

/** The goods a price query names: `goods_id` or `market_hash_name`, when given. */
function goodsChoice(query: { goods_id?: number; market_hash_name?: string }) {
  return {
    ...(query.goods_id !== undefined ? { goodsId: query.goods_id } : {}),
    ...(query.market_hash_name !== undefined ? { marketHashName: query.market_hash_name } : {}),
  };
}

/**
 * The variant a whole-market answer is prebuilt under, or undefined when the query names a goods
 * or filters by price (answered per request).
 */
function wholeMarketVariant(
  operationId: string,
  query: { goods_id?: number; market_hash_name?: string; min_price?: unknown },
  shape: Record<string, unknown>,
  selection: PriceQuery,
  item: ItemShape,
): WholeMarket | undefined {
  if (query.goods_id !== undefined || query.market_hash_name !== undefined || query.min_price !== undefined)
    return undefined;
  return {
    key: `${operationId}:${JSON.stringify(shape)}`,
    select: (snapshot) => selectPriceEntries(snapshot, selection),
    item,
  };
}

/** `csgo` is CS2's other name: both share one prebuilt whole-market answer. */
function variantGame(game: "cs2" | "csgo" | "dota2"): "cs2" | "dota2" {
  return game === "dota2" ? "dota2" : "cs2";
}

/** The float-range and enterprise price operations, all read from the market snapshot. */
export function registerPriceRoutes(app: FastifyInstance, prices: PriceAnswers): void {
  registerOperation(app, floatItems, ({ ctx, body }) =>
    prices.answer(
      ctx,
      undefined,
      (snapshot) =>
        getFloatItems(snapshot, {
          ...(body.goods_ids ? { goodsIds: body.goods_ids } : {}),
          ...(body.market_hash_names ? { marketHashNames: body.market_hash_names } : {}),
          ...(body.min_price !== undefined ? { minPrice: body.min_price } : {}),
        }),
      {
        ...(body.goods_ids ? { goodsIds: body.goods_ids } : {}),
        ...(body.market_hash_names ? { marketHashNames: body.market_hash_names } : {}),
      },
    ),
  );
  registerOperation(app, enterpriseItems, ({ ctx, query }) => {
    // `high_liquidity=1` wins over `include_sticker`: one variant whatever the latter says.
    const game = variantGame(query.game);
    const shape =
      query.high_liquidity === 1
        ? { game, high_liquidity: 1 }
        : { game, include_sticker: query.include_sticker };
    return prices.answer(
      ctx,
      wholeMarketVariant(
        enterpriseItems.id,
        query,
        shape,
        {
          game: query.game,
          includeSticker: query.include_sticker === 1,
          highLiquidity: query.high_liquidity === 1,
        },
        toEnterpriseItem,
      ),
      (snapshot) =>
        getEnterpriseItems(snapshot, {
          game: query.game,
          includeSticker: query.include_sticker === 1,
          highLiquidity: query.high_liquidity === 1,
          ...goodsChoice(query),
          ...(query.min_price !== undefined ? { minPrice: query.min_price } : {}),
        }),
      namedGoods(query),
    );
  });
  registerOperation(app, enterpriseFloatItems, ({ ctx, query }) => {
    const shape = { game: variantGame(query.game), include_sticker: query.include_sticker };
    return prices.answer(
      ctx,
      wholeMarketVariant(
        enterpriseFloatItems.id,
        query,
        shape,
        { game: query.game, includeSticker: query.include_sticker === 1 },
        toEnterpriseFloatItem,
      ),
      (snapshot) =>
        getEnterpriseFloatItems(snapshot, {
          game: query.game,
          includeSticker: query.include_sticker === 1,
          ...goodsChoice(query),
          ...(query.min_price !== undefined ? { minPrice: query.min_price } : {}),
        }),
      namedGoods(query),
    );
  });
  registerOperation(app, liquidityRanks, ({ ctx, query }) => {
    const shape = { include_sticker: query.include_sticker };
    const variant = wholeMarketVariant(
      liquidityRanks.id,
      query,
      shape,
      { includeSticker: query.include_sticker === 1 },
      toLiquidityRank,
    );
    return prices.answer(ctx, variant, (snapshot) =>
      getLiquidityRanks(snapshot, { includeSticker: query.include_sticker === 1, ...goodsChoice(query) }),
    );
  });
}
