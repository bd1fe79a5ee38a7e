import { createTransport, type Transporter } from "nodemailer";
import type { Mail, MailSender } from "../domain/mail-sender.ts";

/**
 * The mail port for a real marketplace (docs/design/back-office.md#the-mail-port): SMTP through
 * nodemailer (no dependencies of its own), to the server `SMTP_URL` names
 * (`smtps://user:password@mail.example.com:465`, or `smtp://...` with STARTTLS), from `MAIL_FROM`.
 */
export class SmtpMailSender implements MailSender {
  readonly kind = "smtp";
  readonly #transport: Transporter;
  readonly #from: string;

  constructor(options: { url: string; from: string }) {
    this.#transport = createTransport(options.url);
    this.#from = options.from;
  }

  async send(mail: Mail): Promise<void> {
    await this.#transport.sendMail({
      from: this.#from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      date: mail.sentAt,
    });
  }

  close(): void {
    this.#transport.close();
  }
}
