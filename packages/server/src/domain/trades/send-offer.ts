import type { DomainContext } from "../context.ts";
import type { Result } from "../result.ts";
import { sendTradeOffer } from "./send-trade-offer.ts";

/**
 * The seller sends the trade offer for a sold item (reference: sell_order/send_offer; the
 * website's `manual_plus/seller_send_offer`): the trade must be the caller's sale, in
 * `SELLER_TO_SEND_OFFER`, and its offer the seller's to send.
 */
export async function sendOffer(
  ctx: DomainContext,
  input: { orderId: string; field?: string },
): Promise<Result<Record<string, never>>> {
  return sendTradeOffer(ctx, {
    tradeId: Number(input.orderId),
    as: "seller",
    field: input.field ?? "order_id",
  });
}
