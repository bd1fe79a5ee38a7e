/** One mail to one person: plain text, no attachments. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  /** When the domain sent it (its clock: the sandbox's moves). */
  sentAt: Date;
}

/**
 * The mail port (docs/design/back-office.md#the-mail-port): how the domain reaches people by mail
 * (the confirmation of an address, notices about an account). Two implementations live outside
 * the domain, in `src/mail/`: the sandbox's mailbox, which keeps every mail in the database for
 * the sandbox API and the console to show, and an SMTP sender for a real marketplace. A send that
 * fails throws; callers send after their transaction commits, so a mail never speaks of a change
 * that rolled back.
 */
export interface MailSender {
  /** `sandbox` keeps mails readable in the sandbox; `smtp` hands them to a mail server. */
  readonly kind: "sandbox" | "smtp";
  send(mail: Mail): Promise<void>;
}
