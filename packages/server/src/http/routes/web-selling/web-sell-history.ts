import { getWebSellHistory } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { listWebSellHistory } from "../../../domain/trades/list-web-sell-history.ts";
import { registerOperation } from "../../operation-route.ts";
import { listQuery } from "../purchases/list-query.ts";
import { internalAnswer } from "./internal-answer.ts";

/** GET /api/market/sell_order/history: the signed-in user's sales. */
export function registerWebSellHistory(app: FastifyInstance): void {
  registerOperation(app, getWebSellHistory, async ({ ctx, query }) =>
    internalAnswer(await listWebSellHistory(ctx, listQuery(query))),
  );
}
