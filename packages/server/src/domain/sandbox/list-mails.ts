import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";

export interface SandboxMail {
  mailId: number;
  sentAt: Date;
  to: string;
  subject: string;
  text: string;
}

/** The sandbox mailbox's mails, newest first (docs/design/back-office.md#the-mail-port). */
export async function listSandboxMails(
  ctx: DomainContext,
  input: { to?: string; limit: number },
): Promise<Result<SandboxMail[]>> {
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin reads the mailbox");
  let query = ctx.db.selectFrom("sandbox_mails").selectAll().orderBy("mail_id", "desc").limit(input.limit);
  if (input.to !== undefined)
    query = query.where((eb) => eb(eb.fn("lower", ["recipient"]), "=", input.to!.toLowerCase()));
  const rows = await query.execute();
  return ok(
    rows.map((row) => ({
      mailId: row.mail_id,
      sentAt: row.sent_at,
      to: row.recipient,
      subject: row.subject,
      text: row.body,
    })),
  );
}
