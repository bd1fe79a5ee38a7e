import { sandboxListMails as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { toUnixSeconds } from "../../../domain/clock.ts";
import { ok } from "../../../domain/result.ts";
import { listSandboxMails } from "../../../domain/sandbox/list-mails.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerSandboxMails(app: FastifyInstance): void {
  registerOperation(app, operation, async ({ ctx, query }) => {
    const mails = await listSandboxMails(ctx, { limit: query.limit, ...(query.to ? { to: query.to } : {}) });
    if (!mails.ok) return mails;
    const items = mails.value.map((mail) => ({
      mail_id: String(mail.mailId),
      sent_at: toUnixSeconds(mail.sentAt),
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
    }));
    return ok({ items });
  });
}
