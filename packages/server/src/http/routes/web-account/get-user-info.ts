import { getUserInfo as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { toUnixSeconds } from "../../../domain/clock.ts";
import { fail, ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerGetUserInfo(app: FastifyInstance): void {
  registerOperation(app, operation, async ({ request }) => {
    // The auth plugin resolved the session for this `session` route.
    const user = request.sessionUser;
    if (!user) return fail("Login Required", "sign in first");
    return ok({
      code: "OK" as const,
      data: {
        user_id: String(user.userId),
        nickname: user.nickname,
        access_level: user.accessLevel,
        buy_order_status: user.buyOrderStatus,
        created_at: toUnixSeconds(user.createdAt),
      },
      msg: null,
    });
  });
}
