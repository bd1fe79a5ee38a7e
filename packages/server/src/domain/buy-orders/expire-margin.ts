import { formatMoney } from "@skinmarket/contract";
import { sql } from "kysely";
import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { ok } from "../result.ts";
import { inTransaction, noteChangedGoods, noteNoMarketChange } from "../transaction.ts";
import { lockUserAccounts, postJournalEntry } from "../wallet/ledger.ts";

/** Buy-order funds (`margin`) last 150 days from their deposit (docs/design/money-and-ledger.md#money-and-the-ledger). */
export const MARGIN_LIFETIME_MS = 150 * 24 * 3600 * 1000;

const EXPIRED = "buy-order funds expired";

/**
 * Sends expired buy-order funds back to the outside world and cancels the buy orders the rest no
 * longer covers. Spending takes the oldest funds first, so what a user's margin holds beyond their
 * deposits of the last 150 days is old money, and expires. Each user in their own transaction,
 * recomputed under the lock of their accounts, so a second run (or another instance) finds nothing.
 * Answers the number of users whose funds expired.
 */
export async function expireMargin(ctx: DomainContext): Promise<number> {
  const since = new Date(ctx.clock.now().getTime() - MARGIN_LIFETIME_MS);
  const candidates = await sql<{ user_id: number }>`
    SELECT a.user_id FROM ledger_accounts a
    WHERE a.kind = 'margin' AND a.balance > 0
      AND a.balance > ${recentDeposits(since)}
    ORDER BY a.user_id
  `.execute(ctx.db);
  let expired = 0;
  for (const { user_id: userId } of candidates.rows) {
    const done = await inTransaction(ctx, async (tx) => {
      noteNoMarketChange(tx);
      // Orders before accounts, the order every fill takes its locks in.
      const orders = await tx.db
        .selectFrom("buy_orders")
        .select(["buy_order_id", "goods_id", "price", "num", "real_num", "frozen_num", "pay_method"])
        .where("user_id", "=", userId)
        .where("state", "=", "progressing")
        .orderBy("buy_order_id")
        .forUpdate()
        .execute();
      const { accounts, balances } = await lockUserAccounts(tx, userId, ["external"]);
      const margin = accounts.find((account) => account.kind === "margin")!;
      const recent = await sql<{ total: string }>`
        SELECT ${recentDeposits(since)}::text AS total
        FROM ledger_accounts a WHERE a.account_id = ${margin.account_id}
      `.execute(tx.db);
      const expiring = balances.margin - Number(recent.rows[0]!.total);
      if (expiring <= 0) return ok(false);
      const posted = await postJournalEntry(
        tx,
        {
          kind: "margin_expiry",
          reference: `user:${userId}`,
          lines: [
            { account: { userId, kind: "margin" }, amount: -expiring },
            { account: { system: "external" }, amount: expiring },
          ],
        },
        accounts,
      );
      if (!posted.ok) return posted;
      await recordAudit(tx, {
        action: "wallet.margin_expiry",
        subject: `user:${userId}`,
        details: { amount_fen: expiring, entry_id: posted.value },
      });
      const marginLeft = balances.margin - expiring;
      for (const order of orders) {
        const needed = order.price * (order.num - order.real_num - order.frozen_num);
        const available = order.pay_method === "margin" ? marginLeft : balances.balance + marginLeft;
        if (needed <= available) continue;
        noteChangedGoods(tx, [order.goods_id]);
        await tx.db
          .updateTable("buy_orders")
          .set({ state: "failed", fail_reason: EXPIRED, updated_at: tx.clock.now() })
          .where("buy_order_id", "=", order.buy_order_id)
          .execute();
        await recordAudit(tx, {
          action: "buy_order.cancel",
          subject: `buy_order:${order.buy_order_id}`,
          details: { reason: EXPIRED, needed: formatMoney(needed), available: formatMoney(available) },
        });
      }
      return ok(true);
    });
    if (done.ok && done.value) expired += 1;
  }
  return expired;
}

/** The deposits into the margin account `a` since a moment (a correlated SQL expression). */
function recentDeposits(since: Date) {
  return sql<number>`(
    SELECT COALESCE(SUM(l.amount), 0) FROM journal_lines l
    JOIN journal_entries e ON e.entry_id = l.entry_id
    WHERE l.account_id = a.account_id AND e.kind = 'deposit' AND l.amount > 0 AND e.created_at > ${since}
  )`;
}
