import { Type } from "typebox";
import { IdString, InternalOk, Nickname, StrictObject, Text, UnixSeconds } from "../common.ts";
import { defineOperation } from "../operation.ts";

/**
 * Accounts for people (docs/design/back-office.md#accounts-for-people): signing up with an address
 * to confirm, confirming it, the sign-in history, and closing the account.
 */
const web = { envelope: "internal", tags: ["Web account"] } as const;

/** An email address: one `@`, a dot in the domain, no spaces; compared regardless of case. */
export const EmailAddress = Type.String({
  minLength: 3,
  maxLength: 254,
  pattern: "^[^\\s@\\p{Cc}]+@[^\\s@\\p{Cc}]+\\.[^\\s@\\p{Cc}]+$",
  description: "an email address",
  examples: ["trader@example.com"],
});

/** A new password: 10 to 256 characters (OWASP's length rule; no composition rules). */
export const NewPassword = Text({ minLength: 10, maxLength: 256, description: "10 to 256 characters" });

export const signUp = defineOperation({
  ...web,
  id: "signUp",
  method: "POST",
  path: "/account/api/signup",
  access: "public",
  summary:
    "Makes an account with a nickname, an email address and a password, and mails a link to confirm the address",
  description:
    "The account signs in once the address is confirmed (`confirmEmail`). An address already in use answers the same as a new one and mails its owner a notice instead, so the answer tells nobody which addresses have accounts; a nickname in use is refused (nicknames are public).",
  body: StrictObject({ nickname: Nickname, email: EmailAddress, password: NewPassword }),
  response: InternalOk({ nickname: Type.String(), email: Type.String(), confirmation_sent: Type.Boolean() }),
});

export const confirmEmail = defineOperation({
  ...web,
  id: "confirmEmail",
  method: "POST",
  path: "/account/api/email/confirm",
  access: "public",
  summary: "Confirms an account's email address with the code its confirmation link carries",
  description:
    "A code works once, for 24 hours; signing in with the password of an unconfirmed account mails a fresh one.",
  body: StrictObject({
    code: Type.String({ pattern: "^[A-Za-z0-9_-]{43}$", description: "the link's `code`" }),
  }),
  response: InternalOk({ user_id: IdString, nickname: Type.String(), email: Type.String() }),
});

export const SignInRecord = Type.Object({
  signed_in_at: UnixSeconds,
  ip: Type.String(),
  user_agent: Type.String(),
  method: Type.Union([Type.Literal("password"), Type.Literal("steam")]),
});

export const listSignIns = defineOperation({
  ...web,
  id: "listSignIns",
  method: "GET",
  path: "/account/api/sign_ins",
  access: "session",
  summary: "The signed-in user's sign-ins, newest first: when, from which address, with which browser, how",
  querystring: StrictObject({ limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }) }),
  response: InternalOk({ items: Type.Array(SignInRecord) }),
});

export const closeAccount = defineOperation({
  ...web,
  id: "closeAccount",
  method: "POST",
  path: "/account/api/close",
  access: "session",
  summary: "Closes the signed-in account: every session and API token ends, and it signs in no more",
  description:
    "Refused while the account holds money or has anything open: listings on sale, live trades, buy orders. The account's nickname is typed again as `nickname`, so that no click closes an account by mistake (Steam accounts have no password to ask for).",
  body: StrictObject({ nickname: Nickname }),
  response: InternalOk({ user_id: IdString, closed_at: UnixSeconds }),
});

const SandboxMail = Type.Object({
  mail_id: IdString,
  sent_at: UnixSeconds,
  to: Type.String(),
  subject: Type.String(),
  text: Type.String(),
});

export const sandboxListMails = defineOperation({
  id: "sandboxListMails",
  access: "sandbox_admin",
  envelope: "sandbox",
  tags: ["Sandbox"],
  method: "GET",
  path: "/sandbox/mails",
  summary: "The mails the marketplace sent, newest first, as the sandbox's mailbox keeps them",
  querystring: StrictObject({
    to: Type.Optional(Text({ maxLength: 254, description: "only mails to this address (any case)" })),
    limit: Type.Integer({ minimum: 1, maximum: 200, default: 50 }),
  }),
  response: Type.Object({ items: Type.Array(SandboxMail) }),
});
