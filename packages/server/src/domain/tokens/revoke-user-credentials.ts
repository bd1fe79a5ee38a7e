import type { DomainContext } from "../context.ts";
import { tokensChanged } from "./tokens-changed.ts";

/**
 * Ends every website session and revokes every API token of a user, in the caller's transaction
 * (closing an account, a staff member signing a user out). Other instances forget the tokens once
 * it commits; the caller empties this instance's cache after the commit (`ctx.tokenCache?.forget()`).
 */
export async function revokeUserCredentials(
  tx: DomainContext,
  userId: number,
): Promise<{ sessionsEnded: number; tokensRevoked: number }> {
  const now = tx.clock.now();
  const sessions = await tx.db
    .updateTable("web_sessions")
    .set({ revoked_at: now })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .where("expires_at", ">", now)
    .executeTakeFirst();
  const tokens = await tx.db
    .updateTable("api_tokens")
    .set({ revoked_at: now })
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .executeTakeFirst();
  await tokensChanged(tx);
  return { sessionsEnded: Number(sessions.numUpdatedRows), tokensRevoked: Number(tokens.numUpdatedRows) };
}
