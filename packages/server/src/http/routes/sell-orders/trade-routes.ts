import { sellOrderHistory, sendOffer } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { listSellOrderHistory } from "../../../domain/trades/list-trades.ts";
import { sendOffer as send } from "../../../domain/trades/send-offer.ts";
import { registerOperation } from "../../operation-route.ts";
import { listQuery } from "../purchases/list-query.ts";

/** The seller's side of trades: send the offer, read the history. */
export function registerSellerTradeRoutes(app: FastifyInstance): void {
  registerOperation(app, sendOffer, ({ ctx, body }) => send(ctx, { orderId: body.order_id }));
  registerOperation(app, sellOrderHistory, ({ ctx, body }) => listSellOrderHistory(ctx, listQuery(body)));
}
