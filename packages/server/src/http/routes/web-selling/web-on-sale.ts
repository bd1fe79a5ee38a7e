import { getWebOnSale } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { getWebOnSale as readOnSale } from "../../../domain/listings/get-web-on-sale.ts";
import { registerOperation } from "../../operation-route.ts";
import { internalAnswer } from "./internal-answer.ts";

/** GET /api/market/sell_order/on_sale: the signed-in user's listings; `mode` and `fold` change nothing. */
export function registerWebOnSale(app: FastifyInstance): void {
  registerOperation(app, getWebOnSale, async ({ ctx, query }) =>
    internalAnswer(
      await readOnSale(ctx, {
        ...(query.min_price !== undefined ? { minPrice: query.min_price } : {}),
        ...(query.max_price !== undefined ? { maxPrice: query.max_price } : {}),
        ...(query.min_paintwear !== undefined ? { minPaintwear: query.min_paintwear } : {}),
        ...(query.max_paintwear !== undefined ? { maxPaintwear: query.max_paintwear } : {}),
        ...(query.search !== undefined ? { search: query.search } : {}),
        sortBy: query.sort_by,
        pageNum: query.page_num,
        pageSize: query.page_size,
      }),
    ),
  );
}
