import { formatMoney, parseMoney, type Fen } from "@skinmarket/contract";
import type { StaffRole } from "../../storage/schema.ts";
import type { DomainContext, MarketRules } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { lockUserAccounts, postJournalEntry } from "../wallet/ledger.ts";
import { checkReason, recordStaffAction } from "./record-staff-action.ts";
import { requireStaff } from "./staff-roles.ts";

export type AdjustmentDirection = "credit" | "debit";

export interface AdjustBalanceInput {
  userId: number;
  direction: AdjustmentDirection;
  /** Yuan as given on the wire: positive; the direction is `direction`, never the sign. */
  amount: unknown;
  reason: string;
}

export interface Adjustment {
  entryId: number;
  direction: AdjustmentDirection;
  amount: Fen;
  balanceBefore: Fen;
  balanceAfter: Fen;
}

/**
 * How much a role may move by hand in one adjustment, and which way
 * (docs/design/back-office-money.md#adjustments): support gives goodwill credits only, up to
 * `SUPPORT_CREDIT_LIMIT`; finance adjusts either way up to `FINANCE_ADJUST_LIMIT`; admins have no
 * limit. Null: the role may not move money this way at all.
 */
export function adjustLimitFen(
  rules: MarketRules,
  role: StaffRole,
  direction: AdjustmentDirection,
): number | null {
  if (role === "admin") return Number.MAX_SAFE_INTEGER;
  if (role === "finance") return rules.financeAdjustLimitFen;
  if (role === "support") return direction === "credit" ? rules.supportCreditLimitFen : null;
  return null;
}

/**
 * Credits or debits a user's `balance` by hand against the house's `adjustments` account: one
 * balanced journal entry and its staff action, in one transaction. A debit never takes the
 * balance below zero (Insufficient Balance, nothing written).
 */
export async function adjustBalance(
  ctx: DomainContext,
  input: AdjustBalanceInput,
): Promise<Result<Adjustment>> {
  const caller = requireStaff(ctx, "money.adjust");
  if (!caller.ok) return caller;
  const reason = checkReason(input.reason);
  if (!reason.ok) return reason;
  const parsed = parseMoney(input.amount, { allowNegative: false, allowZero: false });
  if (!parsed.ok) return invalidArgument("amount", parsed.reason);
  const limit = adjustLimitFen(ctx.rules, caller.value.role, input.direction);
  if (limit === null)
    return fail(
      "Access Denied",
      `the ${caller.value.role} role may not ${input.direction} a balance by hand`,
    );
  if (parsed.fen > limit)
    return fail(
      "Access Denied",
      `amount: the ${caller.value.role} role may ${input.direction} at most ${formatMoney(limit)} by hand`,
    );
  const amount = parsed.fen;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const user = await tx.db
      .selectFrom("users")
      .select("closed_at")
      .where("user_id", "=", input.userId)
      .executeTakeFirst();
    if (!user) return fail("Not Found", `user ${input.userId} does not exist`);
    // A closed account had nothing left in it, and nobody can spend or withdraw what lands there.
    if (user.closed_at !== null) return fail("Invalid State", "user_id: the account is closed");
    const { accounts, balances } = await lockUserAccounts(tx, input.userId, ["adjustments"]);
    const change = input.direction === "credit" ? amount : -amount;
    const posted = await postJournalEntry(
      tx,
      {
        kind: "adjustment",
        reference: `user:${input.userId}`,
        memo: { direction: input.direction, staff_id: caller.value.staffId },
        lines: [
          { account: { userId: input.userId, kind: "balance" }, amount: change },
          { account: { system: "adjustments" }, amount: -change },
        ],
      },
      accounts,
    );
    if (!posted.ok) return posted;
    const adjustment: Adjustment = {
      entryId: posted.value,
      direction: input.direction,
      amount,
      balanceBefore: balances.balance,
      balanceAfter: balances.balance + change,
    };
    await recordStaffAction(tx, {
      staffId: caller.value.staffId,
      operation: "money.adjust",
      subject: `user:${input.userId}`,
      reason: reason.value,
      before: { balance: formatMoney(adjustment.balanceBefore) },
      after: {
        balance: formatMoney(adjustment.balanceAfter),
        direction: input.direction,
        amount: formatMoney(amount),
        entry_id: posted.value,
      },
    });
    return ok(adjustment);
  });
}
