import type { Fen } from "@skinmarket/contract";
import type { UserAccountKind } from "../../storage/schema.ts";
import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { postJournalEntry } from "./ledger.ts";

export interface TransferFundsInput {
  kind: string;
  from: { userId: number; kind: UserAccountKind };
  to: { userId: number; kind: UserAccountKind };
  amount: Fen;
  reference?: string;
}

/**
 * Moves money between two user accounts in one entry (payments into escrow, payouts, refunds are
 * built from this). Refused, changing nothing, when the source holds less than the amount.
 */
export async function transferFunds(ctx: DomainContext, input: TransferFundsInput): Promise<Result<number>> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
    return fail("Invalid Argument", "amount: must be a positive whole number of fen");
  }
  if (input.from.userId === input.to.userId && input.from.kind === input.to.kind) {
    return fail("Invalid Argument", "to: must be another account than from");
  }
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const posted = await postJournalEntry(tx, {
      kind: input.kind,
      ...(input.reference ? { reference: input.reference } : {}),
      lines: [
        { account: input.from, amount: -input.amount },
        { account: input.to, amount: input.amount },
      ],
    });
    if (!posted.ok) return posted;
    await recordAudit(tx, {
      action: `wallet.${input.kind}`,
      subject: `user:${input.from.userId}`,
      details: { from: input.from, to: input.to, amount_fen: input.amount, entry_id: posted.value },
    });
    return ok(posted.value);
  });
}
