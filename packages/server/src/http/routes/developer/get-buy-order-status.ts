import { getBuyOrderStatus as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { getBuyOrderStatus } from "../../../domain/accounts/get-buy-order-status.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerGetBuyOrderStatus(app: FastifyInstance): void {
  registerOperation(app, operation, ({ ctx }) => getBuyOrderStatus(ctx));
}
