import { listCatalogGoods as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import type { CatalogIndexes } from "../../../domain/goods/catalog-index.ts";
import type { VisitorSearchLimit } from "../../limits/visitor-searches.ts";
import { listCatalogGoods } from "../../../domain/goods/list-catalog-goods.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";
import { viewerOf, visitorOverBudget } from "./viewer.ts";

/** GET /api/market/goods: the catalog page, for anyone; a signed-in viewer sees their bookmarks (docs/design/website-goods-routes.md#the-websites-goods-pages). */
export function registerListCatalogGoods(
  app: FastifyInstance,
  catalogs: CatalogIndexes,
  visitorSearches: VisitorSearchLimit | undefined,
): void {
  registerOperation(app, operation, async ({ ctx, query, request }) => {
    const viewerId = await viewerOf(request);
    const overBudget = await visitorOverBudget(request, visitorSearches, viewerId);
    if (overBudget) return overBudget;
    const page = await listCatalogGoods(ctx, await catalogs.current(ctx), {
      viewerId,
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
      listings: {
        ...(query.min_paintwear !== undefined ? { minPaintwear: query.min_paintwear } : {}),
        ...(query.max_paintwear !== undefined ? { maxPaintwear: query.max_paintwear } : {}),
        ...(query.paintseed !== undefined ? { paintseed: query.paintseed } : {}),
        ...(query.sticker !== undefined ? { sticker: query.sticker } : {}),
      },
    });
    if (!page.ok) return page;
    return ok({ code: "OK" as const, data: page.value, msg: null });
  });
}
