import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { revokeUserCredentials } from "../tokens/revoke-user-credentials.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { checkReason, recordStaffAction } from "./record-staff-action.ts";
import { requireStaff } from "./staff-roles.ts";

/**
 * Ends every session and revokes every API token of a user (support, risk, admin), for an account
 * taken over or a token leaked; recorded with the reason and the counts before and after.
 */
export async function signOutUser(
  ctx: DomainContext,
  input: { userId: number; reason: string },
): Promise<Result<{ sessionsEnded: number; tokensRevoked: number }>> {
  const caller = requireStaff(ctx, "user.sign_out");
  if (!caller.ok) return caller;
  const reason = checkReason(input.reason);
  if (!reason.ok) return reason;
  const result = await inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const user = await tx.db
      .selectFrom("users")
      .select("user_id")
      .where("user_id", "=", input.userId)
      .executeTakeFirst();
    if (!user) return fail("Not Found", `user ${input.userId} does not exist`);
    const revoked = await revokeUserCredentials(tx, input.userId);
    await recordStaffAction(tx, {
      staffId: caller.value.staffId,
      operation: "user.sign_out",
      subject: `user:${input.userId}`,
      reason: reason.value,
      before: { live_sessions: revoked.sessionsEnded, live_tokens: revoked.tokensRevoked },
      after: { live_sessions: 0, live_tokens: 0 },
    });
    return ok(revoked);
  });
  if (result.ok) ctx.tokenCache?.forget();
  return result;
}
