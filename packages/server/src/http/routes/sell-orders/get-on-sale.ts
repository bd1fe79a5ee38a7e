import { getOnSale as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { getOnSale } from "../../../domain/listings/get-on-sale.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerGetOnSale(app: FastifyInstance): void {
  registerOperation(app, operation, ({ ctx, query }) =>
    getOnSale(ctx, {
      ...(query.platformid !== undefined ? { platformid: query.platformid } : {}),
      ...(query.min_price !== undefined ? { minPrice: query.min_price } : {}),
      ...(query.max_price !== undefined ? { maxPrice: query.max_price } : {}),
      ...(query.min_paintwear !== undefined ? { minPaintwear: query.min_paintwear } : {}),
      ...(query.max_paintwear !== undefined ? { maxPaintwear: query.max_paintwear } : {}),
      ...(query.search !== undefined ? { search: query.search } : {}),
      sortBy: query.sort_by,
      pageNum: query.page_num,
      pageSize: query.page_size,
    }),
  );
}
