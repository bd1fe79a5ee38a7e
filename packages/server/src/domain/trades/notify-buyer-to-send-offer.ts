import type { DomainContext } from "../context.ts";
import { fail, ok } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { chooseOfferSender, lockLivePurchases } from "./ask-seller-to-send-offer.ts";

/**
 * `bill_order/notify_buyer_to_send_offer` (docs/design/purchases-and-trades.md#offer-modes, offer modes): the buyer
 * takes on sending the offer of a purchase whose offer is not out yet; they then send it with
 * `manual_plus/buyer_send_offer`, and the seller's `send_offer` is refused from then on.
 */
export async function notifyBuyerToSendOffer(ctx: DomainContext, id: number) {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const buyerId = ctx.actor.userId;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const locked = await lockLivePurchases(tx, buyerId, [id], "bill_order_id");
    if (!locked.ok) return locked;
    const trade = locked.value[0]!;
    if (trade.state === "TRADING")
      return fail(
        "Invalid State",
        `bill_order_id: the ${trade.offer_sender}'s offer of trade ${id} is already out`,
      );
    await chooseOfferSender(tx, [trade], "buyer");
    return ok(undefined);
  });
}
