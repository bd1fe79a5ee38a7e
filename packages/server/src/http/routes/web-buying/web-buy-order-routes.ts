import {
  cancelWebBuyOrders,
  createWebBuyOrder,
  listWebBuyOrders,
  payAccountOfCode,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { cancelBuyOrders } from "../../../domain/buy-orders/cancel-buy-orders.ts";
import { createBuyOrder } from "../../../domain/buy-orders/create-buy-order.ts";
import { listWebBuyOrderPage } from "../../../domain/buy-orders/list-buy-orders.ts";
import { invalidArgument } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";
import { internalAnswer } from "../web-selling/internal-answer.ts";

/** The buy-order funds an order may draw on, from the website's pay-method code. */
function payMethodOf(code: number | string | undefined) {
  if (code === undefined) return { ok: true as const, value: undefined };
  const account = payAccountOfCode(Number(code));
  if (account === "balance" || account === "margin") return { ok: true as const, value: account };
  return invalidArgument(
    "pay_method",
    `${code} is not a way to pay for buy orders: 3 (balance) or 101 (buy-order funds)`,
  );
}

/**
 * The website's buy-order routes (docs/design/website-buying-routes.md#the-websites-buy-order-routes) on the official operations' verbs:
 * the same checks, crossing and records; only the envelope and the tools' field forms differ.
 */
export function registerWebBuyOrderRoutes(app: FastifyInstance): void {
  registerOperation(app, createWebBuyOrder, async ({ ctx, body }) => {
    const payMethod = payMethodOf(body.pay_method);
    if (!payMethod.ok) return payMethod;
    const cooldown = body.allow_tradable_cooldown;
    return internalAnswer(
      await createBuyOrder(ctx, {
        goodsId: Number(body.goods_id),
        price: body.price,
        num: Number(body.num),
        ...(payMethod.value ? { payMethod: payMethod.value } : {}),
        ...(body.specific ? { specific: body.specific } : {}),
        ...(cooldown !== undefined
          ? { allowTradableCooldown: cooldown === true || Number(cooldown) === 1 }
          : {}),
      }),
    );
  });
  registerOperation(app, listWebBuyOrders, async ({ ctx, query }) =>
    internalAnswer(await listWebBuyOrderPage(ctx, { pageNum: query.page_num, pageSize: query.page_size })),
  );
  registerOperation(app, cancelWebBuyOrders, async ({ ctx, body }) =>
    internalAnswer(await cancelBuyOrders(ctx, body.buy_orders)),
  );
}
