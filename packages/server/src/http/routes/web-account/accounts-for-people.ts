import { closeAccount, confirmEmail, listSignIns, signUp } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { closeAccount as closeAccountVerb } from "../../../domain/accounts/close-account.ts";
import { confirmEmail as confirmEmailVerb } from "../../../domain/accounts/confirm-email.ts";
import { listSignIns as listSignInsVerb } from "../../../domain/accounts/list-sign-ins.ts";
import { signUp as signUpVerb } from "../../../domain/accounts/sign-up.ts";
import { toUnixSeconds } from "../../../domain/clock.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";
import { SESSION_COOKIE } from "../../plugins/auth.ts";
import { CSRF_COOKIE } from "../../plugins/csrf.ts";
import { confirmEmailPage } from "./confirm-email-page.ts";

/** Sign-up, address confirmation, the sign-in history and closing (docs/design/back-office.md#accounts-for-people). */
export function registerAccountsForPeople(app: FastifyInstance): void {
  registerOperation(app, signUp, async ({ ctx, body, request }) => {
    const made = await signUpVerb(ctx, {
      ...body,
      confirmPageUrl: confirmEmailPage(request),
      clientAddress: request.ip,
    });
    if (!made.ok) return made;
    return ok({ code: "OK" as const, data: { ...made.value, confirmation_sent: true }, msg: null });
  });

  registerOperation(app, confirmEmail, async ({ ctx, body }) => {
    const confirmed = await confirmEmailVerb(ctx, body);
    if (!confirmed.ok) return confirmed;
    const { userId, nickname, email } = confirmed.value;
    return ok({ code: "OK" as const, data: { user_id: String(userId), nickname, email }, msg: null });
  });

  registerOperation(app, listSignIns, async ({ ctx, query }) => {
    const entries = await listSignInsVerb(ctx, query);
    if (!entries.ok) return entries;
    const items = entries.value.map((entry) => ({
      signed_in_at: toUnixSeconds(entry.signedInAt),
      ip: entry.ip,
      user_agent: entry.userAgent,
      method: entry.method,
    }));
    return ok({ code: "OK" as const, data: { items }, msg: null });
  });

  registerOperation(app, closeAccount, async ({ ctx, body, reply }) => {
    const closed = await closeAccountVerb(ctx, body);
    if (!closed.ok) return closed;
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    reply.clearCookie(CSRF_COOKIE, { path: "/" });
    const data = { user_id: String(closed.value.userId), closed_at: toUnixSeconds(closed.value.closedAt) };
    return ok({ code: "OK" as const, data, msg: null });
  });
}
