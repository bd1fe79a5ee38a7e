import type { DomainContext } from "../context.ts";
import { fail } from "../result.ts";
import { findLivePurchases } from "./ask-seller-to-send-offer.ts";

/**
 * `bill_order/notify_buyer_to_send_offer` (docs/design.md section 8): the buyer would send the
 * offer themselves. Trades here are delivered by the seller's offer only (the platform's sync
 * follows the offer the seller sent), so a live purchase of the caller's is refused with why;
 * the trade keeps waiting for the seller's offer.
 */
export async function notifyBuyerToSendOffer(ctx: DomainContext, id: number) {
  const found = await findLivePurchases(ctx, [id], "bill_order_id");
  if (!found.ok) return found;
  return fail(
    "Invalid State",
    "bill_order_id: the seller sends the trade offer of every trade here; this one waits for it",
  );
}
