import {
  formatMoney,
  sandboxGetPlatformFault,
  sandboxRollbackTrade,
  sandboxSetPlatformFault,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { ok } from "../../../domain/result.ts";
import {
  readPlatformFault,
  setPlatformFault,
  type PlatformFault,
} from "../../../platform/sandbox/platform-fault.ts";
import { rollbackTrade } from "../../../platform/sandbox/rollback-trade.ts";
import { registerOperation } from "../../operation-route.ts";

function faultView(fault: PlatformFault) {
  const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));
  return { down: fault.down, since: seconds(fault.since), until: seconds(fault.until) };
}

/** The sandbox platform's fault switch and its reversal of delivered trades (docs/sandbox.md). */
export function registerSandboxPlatformFaults(app: FastifyInstance): void {
  registerOperation(app, sandboxGetPlatformFault, async ({ ctx }) =>
    ok(faultView(await readPlatformFault(ctx))),
  );

  registerOperation(app, sandboxSetPlatformFault, async ({ ctx, body }) => {
    const set = await setPlatformFault(ctx, {
      down: body.down,
      ...(body.seconds !== undefined ? { seconds: body.seconds } : {}),
    });
    return set.ok ? ok(faultView(set.value)) : set;
  });

  registerOperation(app, sandboxRollbackTrade, async ({ ctx, params }) => {
    const reversed = await rollbackTrade(ctx, { tradeId: Number(params.trade_id) });
    if (!reversed.ok) return reversed;
    return ok({
      trade_id: String(reversed.value.tradeId),
      state: "FAIL" as const,
      rollback_by: reversed.value.rollbackBy,
      returned_assetid: reversed.value.returnedAssetid,
      refunded: formatMoney(reversed.value.refunded),
      taken_from_seller: formatMoney(reversed.value.takenFromSeller),
    });
  });
}
