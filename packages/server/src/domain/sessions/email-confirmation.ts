import type { DomainContext } from "../context.ts";
import { generateSecret, sha256Hex } from "../secrets.ts";

/** How long a confirmation code works (docs/design/back-office.md#accounts-for-people). */
export const CONFIRMATION_TTL_MS = 24 * 3600 * 1000;

/**
 * A fresh code that confirms `email` for the user: 256 random bits, kept only as SHA-256, good for
 * a day and once. Written in the caller's transaction; mailed after it commits
 * (`mailEmailConfirmation`).
 */
export async function issueEmailConfirmation(
  tx: DomainContext,
  input: { userId: number; email: string },
): Promise<string> {
  const code = generateSecret();
  const now = tx.clock.now();
  await tx.db
    .insertInto("email_confirmations")
    .values({
      code_hash: sha256Hex(code),
      user_id: input.userId,
      email: input.email,
      created_at: now,
      expires_at: new Date(now.getTime() + CONFIRMATION_TTL_MS),
    })
    .execute();
  return code;
}

/** Mails the link of a confirmation code through the mail port, to the page that posts it back. */
export async function mailEmailConfirmation(
  ctx: DomainContext,
  input: { to: string; nickname: string; code: string; pageUrl: string },
): Promise<void> {
  const link = `${input.pageUrl}?code=${encodeURIComponent(input.code)}`;
  await ctx.mail?.send({
    to: input.to,
    subject: "Confirm your skinmarket address",
    text: `Hello ${input.nickname},\n\nconfirm this address to sign in to skinmarket:\n\n${link}\n\nThe link works once, for 24 hours. If you did not sign up, ignore this mail.\n`,
    sentAt: ctx.clock.now(),
  });
}
