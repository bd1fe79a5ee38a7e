import {
  getBuffPriceHistory,
  getBuffPriceHistoryV2,
  getPopularSellOrders,
  listBuyingGoods as buyingOperation,
  listGoodsBuying,
  searchSuggest,
  type OperationQuery,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import type { CatalogIndexes } from "../../../domain/goods/catalog-index.ts";
import type { VisitorSearchLimit } from "../../limits/visitor-searches.ts";
import { listBuyingGoods } from "../../../domain/goods/list-buying-goods.ts";
import { listPopularSellOrders } from "../../../domain/goods/list-popular-sell-orders.ts";
import { readPriceTrend, readPriceTrendLines } from "../../../domain/goods/read-price-trend.ts";
import { suggestGoods } from "../../../domain/goods/suggest-goods.ts";
import { ok, type Result } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";
import { viewerOf, viewerOrEnded, visitorOverBudget } from "./viewer.ts";

/** A verb's value in the internal envelope `{code: "OK", data, msg: null}`. */
function internal<Data>(result: Result<Data>) {
  return result.ok ? ok({ code: "OK" as const, data: result.value, msg: null }) : result;
}

/**
 * The website's market-data routes the real service's tools call (docs/design/website-goods-routes.md#the-websites-market-data-routes):
 * the buying tab for signed-in users; name suggestions, the home page's popular listings and the
 * price trend for anyone.
 */
export function registerMarketDataRoutes(
  app: FastifyInstance,
  catalogs: CatalogIndexes,
  visitorSearches: VisitorSearchLimit | undefined,
): void {
  registerOperation(app, searchSuggest, async ({ ctx, query, request }) => {
    const viewer = await viewerOrEnded(request);
    if (!viewer.ok) return viewer;
    const overBudget = await visitorOverBudget(request, visitorSearches, viewer.value);
    if (overBudget) return overBudget;
    return ok({
      code: "OK" as const,
      data: suggestGoods(await catalogs.current(ctx), query.text),
      msg: null,
    });
  });
  for (const operation of [buyingOperation, listGoodsBuying]) {
    registerOperation(app, operation, async ({ ctx, query, request }) =>
      internal(await listBuyingGoods(ctx, await catalogs.current(ctx), await buyingQuery(query, request))),
    );
  }
  registerOperation(app, getPopularSellOrders, async ({ ctx, request }) =>
    internal(await listPopularSellOrders(ctx, await catalogs.current(ctx), await viewerOf(request))),
  );
  registerOperation(app, getBuffPriceHistory, async ({ ctx, query }) =>
    internal(await readPriceTrend(ctx, { goodsId: query.goods_id, days: query.days })),
  );
  registerOperation(app, getBuffPriceHistoryV2, async ({ ctx, query }) =>
    internal(await readPriceTrendLines(ctx, { goodsId: query.goods_id, days: query.days })),
  );
}

async function buyingQuery(
  query: OperationQuery<typeof buyingOperation>,
  request: Parameters<typeof viewerOf>[0],
) {
  return {
    viewerId: await viewerOf(request),
    pageNum: query.page_num,
    pageSize: query.page_size,
    sortBy: query.sort_by,
    search: query.search,
    category: query.category,
    category_group: query.category_group,
    exterior: query.exterior,
    quality: query.quality,
    rarity: query.rarity,
    minPrice: query.min_price,
    maxPrice: query.max_price,
  };
}
