import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { checkReason, recordStaffAction } from "./record-staff-action.ts";
import { requireStaff } from "./staff-roles.ts";

export interface FreezeState {
  trading: boolean;
  withdrawals: boolean;
}

/**
 * Freezes or unfreezes an account's trading and/or withdrawals (risk, admin;
 * docs/design/back-office-money.md#freezes): the verbs of trading and of withdrawing refuse a
 * frozen account naming the freeze, and the user's account info shows it. Recorded with the
 * reason and the state before and after.
 */
export async function freezeAccount(
  ctx: DomainContext,
  input: { userId: number; trading?: boolean; withdrawals?: boolean; reason: string },
): Promise<Result<FreezeState>> {
  const caller = requireStaff(ctx, "user.freeze");
  if (!caller.ok) return caller;
  if (input.trading === undefined && input.withdrawals === undefined)
    return invalidArgument("trading", "give trading, withdrawals or both");
  const reason = checkReason(input.reason);
  if (!reason.ok) return reason;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const user = await tx.db
      .selectFrom("users")
      .select(["trading_frozen_at", "withdrawals_frozen_at"])
      .where("user_id", "=", input.userId)
      .forUpdate()
      .executeTakeFirst();
    if (!user) return fail("Not Found", `user ${input.userId} does not exist`);
    const before: FreezeState = {
      trading: user.trading_frozen_at !== null,
      withdrawals: user.withdrawals_frozen_at !== null,
    };
    const after: FreezeState = {
      trading: input.trading ?? before.trading,
      withdrawals: input.withdrawals ?? before.withdrawals,
    };
    const now = tx.clock.now();
    await tx.db
      .updateTable("users")
      .set({
        trading_frozen_at: after.trading ? (user.trading_frozen_at ?? now) : null,
        withdrawals_frozen_at: after.withdrawals ? (user.withdrawals_frozen_at ?? now) : null,
      })
      .where("user_id", "=", input.userId)
      .execute();
    await recordStaffAction(tx, {
      staffId: caller.value.staffId,
      operation: "user.freeze",
      subject: `user:${input.userId}`,
      reason: reason.value,
      before,
      after,
    });
    return ok(after);
  });
}
