import { cancelWebSellOrders, changeWebSellOrders, createWebSellOrders } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { delistItems, repriceItems } from "../../../domain/listings/change-listings.ts";
import { listItems } from "../../../domain/listings/list-items.ts";
import { registerOperation } from "../../operation-route.ts";
import { internalAnswer } from "./internal-answer.ts";
import { webPrice } from "./web-price.ts";

/**
 * The website's selling writes, on the official operations' verbs: each item is listed, repriced
 * or delisted on its own, and `data` maps each assetid or sell order id to "OK" or why not.
 * The fields of the tools the marketplace has no use for (income, classid, reward points...) are
 * accepted and ignored (docs/design/website-account-and-selling-routes.md#the-websites-selling-routes).
 */
export function registerWebSellOrderWrites(app: FastifyInstance): void {
  registerOperation(app, createWebSellOrders, async ({ ctx, body }) => {
    const listed = await listItems(
      ctx,
      body.assets.map((asset) => ({
        assetid: asset.assetid,
        price: webPrice(asset.price),
        ...(asset.desc !== undefined ? { description: asset.desc } : {}),
      })),
    );
    // Only the per-item outcomes: the tools count every other key of `data` as a refusal.
    return internalAnswer(listed.ok ? { ok: true, value: listed.value.results } : listed);
  });

  registerOperation(app, changeWebSellOrders, async ({ ctx, body }) =>
    internalAnswer(
      await repriceItems(
        ctx,
        body.sell_orders.map((order) => ({ sellOrderId: order.sell_order_id, price: webPrice(order.price) })),
      ),
    ),
  );

  registerOperation(app, cancelWebSellOrders, async ({ ctx, body }) => {
    const excluded = new Set(body.exclude_sell_orders ?? []);
    const ids = body.sell_orders.filter((id) => !excluded.has(id));
    const delisted = ids.length === 0 ? { ok: true as const, value: {} } : await delistItems(ctx, ids);
    return internalAnswer(delisted);
  });
}
