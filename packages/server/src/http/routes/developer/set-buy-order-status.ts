import { setBuyOrderStatus as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { setBuyOrderStatus } from "../../../domain/accounts/set-buy-order-status.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerSetBuyOrderStatus(app: FastifyInstance): void {
  registerOperation(app, operation, ({ ctx, body }) =>
    setBuyOrderStatus(ctx, {
      ...(body.buy_order_status !== undefined ? { buyOrderStatus: body.buy_order_status } : {}),
      ...(body.buy_order_auto_offline !== undefined
        ? { buyOrderAutoOffline: body.buy_order_auto_offline }
        : {}),
    }),
  );
}
