import {
  cancelPurchaseOrders,
  listPurchaseOrders,
  purchaseOrders,
  purchaseQuantity,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { cancelPurchaseOrders as cancel } from "../../../domain/trades/cancel-purchase-orders.ts";
import { listPurchaseOrders as listPurchases } from "../../../domain/trades/list-trades.ts";
import { purchaseGoods } from "../../../domain/trades/purchase-goods.ts";
import { purchaseQuantity as quantity } from "../../../domain/trades/purchase-quantity.ts";
import { registerOperation } from "../../operation-route.ts";
import { listQuery } from "./list-query.ts";

/** The purchase operations: buy, list, cancel, available quantity. */
export function registerPurchaseRoutes(app: FastifyInstance): void {
  registerOperation(app, purchaseOrders, ({ ctx, body }) =>
    purchaseGoods(ctx, {
      items: body.items.map((item) => ({
        ...(item.goods_id !== undefined ? { goodsId: item.goods_id } : {}),
        ...(item.market_hash_name !== undefined ? { marketHashName: item.market_hash_name } : {}),
        maxPrice: item.max_price,
        quantity: item.quantity,
      })),
      ...(body.pay_method !== undefined ? { payMethod: body.pay_method } : {}),
      ...(body.trade_url !== undefined ? { tradeUrl: body.trade_url } : {}),
      ...(body.platformid !== undefined ? { platformid: body.platformid } : {}),
    }),
  );

  registerOperation(app, listPurchaseOrders, ({ ctx, body }) => listPurchases(ctx, listQuery(body)));

  registerOperation(app, cancelPurchaseOrders, ({ ctx, body }) => cancel(ctx, body.order_ids));

  registerOperation(app, purchaseQuantity, ({ ctx, query }) =>
    quantity(ctx, {
      ...(query.goods_id !== undefined ? { goodsId: query.goods_id } : {}),
      ...(query.market_hash_name !== undefined ? { marketHashName: query.market_hash_name } : {}),
      ...(query.max_price !== undefined ? { maxPrice: query.max_price } : {}),
    }),
  );
}
