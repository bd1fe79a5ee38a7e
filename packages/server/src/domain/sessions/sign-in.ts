import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { decoyPasswordHash, hashPassword, verifyPassword } from "../password-hash.ts";
import { generateSecret, sha256Hex } from "../secrets.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { issueEmailConfirmation, mailEmailConfirmation } from "./email-confirmation.ts";
import { recordSignIn, type SignInOrigin } from "./record-sign-in.ts";
import { forgetSignInFailures, signInKeys, takeSignInAttempt } from "./sign-in-throttle.ts";

export interface SignInInput extends SignInOrigin {
  nickname: string;
  password: string;
  sessionTtlSeconds: number;
  /** The page a confirmation link opens, for an account whose address is not confirmed yet. */
  confirmPageUrl: string;
}

export interface SignedIn {
  userId: number;
  nickname: string;
  /** The cookie value: answered once, stored only as its SHA-256 digest. */
  sessionId: string;
  expiresAt: Date;
}

/**
 * Web sign-in with nickname and password. A wrong password and an unknown nickname answer the
 * same `Unauthorized` after the same amount of work, so neither the text nor the timing tells
 * which nicknames exist. A password that matched a hash of an earlier scheme or other parameters
 * is hashed again with the current ones, in the transaction that opens the session. Tries beyond
 * the throttle's allowance are refused before any hash is computed (`sign-in-throttle.ts`).
 */
export async function signIn(ctx: DomainContext, input: SignInInput): Promise<Result<SignedIn>> {
  const keys = signInKeys(input.nickname, input.clientAddress);
  const attempt = await takeSignInAttempt(ctx, keys);
  if (!attempt.ok) return attempt;
  const user = await ctx.db
    .selectFrom("users")
    .select(["user_id", "nickname", "password_hash", "email", "email_confirmed_at", "closed_at"])
    .where((eb) => eb(eb.fn("lower", ["nickname"]), "=", input.nickname.normalize("NFC").toLowerCase()))
    .executeTakeFirst();
  const checked = await verifyPassword(input.password, user?.password_hash ?? (await decoyPasswordHash()));
  if (!user || !checked.matches) {
    await recordAudit(ctx, {
      action: "auth.refused",
      ...(user ? { subject: `user:${user.user_id}` } : {}),
      details: { reason: "bad credentials", via: "login" },
    });
    return fail("Unauthorized", "wrong nickname or password");
  }
  // Told only to whoever knows the password: a closed account, an address still to confirm.
  if (user.closed_at) return fail("Access Denied", "this account is closed");
  if (user.email !== null && user.email_confirmed_at === null) {
    const email = user.email;
    const issued = await inTransaction(ctx, async (tx) => {
      noteNoMarketChange(tx);
      return ok(await issueEmailConfirmation(tx, { userId: user.user_id, email }));
    });
    if (!issued.ok) return issued;
    await mailEmailConfirmation(ctx, {
      to: email,
      nickname: user.nickname,
      code: issued.value,
      pageUrl: input.confirmPageUrl,
    });
    return fail(
      "Access Denied",
      "email: confirm your address first; a new confirmation link was mailed to it",
    );
  }
  const rehashed = checked.needsRehash ? await hashPassword(input.password) : undefined;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    if (rehashed) {
      // Only over the hash just verified: a password changed meanwhile is not overwritten.
      await tx.db
        .updateTable("users")
        .set({ password_hash: rehashed })
        .where("user_id", "=", user.user_id)
        .where("password_hash", "=", user.password_hash)
        .execute();
    }
    const sessionId = generateSecret();
    const now = tx.clock.now();
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
    await forgetSignInFailures(tx, keys);
    await recordSignIn(tx, { ...input, userId: user.user_id, method: "password" });
    await recordAudit(tx, { action: "session.create", subject: `user:${user.user_id}` });
    return ok({ userId: user.user_id, nickname: user.nickname, sessionId, expiresAt });
  });
}
