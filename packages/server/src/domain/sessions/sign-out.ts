import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { ok, type Result } from "../result.ts";
import { isWellFormedSessionId, sha256Hex } from "../secrets.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";

/** Ends the session behind the cookie. Signing out without a live session is not an error. */
export async function signOut(
  ctx: DomainContext,
  sessionId: string | undefined,
): Promise<Result<{ ended: boolean }>> {
  if (!sessionId || !isWellFormedSessionId(sessionId)) return ok({ ended: false });
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const ended = await tx.db
      .updateTable("web_sessions")
      .set({ revoked_at: tx.clock.now() })
      .where("session_hash", "=", sha256Hex(sessionId))
      .where("revoked_at", "is", null)
      .returning("user_id")
      .executeTakeFirst();
    if (ended) await recordAudit(tx, { action: "session.end", subject: `user:${ended.user_id}` });
    return ok({ ended: ended !== undefined });
  });
}
