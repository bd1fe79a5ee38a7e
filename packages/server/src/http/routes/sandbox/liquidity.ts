import { sandboxRecomputeLiquidityRanks } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { toUnixSeconds } from "../../../domain/clock.ts";
import { recomputeLiquidityRanks } from "../../../domain/liquidity/recompute-liquidity-ranks.ts";
import { ok } from "../../../domain/result.ts";
import { registerOperation } from "../../operation-route.ts";

/** The sandbox's on-demand recomputation of the liquidity ranks (the daily job does the same). */
export function registerSandboxLiquidity(app: FastifyInstance): void {
  registerOperation(app, sandboxRecomputeLiquidityRanks, async ({ ctx }) => {
    const computed = await recomputeLiquidityRanks(ctx);
    if (!computed.ok) return computed;
    return ok({
      computed_at: toUnixSeconds(computed.value.computedAt),
      ranked_goods: computed.value.rankedGoods,
    });
  });
}
