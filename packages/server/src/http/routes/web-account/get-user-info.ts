import { getUserInfo as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { readWebUserInfo } from "../../../domain/accounts/read-web-user-info.ts";
import { fail, ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerGetUserInfo(app: FastifyInstance): void {
  registerOperation(app, operation, async ({ ctx, request }) => {
    // The auth plugin resolved the session for this `session` route.
    const user = request.sessionUser;
    if (!user) return fail("Login Required", "sign in first");
    return ok({ code: "OK" as const, data: await readWebUserInfo(ctx, user), msg: null });
  });
}
