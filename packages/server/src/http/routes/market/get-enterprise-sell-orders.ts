import { getEnterpriseSellOrders as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { getEnterpriseSellOrders } from "../../../domain/listings/get-enterprise-sell-orders.ts";
import { registerOperation } from "../../operation-route.ts";

/** GET /api/market/enterprise/goods/sell_order: 3 requests a second, 200 distinct goods a day. */
export function registerGetEnterpriseSellOrders(app: FastifyInstance): void {
  registerOperation(app, operation, ({ ctx, query }) =>
    getEnterpriseSellOrders(ctx, {
      marketHashName: query.market_hash_name,
      ...(query.min_paintwear !== undefined ? { minPaintwear: query.min_paintwear } : {}),
      ...(query.max_paintwear !== undefined ? { maxPaintwear: query.max_paintwear } : {}),
      ...(query.paintseed !== undefined ? { paintseed: query.paintseed } : {}),
      ...(query.paintindex !== undefined ? { paintindex: query.paintindex } : {}),
      ...(query.pay_method !== undefined ? { payMethod: query.pay_method } : {}),
      sortBy: query.sort_by,
      pageNum: query.page_num,
      pageSize: query.page_size,
    }),
  );
}
