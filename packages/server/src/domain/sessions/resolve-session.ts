import type { AccessLevel, BuyOrderStatus } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { isWellFormedSessionId, sha256Hex } from "../secrets.ts";

export interface SessionUser {
  userId: number;
  nickname: string;
  accessLevel: AccessLevel;
  buyOrderStatus: BuyOrderStatus;
  createdAt: Date;
  /** When the session ends (fixed at sign-in; answers do not extend it). */
  expiresAt: Date;
}

/** The user behind a `session` cookie, if the session exists, is not revoked and has not expired. */
export async function resolveSession(
  ctx: DomainContext,
  sessionId: string | undefined,
): Promise<Result<SessionUser>> {
  if (!sessionId || !isWellFormedSessionId(sessionId)) return fail("Login Required", "sign in first");
  const row = await ctx.db
    .selectFrom("web_sessions")
    .innerJoin("users", "users.user_id", "web_sessions.user_id")
    .select([
      "users.user_id",
      "users.nickname",
      "users.access_level",
      "users.buy_order_status",
      "users.created_at",
      "web_sessions.expires_at",
    ])
    .where("web_sessions.session_hash", "=", sha256Hex(sessionId))
    .where("web_sessions.revoked_at", "is", null)
    .where("web_sessions.expires_at", ">", ctx.clock.now())
    .executeTakeFirst();
  if (!row) return fail("Login Required", "the session has ended; sign in again");
  return ok({
    userId: row.user_id,
    nickname: row.nickname,
    accessLevel: row.access_level,
    buyOrderStatus: row.buy_order_status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  });
}
