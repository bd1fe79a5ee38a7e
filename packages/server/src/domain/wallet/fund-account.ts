import { parseMoney } from "@skinmarket/contract";
import { recordAudit } from "../audit.ts";
import { requireUser } from "../users/require-user.ts";
import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { postJournalEntry, readUserBalances, type UserBalances } from "./ledger.ts";
import { refuseIfFrozen } from "../users/refuse-if-frozen.ts";

export type FundableAccount = "balance" | "margin" | "wallet";

export interface FundAccountInput {
  userId: number;
  account: FundableAccount;
  /** Yuan as given on the wire: a positive amount, whichever way it moves. */
  amount: unknown;
}

/**
 * A deposit from the outside world (the `external` account). The amount is positive: a negative
 * one is refused naming `amount`, never taken as a withdrawal, which is its own verb
 * (docs/design/money-and-ledger.md#deposits-and-withdrawals).
 */
export function fundAccount(ctx: DomainContext, input: FundAccountInput): Promise<Result<UserBalances>> {
  return moveFunds(ctx, input, "deposit");
}

/**
 * A withdrawal to the outside world. More than the account holds is refused with
 * `Insufficient Balance` and changes nothing.
 */
export function withdrawFunds(ctx: DomainContext, input: FundAccountInput): Promise<Result<UserBalances>> {
  return moveFunds(ctx, input, "withdrawal");
}

async function moveFunds(
  ctx: DomainContext,
  input: FundAccountInput,
  kind: "deposit" | "withdrawal",
): Promise<Result<UserBalances>> {
  if (ctx.actor.kind !== "admin")
    return fail("Access Denied", "only the sandbox admin moves money in and out");
  const parsed = parseMoney(input.amount, { allowNegative: false, allowZero: false });
  if (!parsed.ok) return invalidArgument("amount", parsed.reason);
  const amount = kind === "deposit" ? parsed.fen : -parsed.fen;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const user = await requireUser(tx, input.userId);
    if (!user.ok) return user;
    if (kind === "withdrawal") {
      const frozen = await refuseIfFrozen(tx, input.userId, "withdrawals");
      if (!frozen.ok) return frozen;
    }
    const posted = await postJournalEntry(tx, {
      kind,
      reference: `user:${input.userId}`,
      memo: { account: input.account },
      lines: [
        { account: { userId: input.userId, kind: input.account }, amount },
        { account: { system: "external" }, amount: -amount },
      ],
    });
    if (!posted.ok) return posted;
    await recordAudit(tx, {
      action: `wallet.${kind}`,
      subject: `user:${input.userId}`,
      details: { account: input.account, amount_fen: amount, entry_id: posted.value },
    });
    return ok(await readUserBalances(tx, input.userId));
  });
}
