import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { hashPassword } from "../password-hash.ts";
import { fail, ok, type Result } from "../result.ts";
import { generateSecret, sha256Hex } from "../secrets.ts";
import type { SignedIn } from "../sessions/sign-in.ts";
import { recordSignIn, type SignInOrigin } from "../sessions/record-sign-in.ts";
import { NONCE_SKEW_MS, type VerifiedSteamAssertion } from "../sessions/steam-openid-assertion.ts";
import { constraintName, inTransaction, noteNoMarketChange, sqlState } from "../transaction.ts";
import { openUserAccounts } from "../wallet/ledger.ts";

/**
 * Opens a website session for the Steam account of a verified assertion
 * (docs/design/security.md#sign-in-through-steam). The first sign-in of a steamid makes the
 * marketplace account (nickname `steam-<steamid>`, ledger accounts, no usable password) and binds
 * the Steam account to it, as the peers sign users up; later ones sign in to the account the
 * steamid is bound to. The nonce is recorded in the same transaction, so an assertion signs in
 * once however many instances it is shown to.
 */
export async function signInThroughSteam(
  ctx: DomainContext,
  input: VerifiedSteamAssertion & Partial<SignInOrigin> & { sessionTtlSeconds: number; wallNow: Date },
): Promise<Result<SignedIn & { created: boolean }>> {
  // Hashed outside the transaction (a worker's work), and only ever checked against by nobody:
  // the account signs in through Steam until its owner sets a password.
  const unusablePassword = await hashPassword(generateSecret());
  const attempt = () =>
    inTransaction(ctx, async (tx) => {
      noteNoMarketChange(tx);
      await tx.db
        .deleteFrom("steam_openid_nonces")
        .where("used_at", "<", new Date(input.wallNow.getTime() - 2 * NONCE_SKEW_MS))
        .execute();
      const fresh = await tx.db
        .insertInto("steam_openid_nonces")
        .values({ nonce: input.nonce, used_at: input.wallNow })
        .onConflict((conflict) => conflict.column("nonce").doNothing())
        .returning("nonce")
        .executeTakeFirst();
      if (!fresh)
        return fail("Unauthorized", "Steam sign-in refused: openid.response_nonce was already used");
      const bound = await tx.db
        .selectFrom("bound_platform_accounts")
        .innerJoin("users", "users.user_id", "bound_platform_accounts.user_id")
        .select(["users.user_id", "users.nickname", "users.closed_at"])
        .where("bound_platform_accounts.platformid", "=", input.steamid)
        .executeTakeFirst();
      if (bound?.closed_at) return fail("Access Denied", "this account is closed");
      const now = tx.clock.now();
      let user: { user_id: number; nickname: string } | undefined = bound;
      if (!user) {
        user = await tx.db
          .insertInto("users")
          .values({
            nickname: `steam-${input.steamid}`,
            password_hash: unusablePassword,
            access_level: "developer",
            created_at: now,
            updated_at: now,
          })
          .returning(["user_id", "nickname"])
          .executeTakeFirstOrThrow();
        await openUserAccounts(tx, user.user_id);
        await tx.db
          .insertInto("bound_platform_accounts")
          .values({ platformid: input.steamid, user_id: user.user_id, bound_at: now })
          .execute();
        await recordAudit(tx, {
          action: "user.create",
          subject: `user:${user.user_id}`,
          details: { nickname: user.nickname, via: "steam", platformid: input.steamid },
        });
      }
      const sessionId = generateSecret();
      const expiresAt = new Date(now.getTime() + input.sessionTtlSeconds * 1000);
      await tx.db
        .insertInto("web_sessions")
        .values({
          user_id: user.user_id,
          session_hash: sha256Hex(sessionId),
          created_at: now,
          expires_at: expiresAt,
        })
        .execute();
      await recordAudit(tx, {
        action: "session.create",
        subject: `user:${user.user_id}`,
        details: { via: "steam", platformid: input.steamid },
      });
      await recordSignIn(tx, {
        clientAddress: input.clientAddress ?? "",
        userAgent: input.userAgent,
        userId: user.user_id,
        method: "steam",
      });
      return ok({ userId: user.user_id, nickname: user.nickname, sessionId, expiresAt, created: !bound });
    });
  // Two first sign-ins of one steamid at once: the nickname's and the binding's keys let one make
  // the account; the other rolled back with its nonce, so it tries once more and signs in to it.
  try {
    return await attempt();
  } catch (error) {
    if (sqlState(error) !== "23505") throw error;
  }
  try {
    return await attempt();
  } catch (error) {
    if (sqlState(error) === "23505" && constraintName(error) === "users_nickname_key")
      return fail("Invalid State", `the nickname steam-${input.steamid} is taken by another account`);
    throw error;
  }
}
