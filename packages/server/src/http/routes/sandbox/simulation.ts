import {
  formatMoney,
  sandboxGetSimulation,
  sandboxStartSimulation,
  sandboxStopSimulation,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { ok, type Result } from "../../../domain/result.ts";
import type { SimulationRunner } from "../../../domain/simulation/simulation-runner.ts";
import { parseSimulationSettings, settingsView } from "../../../domain/simulation/simulation-settings.ts";
import type { SimulationState } from "../../../domain/simulation/simulation-state.ts";
import { registerOperation } from "../../operation-route.ts";

function statusView(state: SimulationState | undefined, stepping: boolean) {
  return {
    running: state?.running ?? false,
    stepping,
    steps: state?.step ?? 0,
    actions: state?.actions ?? {},
    settings: state ? settingsView(state.settings) : null,
    goods: (state?.goods ?? []).map((goods) => ({
      goods_id: goods.goodsId,
      fair_value: formatMoney(Math.round(goods.fair)),
    })),
    agents: (state?.agents ?? []).map((agent) => ({
      name: agent.name,
      kind: agent.kind,
      user_id: String(agent.userId),
    })),
  };
}

/** The living sandbox's controls: start (or resume), stop, status (docs/design.md section 15). */
export function registerSandboxSimulation(app: FastifyInstance, runner: SimulationRunner): void {
  const answer = async (result: Result<SimulationState>) => {
    if (!result.ok) return result;
    const status = await runner.status();
    if (!status.ok) return status;
    return ok(statusView(result.value, status.value.stepping));
  };

  registerOperation(app, sandboxStartSimulation, async ({ ctx, body }) => {
    const settings = parseSimulationSettings(body ?? {});
    if (!settings.ok) return settings;
    return answer(await runner.start(ctx, settings.value));
  });

  registerOperation(app, sandboxStopSimulation, async ({ ctx }) => answer(await runner.stop(ctx)));

  registerOperation(app, sandboxGetSimulation, async () => {
    const status = await runner.status();
    if (!status.ok) return status;
    return ok(statusView(status.value.state, status.value.stepping));
  });
}
