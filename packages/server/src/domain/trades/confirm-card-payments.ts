import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { ok } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { postJournalEntry } from "../wallet/ledger.ts";
import { DELIVERY_WINDOW_MS } from "../market/delivery-window.ts";
import { failTrade } from "./settle-trade.ts";

/** The sandbox card network answers this long after the purchase, by the marketplace clock. */
export const CARD_CONFIRMATION_MS = 5000;

/**
 * The card payments job (docs/design/purchases-and-trades.md#the-trade-lifecycle): a trade in `PAYING` for at least five seconds
 * is paid (the money enters the buyer's escrow from outside and the seller's delivery time starts)
 * or, when the buyer's sandbox card declines, fails with `payment_failed`. Each trade settles in its
 * own transaction, taken with `FOR UPDATE SKIP LOCKED`.
 */
export async function confirmCardPayments(ctx: DomainContext): Promise<number> {
  const due = new Date(ctx.clock.now().getTime() - CARD_CONFIRMATION_MS);
  const candidates = await ctx.db
    .selectFrom("trades")
    .select("trade_id")
    .where("state", "=", "PAYING")
    .where("created_at", "<=", due)
    .orderBy("trade_id")
    .limit(200)
    .execute();
  let settled = 0;
  for (const { trade_id: tradeId } of candidates) {
    const outcome = await inTransaction(ctx, async (tx) => {
      noteNoMarketChange(tx);
      const trade = await tx.db
        .selectFrom("trades")
        .selectAll()
        .where("trade_id", "=", tradeId)
        .where("state", "=", "PAYING")
        .forUpdate()
        .skipLocked()
        .executeTakeFirst();
      if (!trade) return ok(false);
      const card = await tx.db
        .selectFrom("sandbox_cards")
        .select("declines")
        .where("user_id", "=", trade.buyer_id)
        .executeTakeFirst();
      if (card?.declines) {
        const failed = await failTrade(tx, trade, "payment_failed");
        return failed.ok ? ok(true) : failed;
      }
      const paid = await postJournalEntry(tx, {
        kind: "card_payment",
        reference: `trade:${trade.trade_id}`,
        lines: [
          { account: { system: "external" }, amount: -trade.price },
          { account: { userId: trade.buyer_id, kind: "escrow" }, amount: trade.price },
        ],
      });
      if (!paid.ok) return paid;
      const now = tx.clock.now();
      await tx.db
        .updateTable("trades")
        .set({
          state: "SELLER_TO_SEND_OFFER",
          deliver_by: new Date(now.getTime() + DELIVERY_WINDOW_MS),
          updated_at: now,
        })
        .where("trade_id", "=", trade.trade_id)
        .execute();
      await recordAudit(tx, {
        action: "trade.paid",
        subject: `trade:${trade.trade_id}`,
        details: { entry_id: paid.value },
      });
      return ok(true);
    });
    if (outcome.ok && outcome.value) settled += 1;
  }
  return settled;
}
