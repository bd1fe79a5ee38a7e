import { logout as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { signOut } from "../../../domain/sessions/sign-out.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";
import { SESSION_COOKIE, sessionCookie } from "../../plugins/auth.ts";

export function registerLogout(app: FastifyInstance): void {
  registerOperation(app, operation, async ({ ctx, request, reply }) => {
    const ended = await signOut(ctx, sessionCookie(request));
    if (!ended.ok) return ended;
    reply.clearCookie(SESSION_COOKIE, { path: "/" });
    return ok({ code: "OK" as const, data: {}, msg: null });
  });
}
