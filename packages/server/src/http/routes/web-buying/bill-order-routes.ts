import {
  askSellerToSendOffer as askOperation,
  cancelWebPurchase,
  getBillOrderBatch,
  listBoughtItems as listOperation,
  notifyBuyerToSendOffer as notifyOperation,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { ok } from "../../../domain/result.ts";
import type { TradeState } from "../../../storage/schema.ts";
import { cancelPurchaseOrder } from "../../../domain/trades/cancel-purchase-orders.ts";
import { askSellerToSendOffer } from "../../../domain/trades/ask-seller-to-send-offer.ts";
import { listBoughtItems } from "../../../domain/trades/list-bought-items.ts";
import { notifyBuyerToSendOffer } from "../../../domain/trades/notify-buyer-to-send-offer.ts";
import { readWebBillOrders } from "../../../domain/trades/read-web-bill-orders.ts";
import { registerOperation } from "../../operation-route.ts";

/** The bill-order routes that follow a website purchase, and the list of what the user bought. */
export function registerBillOrderRoutes(app: FastifyInstance): void {
  registerOperation(app, getBillOrderBatch, async ({ ctx, query }) => {
    const read = await readWebBillOrders(ctx, query.bill_orders.split(",").map(Number));
    return read.ok ? ok({ code: "OK" as const, data: read.value, msg: null }) : read;
  });

  registerOperation(app, askOperation, async ({ ctx, body }) => {
    const asked = await askSellerToSendOffer(ctx, body.bill_orders.map(Number));
    return asked.ok ? ok({ code: "OK" as const, data: {}, msg: null }) : asked;
  });

  registerOperation(app, cancelWebPurchase, async ({ ctx, body }) => {
    const cancelled = await cancelPurchaseOrder(ctx, body.bill_order_id);
    return cancelled.ok ? ok({ code: "OK" as const, data: {}, msg: null }) : cancelled;
  });

  registerOperation(app, notifyOperation, async ({ ctx, body }) => {
    const notified = await notifyBuyerToSendOffer(ctx, Number(body.bill_order_id));
    return notified.ok ? ok({ code: "OK" as const, data: {}, msg: null }) : notified;
  });

  registerOperation(app, listOperation, async ({ ctx, query }) => {
    const listed = await listBoughtItems(ctx, {
      pageNum: query.page_num,
      pageSize: query.page_size,
      ...(query.state !== undefined ? { state: query.state.toUpperCase() as TradeState } : {}),
    });
    return listed.ok ? ok({ code: "OK" as const, data: listed.value, msg: null }) : listed;
  });
}
