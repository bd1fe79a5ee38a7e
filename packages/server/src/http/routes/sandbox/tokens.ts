import { sandboxCreateToken, sandboxResetTokenLimits, sandboxRevokeToken } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { toUnixSeconds } from "../../../domain/clock.ts";
import { ok } from "../../../domain/result.ts";
import { createApiToken } from "../../../domain/tokens/create-api-token.ts";
import { requireApiToken } from "../../../domain/tokens/require-api-token.ts";
import { revokeApiToken } from "../../../domain/tokens/revoke-api-token.ts";
import type { LimiterStore } from "../../limits/limiter-store.ts";
import { registerOperation } from "../../operation-route.ts";

export function registerSandboxTokens(app: FastifyInstance, limiterStore: LimiterStore | undefined): void {
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

  registerOperation(app, sandboxResetTokenLimits, async ({ ctx, params }) => {
    const token = await requireApiToken(ctx, Number(params.token_id));
    if (!token.ok) return token;
    await limiterStore?.reset(params.token_id);
    return ok({ token_id: params.token_id, reset: true as const });
  });
}
