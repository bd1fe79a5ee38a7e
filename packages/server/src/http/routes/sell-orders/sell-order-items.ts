import {
  delistItems as delistOperation,
  listItems as listOperation,
  repriceItems as repriceOperation,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { delistItems, repriceItems } from "../../../domain/listings/change-listings.ts";
import { listItems } from "../../../domain/listings/list-items.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";

/** POST, DELETE and PUT /api/market/developer/sell_order/items: list, delist, reprice. */
export function registerSellOrderItems(app: FastifyInstance): void {
  registerOperation(app, listOperation, async ({ ctx, body }) => {
    const listed = await listItems(
      ctx,
      body.assets.map((asset) => ({
        assetid: asset.assetid,
        price: asset.price,
        ...(asset.allow_bargain !== undefined ? { allowBargain: asset.allow_bargain } : {}),
        ...(asset.allow_wallet_zft !== undefined ? { allowWalletZft: asset.allow_wallet_zft } : {}),
        ...(asset.allow_epay !== undefined ? { allowEpay: asset.allow_epay } : {}),
        ...(asset.allow_pending_divide_balance !== undefined
          ? { allowPendingDivideBalance: asset.allow_pending_divide_balance }
          : {}),
        ...(asset.force_buyer_send_offer !== undefined
          ? { forceBuyerSendOffer: asset.force_buyer_send_offer }
          : {}),
        ...(asset.description !== undefined ? { description: asset.description } : {}),
      })),
    );
    if (!listed.ok) return listed;
    return ok({ ...listed.value.results, sell_orders: listed.value.sellOrders });
  });

  registerOperation(app, delistOperation, ({ ctx, body }) => delistItems(ctx, body.sell_orders));

  registerOperation(app, repriceOperation, ({ ctx, body }) =>
    repriceItems(
      ctx,
      body.sell_orders.map((order) => ({ sellOrderId: order.sell_order_id, price: order.price })),
    ),
  );
}
