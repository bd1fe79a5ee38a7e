import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { hashPassword } from "../password-hash.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { issueEmailConfirmation, mailEmailConfirmation } from "../sessions/email-confirmation.ts";
import { signInKeys, takeSignInAttempt } from "../sessions/sign-in-throttle.ts";
import { constraintName, inTransaction, noteNoMarketChange, sqlState } from "../transaction.ts";
import { openUserAccounts } from "../wallet/ledger.ts";

export interface SignUpInput {
  nickname: string;
  email: string;
  password: string;
  /** The website's page a confirmation link opens. */
  confirmPageUrl: string;
  /** Where the request came from: sign-ups are throttled per address and per client. */
  clientAddress: string;
}

/**
 * A person makes their own account (docs/design/back-office.md#accounts-for-people), sandbox on
 * or off: a `developer` user with its ledger accounts and an address to confirm before the first
 * password sign-in. An address already taken answers as a new one would and mails its owner a
 * notice instead, so that sign-up tells no one which addresses have accounts.
 */
export async function signUp(
  ctx: DomainContext,
  input: SignUpInput,
): Promise<Result<{ nickname: string; email: string }>> {
  if (!ctx.mail)
    return fail(
      "Invalid State",
      "sign-up needs a mail server to confirm addresses: the operator sets SMTP_URL (the sandbox keeps mails itself)",
    );
  const nickname = input.nickname.normalize("NFC");
  const email = input.email.normalize("NFC").trim();
  // Each sign-up mails someone: held back as failed sign-ins are, per address mailed and per
  // client (a budget of its own, apart from sign-in's), so that nobody floods an inbox or mints
  // accounts in bulk. Never forgotten on success.
  const attempt = await takeSignInAttempt(
    ctx,
    signInKeys(`signup:${email.toLowerCase()}`, `signup:${input.clientAddress}`),
  );
  if (!attempt.ok) return attempt;
  const taken = await ctx.db
    .selectFrom("users")
    .select(["user_id", "nickname"])
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()))
    .executeTakeFirst();
  if (taken) {
    await ctx.mail.send({
      to: email,
      subject: "Someone tried to sign up with your address",
      text: `Hello ${taken.nickname},\n\nsomeone tried to make a new skinmarket account with this address, which already has one. If it was you, sign in instead; otherwise there is nothing to do.\n`,
      sentAt: ctx.clock.now(),
    });
    return ok({ nickname, email });
  }
  const passwordHash = await hashPassword(input.password);
  let issued: Result<string>;
  try {
    issued = await inTransaction(ctx, async (tx) => {
      noteNoMarketChange(tx);
      const now = tx.clock.now();
      const { user_id: userId } = await tx.db
        .insertInto("users")
        .values({
          nickname,
          email,
          password_hash: passwordHash,
          access_level: "developer",
          created_at: now,
          updated_at: now,
        })
        .returning("user_id")
        .executeTakeFirstOrThrow();
      await openUserAccounts(tx, userId);
      await recordAudit(tx, {
        action: "user.create",
        subject: `user:${userId}`,
        details: { nickname, via: "sign-up" },
      });
      return ok(await issueEmailConfirmation(tx, { userId, email }));
    });
  } catch (error) {
    if (sqlState(error) === "23505" && constraintName(error) === "users_nickname_key")
      return invalidArgument("nickname", `"${nickname}" is already taken`);
    // The same address signed up twice at once: the second is the "already taken" case above.
    if (sqlState(error) === "23505" && constraintName(error) === "users_email_key")
      return ok({ nickname, email });
    throw error;
  }
  if (!issued.ok) return issued;
  await mailEmailConfirmation(ctx, {
    to: email,
    nickname,
    code: issued.value,
    pageUrl: input.confirmPageUrl,
  });
  return ok({ nickname, email });
}
