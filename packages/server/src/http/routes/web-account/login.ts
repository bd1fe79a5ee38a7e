import { login as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { signIn } from "../../../domain/sessions/sign-in.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";
import { SESSION_COOKIE } from "../../plugins/auth.ts";
import { offerCsrfCookie } from "../../plugins/csrf.ts";
import { confirmEmailPage } from "./confirm-email-page.ts";

export interface SessionCookieOptions {
  sessionTtlSeconds: number;
  secureCookies: boolean;
}

export function registerLogin(app: FastifyInstance, options: SessionCookieOptions): void {
  registerOperation(app, operation, async ({ ctx, body, request, reply }) => {
    const signedIn = await signIn(ctx, {
      ...body,
      sessionTtlSeconds: options.sessionTtlSeconds,
      clientAddress: request.ip,
      userAgent: request.headers["user-agent"],
      confirmPageUrl: confirmEmailPage(request),
    });
    if (!signedIn.ok) return signedIn;
    reply.setCookie(SESSION_COOKIE, signedIn.value.sessionId, {
      httpOnly: true,
      sameSite: "lax",
      secure: options.secureCookies,
      path: "/",
      maxAge: options.sessionTtlSeconds,
    });
    offerCsrfCookie(request, reply, signedIn.value.sessionId, options.secureCookies);
    return ok({
      code: "OK" as const,
      data: { user_id: String(signedIn.value.userId), nickname: signedIn.value.nickname },
      msg: null,
    });
  });
}
