import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { DELIVERY_WINDOW_MS } from "../market/delivery-window.ts";
import { failTrade } from "./settle-trade.ts";

/** A buyer may cancel only after waiting this long for the seller's offer (reference: preconditions 1). */
export const CANCEL_AFTER_MS = 30 * 60 * 1000;

/**
 * When the buyer's wait for the offer began: when the seller could first deliver, at the sale, or
 * when a pre-sell item left its trade cooldown (its delivery time started then). The buyer may
 * cancel `CANCEL_AFTER_MS` later.
 */
export function waitingSince(trade: { deliver_by: Date | null; created_at: Date }): number {
  return trade.deliver_by ? trade.deliver_by.getTime() - DELIVERY_WINDOW_MS : trade.created_at.getTime();
}

/**
 * Cancels the caller's purchases that have waited at least 30 minutes for the seller's offer,
 * refunding each; every other id lands in `error_list` with the reason.
 */
export async function cancelPurchaseOrders(
  ctx: DomainContext,
  orderIds: string[],
): Promise<Result<{ success_list: string[]; error_list: Record<string, string> }>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const successList: string[] = [];
  const errorList: Record<string, string> = {};
  for (const id of new Set(orderIds)) {
    const cancelled = await cancelPurchaseOrder(ctx, id);
    if (cancelled.ok) successList.push(id);
    else errorList[id] = cancelled.failure.message;
  }
  return ok({ success_list: successList, error_list: errorList });
}

/**
 * Cancels one of the caller's purchases once it has waited 30 minutes for the seller's offer,
 * refunding it in the same transaction; `Not Found` for another user's or an unknown one,
 * `Invalid State` with the reason otherwise.
 */
export async function cancelPurchaseOrder(ctx: DomainContext, id: string): Promise<Result<unknown>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const buyerId = ctx.actor.userId;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const trade = await tx.db
      .selectFrom("trades")
      .selectAll()
      .where("trade_id", "=", Number(id))
      .where("buyer_id", "=", buyerId)
      .forUpdate()
      .executeTakeFirst();
    if (!trade) return fail("Not Found", "no purchase order of yours with this id");
    if (trade.state === "PAYING") return fail("Invalid State", "the card payment is being confirmed");
    if (trade.state !== "SELLER_TO_SEND_OFFER")
      return fail(
        "Invalid State",
        `the order is ${trade.state === "TRADING" ? "being delivered" : "finished"}`,
      );
    const waited = tx.clock.now().getTime() - waitingSince(trade);
    if (waited < CANCEL_AFTER_MS) {
      return fail(
        "Invalid State",
        waited < 0
          ? "the item is in trade cooldown; the seller cannot deliver it yet"
          : `the seller has until 30 minutes after the purchase to deliver; ${Math.ceil((CANCEL_AFTER_MS - waited) / 60_000)} min left`,
      );
    }
    return failTrade(tx, trade, "buyer_cancel");
  });
}
