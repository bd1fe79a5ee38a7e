import type { Kysely } from "kysely";
import type { Mail, MailSender } from "../domain/mail-sender.ts";
import type { Database } from "../storage/schema.ts";

/**
 * The sandbox's mail port (docs/design/back-office.md#the-mail-port): every mail is kept in
 * `sandbox_mails`, on the database every instance shares, where `GET /sandbox/mails` and the
 * console read it. Nothing leaves the machine.
 */
export class SandboxMailbox implements MailSender {
  readonly kind = "sandbox";
  readonly #db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async send(mail: Mail): Promise<void> {
    await this.#db
      .insertInto("sandbox_mails")
      .values({ sent_at: mail.sentAt, recipient: mail.to, subject: mail.subject, body: mail.text })
      .execute();
  }
}
