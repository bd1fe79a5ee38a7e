import {
  getBillOrders,
  getBuyOrderDepth,
  getGoodsInfo,
  getGoodsSellOrders,
  getPaintwearRank,
  getPriceHistory,
  UNSUPPORTED_SELL_ORDER_FILTERS,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { listGoodsSellOrders } from "../../../domain/goods/list-goods-sell-orders.ts";
import { readBillOrders } from "../../../domain/goods/read-bill-orders.ts";
import { readBuyOrderDepth, readPaintwearRank } from "../../../domain/goods/read-goods-context.ts";
import { readGoodsInfo } from "../../../domain/goods/read-goods-info.ts";
import { readPriceHistory } from "../../../domain/goods/read-price-history.ts";
import { ok, type Result } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";
import { viewerOf } from "./viewer.ts";

/** A verb's value in the internal envelope `{code: "OK", data, msg: null}`. */
function internal<Data>(result: Result<Data>) {
  return result.ok ? ok({ code: "OK" as const, data: result.value, msg: null }) : result;
}

/**
 * The goods page's website routes: details, listings, price history, recent trades and the price
 * context (buy-order depth, wear ranks). All
 * answer anonymously; a signed-in viewer sees their own bookmarks (docs/design/website-goods-routes.md#the-websites-market-data-routes).
 */
export function registerGoodsPageRoutes(app: FastifyInstance): void {
  registerOperation(app, getGoodsInfo, async ({ ctx, query, request }) =>
    internal(await readGoodsInfo(ctx, { goodsId: query.goods_id, viewerId: await viewerOf(request) })),
  );
  registerOperation(app, getGoodsSellOrders, async ({ ctx, query, request }) =>
    internal(
      await listGoodsSellOrders(ctx, {
        goodsId: query.goods_id,
        pageNum: query.page_num,
        pageSize: query.page_size,
        sortBy: query.sort_by,
        ...(query.mode ? { mode: query.mode } : {}),
        allowTradableCooldown: query.allow_tradable_cooldown === 1,
        ...(query.min_paintwear !== undefined ? { minPaintwear: query.min_paintwear } : {}),
        ...(query.max_paintwear !== undefined ? { maxPaintwear: query.max_paintwear } : {}),
        ...(query.paintseed !== undefined ? { paintseed: query.paintseed } : {}),
        ...(query.tag_ids !== undefined ? { tagId: query.tag_ids } : {}),
        ...(query.min_fade !== undefined ? { minFade: query.min_fade } : {}),
        ...(query.max_fade !== undefined ? { maxFade: query.max_fade } : {}),
        ...(query.extra_tag_ids !== undefined ? { extraTagIds: query.extra_tag_ids } : {}),
        ...(query.wearless_sticker !== undefined ? { wearlessSticker: query.wearless_sticker } : {}),
        ...(query.min_price !== undefined ? { minPrice: query.min_price } : {}),
        ...(query.max_price !== undefined ? { maxPrice: query.max_price } : {}),
        unsupportedFilters: UNSUPPORTED_SELL_ORDER_FILTERS.filter((name) => query[name] !== undefined),
        viewerId: await viewerOf(request),
      }),
    ),
  );
  registerOperation(app, getPriceHistory, async ({ ctx, query }) =>
    internal(await readPriceHistory(ctx, { goodsId: query.goods_id, days: query.days })),
  );
  registerOperation(app, getBillOrders, async ({ ctx, query }) =>
    internal(
      await readBillOrders(ctx, {
        goodsId: query.goods_id,
        pageNum: query.page_num,
        pageSize: query.page_size,
      }),
    ),
  );
  registerOperation(app, getBuyOrderDepth, async ({ ctx, query }) =>
    internal(await readBuyOrderDepth(ctx, { goodsId: query.goods_id, levels: query.levels })),
  );
  registerOperation(app, getPaintwearRank, async ({ ctx, query }) =>
    internal(await readPaintwearRank(ctx, { goodsId: query.goods_id, sellOrderIds: query.sell_order_ids })),
  );
}
