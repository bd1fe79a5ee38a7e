import { getBuyOrderBook as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { readBuyOrderBook } from "../../../domain/buy-orders/read-buy-order-book.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";

/** GET /api/market/goods/buy_order: the public buy-order book (website route, anonymous). */
export function registerGetBuyOrderBook(app: FastifyInstance): void {
  registerOperation(app, operation, async ({ ctx, query }) => {
    const book = await readBuyOrderBook(ctx, {
      goodsId: query.goods_id,
      pageNum: query.page_num,
      pageSize: query.page_size,
    });
    if (!book.ok) return book;
    return ok({ code: "OK" as const, data: book.value, msg: null });
  });
}
