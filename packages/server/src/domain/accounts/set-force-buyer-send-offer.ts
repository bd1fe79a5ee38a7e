import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";

/**
 * The seller's account preference `force_buyer_send_offer` (docs/design/purchases-and-trades.md#offer-modes, offer
 * modes): while it is on, the trades opened on the seller's listings wait for the buyer's offer
 * (migration 0025 reads it when a trade opens); trades already open keep their mode.
 */
export async function setForceBuyerSendOffer(ctx: DomainContext, force: boolean) {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const userId = ctx.actor.userId;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    await tx.db
      .updateTable("users")
      .set({ force_buyer_send_offer: force, updated_at: tx.clock.now() })
      .where("user_id", "=", userId)
      .execute();
    await recordAudit(tx, {
      action: "user.force_buyer_send_offer",
      subject: `user:${userId}`,
      details: { force_buyer_send_offer: force },
    });
    return ok({ force_buyer_send_offer: force });
  });
}
