import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { decoyPasswordHash, verifyPassword } from "../password-hash.ts";
import { fail, ok, type Result } from "../result.ts";
import { generateSecret, sha256Hex } from "../secrets.ts";
import { forgetSignInFailures, signInKeys, takeSignInAttempt } from "../sessions/sign-in-throttle.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { STAFF_COLUMNS, staffMemberOf, type StaffMember } from "./staff-member.ts";

/** How long a staff session lasts: a working day, not a user's week. */
export const STAFF_SESSION_TTL_SECONDS = 12 * 3600;

/**
 * A staff member signs in with their address and password (docs/design/back-office.md#staff-sign-in),
 * throttled as users' sign-ins are (the account key is `staff:<address>`, apart from nicknames);
 * an unknown address costs the same hash as a wrong password; a disabled account is refused as a
 * wrong password is.
 */
export async function signInStaff(
  ctx: DomainContext,
  input: { email: string; password: string; clientAddress: string },
): Promise<Result<StaffMember & { sessionId: string; expiresAt: Date }>> {
  const keys = signInKeys(`staff:${input.email.trim().toLowerCase()}`, input.clientAddress);
  const attempt = await takeSignInAttempt(ctx, keys);
  if (!attempt.ok) return attempt;
  const row = await ctx.db
    .selectFrom("staff")
    .select([...STAFF_COLUMNS, "password_hash"])
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", input.email.normalize("NFC").trim().toLowerCase()))
    .executeTakeFirst();
  const checked = await verifyPassword(input.password, row?.password_hash ?? (await decoyPasswordHash()));
  if (!row || !checked.matches || row.disabled_at !== null) {
    await recordAudit(ctx, {
      action: "auth.refused",
      ...(row ? { subject: `staff:${row.staff_id}` } : {}),
      details: { reason: "bad credentials", via: "staff login" },
    });
    return fail("Unauthorized", "wrong address or password");
  }
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const sessionId = generateSecret();
    const now = tx.clock.now();
    const expiresAt = new Date(now.getTime() + STAFF_SESSION_TTL_SECONDS * 1000);
    await tx.db
      .insertInto("staff_sessions")
      .values({
        staff_id: row.staff_id,
        session_hash: sha256Hex(sessionId),
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
    await forgetSignInFailures(tx, keys);
    await recordAudit(tx, { action: "staff_session.create", subject: `staff:${row.staff_id}` });
    return ok({ ...staffMemberOf(row), sessionId, expiresAt });
  });
}

/** The staff member behind a `staff_session` cookie: the session live, the account not disabled. */
export async function resolveStaffSession(
  ctx: DomainContext,
  sessionId: string | undefined,
): Promise<Result<StaffMember>> {
  if (!sessionId) return fail("Login Required", "sign in to the back office first");
  const row = await ctx.db
    .selectFrom("staff_sessions")
    .innerJoin("staff", "staff.staff_id", "staff_sessions.staff_id")
    .select(["staff.staff_id", "staff.email", "staff.role", "staff.created_at", "staff.disabled_at"])
    .where("staff_sessions.session_hash", "=", sha256Hex(sessionId))
    .where("staff_sessions.revoked_at", "is", null)
    .where("staff_sessions.expires_at", ">", ctx.clock.now())
    .where("staff.disabled_at", "is", null)
    .executeTakeFirst();
  if (!row) return fail("Login Required", "the back-office session has ended; sign in again");
  return ok(staffMemberOf(row));
}

/** Ends a staff session, if it is one. */
export async function signOutStaff(ctx: DomainContext, sessionId: string | undefined): Promise<void> {
  if (!sessionId) return;
  await ctx.db
    .updateTable("staff_sessions")
    .set({ revoked_at: ctx.clock.now() })
    .where("session_hash", "=", sha256Hex(sessionId))
    .where("revoked_at", "is", null)
    .execute();
}
