import {
  cancelPurchaseOrders,
  listPurchaseOrders,
  moneyToNumber,
  purchaseOrders,
  purchaseQuantity,
  type Fen,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { cancelPurchaseOrders as cancel } from "../../../domain/trades/cancel-purchase-orders.ts";
import { listPurchaseOrders as listPurchases } from "../../../domain/trades/list-trades.ts";
import { purchaseGoods, type PurchaseGoodsResult } from "../../../domain/trades/purchase-goods.ts";
import { purchaseQuantity as quantity } from "../../../domain/trades/purchase-quantity.ts";
import { ok } from "../../../domain/result.ts";
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
    }).then((bought) => (bought.ok ? ok(purchaseAnswer(bought.value)) : bought)),
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

/** The reference answers money in a purchase as numbers of yuan: fen become them only here. */
function purchaseAnswer(bought: { result: Record<string, PurchaseGoodsResult>; market_balance: Fen }) {
  const result = Object.fromEntries(
    Object.entries(bought.result).map(([key, entry]) => [
      key,
      { ...entry, total_cost: moneyToNumber(entry.total_cost) },
    ]),
  );
  return { result, market_balance: moneyToNumber(bought.market_balance) };
}
