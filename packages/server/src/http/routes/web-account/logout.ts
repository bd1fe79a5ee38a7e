import { logout as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { signOut } from "../../../domain/sessions/sign-out.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";
import { resolveSession } from "../../../domain/sessions/resolve-session.ts";
import { SESSION_COOKIE, sessionCookie } from "../../plugins/auth.ts";
import { CSRF_COOKIE, refuseForgedWrite } from "../../plugins/csrf.ts";

export function registerLogout(app: FastifyInstance): void {
  registerOperation(app, operation, async ({ ctx, request, reply }) => {
    const sessionId = sessionCookie(request);
    // Ending a live session is a write like any other: a page of another site may not force it.
    if (sessionId && (await resolveSession(ctx, sessionId)).ok) {
      const forged = refuseForgedWrite(request, sessionId);
      if (forged) return { ok: false as const, failure: forged };
    }
    const ended = await signOut(ctx, sessionId);
    if (!ended.ok) return ended;
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    reply.clearCookie(CSRF_COOKIE, { path: "/" });
    return ok({ code: "OK" as const, data: {}, msg: null });
  });
}
