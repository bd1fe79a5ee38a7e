import type { DomainContext } from "../context.ts";
import type { Result } from "../result.ts";
import { sendTradeOffer } from "./send-trade-offer.ts";

/**
 * The buyer sends the trade offer of a purchase whose offer is theirs to send (the website's
 * `manual_plus/buyer_send_offer`; docs/design/purchases-and-trades.md#offer-modes, offer modes): the offer asks the
 * seller's account for the bought item; the seller accepts it on the platform.
 */
export async function sendBuyerOffer(
  ctx: DomainContext,
  input: { tradeId: number; field: string },
): Promise<Result<Record<string, never>>> {
  return sendTradeOffer(ctx, { tradeId: input.tradeId, as: "buyer", field: input.field });
}
