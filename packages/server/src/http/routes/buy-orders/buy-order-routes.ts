import {
  cancelBuyOrders as cancelOperation,
  createBuyOrder as createOperation,
  listBuyOrders as listOperation,
  sandboxCancelBuyOrders,
  sandboxCreateBuyOrder,
  sandboxListBuyOrders,
  supplyBuyOrder as supplyOperation,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { cancelBuyOrders } from "../../../domain/buy-orders/cancel-buy-orders.ts";
import { createBuyOrder, type CreateBuyOrderInput } from "../../../domain/buy-orders/create-buy-order.ts";
import { listBuyOrders, type BuyOrderListQuery } from "../../../domain/buy-orders/list-buy-orders.ts";
import { supplyBuyOrder } from "../../../domain/buy-orders/supply-buy-order.ts";
import type { DomainContext } from "../../../domain/context.ts";
import { ok, type Result } from "../../../domain/result.ts";
import { requireUser } from "../../../domain/users/require-user.ts";
import { registerOperation } from "../../operation-route.ts";

interface BuyOrderBody {
  goods_id: number;
  price: unknown;
  num: number;
  pay_method?: "balance" | "margin";
  specific?: Array<{ type: string; values: string[] }>;
  allow_tradable_cooldown?: boolean;
  platformid?: string;
  trade_url?: string;
}

function createInput(body: BuyOrderBody): CreateBuyOrderInput {
  return {
    goodsId: body.goods_id,
    price: body.price,
    num: body.num,
    ...(body.pay_method !== undefined ? { payMethod: body.pay_method } : {}),
    ...(body.specific !== undefined ? { specific: body.specific } : {}),
    ...(body.allow_tradable_cooldown !== undefined
      ? { allowTradableCooldown: body.allow_tradable_cooldown }
      : {}),
    ...(body.platformid !== undefined ? { platformid: body.platformid } : {}),
    ...(body.trade_url !== undefined ? { tradeUrl: body.trade_url } : {}),
  };
}

function listQuery(query: {
  order_state?: BuyOrderListQuery["orderState"];
  start_time?: number;
  end_time?: number;
  platformid?: string;
  page_num: number;
  page_size: number;
}): BuyOrderListQuery {
  return {
    pageNum: query.page_num,
    pageSize: query.page_size,
    ...(query.order_state !== undefined ? { orderState: query.order_state } : {}),
    ...(query.start_time !== undefined ? { startTime: query.start_time } : {}),
    ...(query.end_time !== undefined ? { endTime: query.end_time } : {}),
    ...(query.platformid !== undefined ? { platformid: query.platformid } : {}),
  };
}

/** The buy-order operations: create, list, cancel, supply (reference: Buy orders). */
export function registerBuyOrderRoutes(app: FastifyInstance): void {
  registerOperation(app, createOperation, ({ ctx, body }) => createBuyOrder(ctx, createInput(body)));
  registerOperation(app, listOperation, ({ ctx, query }) => listBuyOrders(ctx, listQuery(query)));
  registerOperation(app, cancelOperation, ({ ctx, body }) => cancelBuyOrders(ctx, body.buy_order_ids));
  registerOperation(app, supplyOperation, async ({ ctx, body }) => {
    const supplied = await supplyBuyOrder(ctx, { buyOrderId: body.buy_order_id, assetids: body.assets });
    if (!supplied.ok) return supplied;
    return ok({ ...supplied.value.results, bill_orders: supplied.value.billOrders });
  });
}

/** The sandbox runs a user's buy-order verbs as that user would. */
async function asUser<Value>(
  ctx: DomainContext,
  userId: string,
  run: (userCtx: DomainContext) => Promise<Result<Value>>,
): Promise<Result<Value>> {
  const user = await requireUser(ctx, Number(userId));
  if (!user.ok) return user;
  return run({ ...ctx, actor: { kind: "user", userId: user.value.userId } });
}

export function registerSandboxBuyOrderRoutes(app: FastifyInstance): void {
  registerOperation(app, sandboxCreateBuyOrder, ({ ctx, params, body }) =>
    asUser(ctx, params.user_id, (userCtx) => createBuyOrder(userCtx, createInput(body))),
  );
  registerOperation(app, sandboxListBuyOrders, ({ ctx, params, query }) =>
    asUser(ctx, params.user_id, (userCtx) => listBuyOrders(userCtx, listQuery(query))),
  );
  registerOperation(app, sandboxCancelBuyOrders, ({ ctx, params, body }) =>
    asUser(ctx, params.user_id, (userCtx) => cancelBuyOrders(userCtx, body.buy_order_ids)),
  );
}
