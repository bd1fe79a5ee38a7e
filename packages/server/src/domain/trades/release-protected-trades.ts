import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { ok } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { postJournalEntry } from "../wallet/ledger.ts";

/**
 * The release job (docs/design/trade-protection.md#who-is-credited-when): a delivered trade whose
 * protection window has ended can no longer be reversed by the platform, so the seller's income
 * leaves their escrow for their balance, in one entry with `released_at`. Each trade is released
 * in its own transaction under the trade's row lock, the lock a reversal takes first: of a
 * reversal and the window's end at the same moment, whichever locks the trade first decides, and
 * the other finds it `FAIL` or released and does nothing.
 */
export async function releaseProtectedTrades(ctx: DomainContext): Promise<number> {
  const now = ctx.clock.now();
  const candidates = await ctx.db
    .selectFrom("trades")
    .select("trade_id")
    .where("state", "=", "SUCCESS")
    .where("released_at", "is", null)
    .where("protected_until", "<=", now)
    .orderBy("protected_until")
    .orderBy("trade_id")
    .limit(200)
    .execute();
  let released = 0;
  for (const { trade_id: tradeId } of candidates) {
    const outcome = await inTransaction(ctx, async (tx) => {
      noteNoMarketChange(tx);
      const at = tx.clock.now();
      const trade = await tx.db
        .updateTable("trades")
        .set({ released_at: at })
        .where("trade_id", "=", tradeId)
        .where("state", "=", "SUCCESS")
        .where("released_at", "is", null)
        .where("protected_until", "<=", at)
        .returning(["trade_id", "seller_id", "price", "fee"])
        .executeTakeFirst();
      if (!trade) return ok(false);
      const income = trade.price - trade.fee;
      if (income > 0) {
        const posted = await postJournalEntry(tx, {
          kind: "trade_release",
          reference: `trade:${trade.trade_id}`,
          lines: [
            { account: { userId: trade.seller_id, kind: "escrow" }, amount: -income },
            { account: { userId: trade.seller_id, kind: "balance" }, amount: income },
          ],
        });
        if (!posted.ok) return posted;
      }
      await recordAudit(tx, { action: "trade.release", subject: `trade:${trade.trade_id}` });
      return ok(true);
    });
    if (outcome.ok && outcome.value) released += 1;
  }
  return released;
}
