import { sandboxCreateUser as operation } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { createUser } from "../../../domain/accounts/create-user.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerSandboxCreateUser(app: FastifyInstance): void {
  registerOperation(app, operation, async ({ ctx, body }) => {
    const created = await createUser(ctx, {
      ...(body?.nickname !== undefined ? { nickname: body.nickname } : {}),
      ...(body?.access_level !== undefined ? { accessLevel: body.access_level } : {}),
      ...(body?.password !== undefined ? { password: body.password } : {}),
    });
    if (!created.ok) return created;
    const user = created.value;
    return ok({
      user_id: String(user.userId),
      nickname: user.nickname,
      access_level: user.accessLevel,
      password: user.password,
      token: user.token,
      token_id: String(user.tokenId),
    });
  });
}
