import { sandboxCreateToken, sandboxRevokeToken } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { toUnixSeconds } from "../../../domain/clock.ts";
import { ok } from "../../../domain/result.ts";
import { createApiToken } from "../../../domain/tokens/create-api-token.ts";
import { revokeApiToken } from "../../../domain/tokens/revoke-api-token.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerSandboxTokens(app: FastifyInstance): void {
  registerOperation(app, sandboxCreateToken, async ({ ctx, params }) => {
    const issued = await createApiToken(ctx, { userId: Number(params.user_id) });
    if (!issued.ok) return issued;
    return ok({ token: issued.value.token, token_id: String(issued.value.tokenId) });
  });

  registerOperation(app, sandboxRevokeToken, async ({ ctx, params }) => {
    const revoked = await revokeApiToken(ctx, { tokenId: Number(params.token_id) });
    if (!revoked.ok) return revoked;
    return ok({ token_id: params.token_id, revoked_at: toUnixSeconds(revoked.value.revokedAt) });
  });
}
