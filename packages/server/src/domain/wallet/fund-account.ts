import { parseMoney } from "@skinmarket/contract";
import { recordAudit } from "../audit.ts";
import { requireUser } from "../users/require-user.ts";
import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { postJournalEntry, readUserBalances, type UserBalances } from "./ledger.ts";

export type FundableAccount = "balance" | "margin" | "wallet";

export interface FundAccountInput {
  userId: number;
  account: FundableAccount;
  /** Yuan as given on the wire; positive deposits, negative withdraws. */
  amount: unknown;
}

/**
 * A deposit from, or a withdrawal to, the outside world (the `external` account). A withdrawal
 * larger than the account holds is refused with `Insufficient Balance` and changes nothing.
 */
export async function fundAccount(
  ctx: DomainContext,
  input: FundAccountInput,
): Promise<Result<UserBalances>> {
  if (ctx.actor.kind !== "admin")
    return fail("Access Denied", "only the sandbox admin moves money in and out");
  const parsed = parseMoney(input.amount, { allowNegative: true, allowZero: false });
  if (!parsed.ok) return invalidArgument("amount", parsed.reason);
  const amount = parsed.fen;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const user = await requireUser(tx, input.userId);
    if (!user.ok) return user;
    const posted = await postJournalEntry(tx, {
      kind: amount > 0 ? "deposit" : "withdrawal",
      reference: `user:${input.userId}`,
      memo: { account: input.account },
      lines: [
        { account: { userId: input.userId, kind: input.account }, amount },
        { account: { system: "external" }, amount: -amount },
      ],
    });
    if (!posted.ok) return posted;
    await recordAudit(tx, {
      action: amount > 0 ? "wallet.deposit" : "wallet.withdrawal",
      subject: `user:${input.userId}`,
      details: { account: input.account, amount_fen: amount, entry_id: posted.value },
    });
    return ok(await readUserBalances(tx, input.userId));
  });
}
