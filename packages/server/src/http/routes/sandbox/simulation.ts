import {
  formatMoney,
  sandboxEndScenario,
  sandboxGetSimulation,
  sandboxListScenarios,
  sandboxRunScenario,
  sandboxStartSimulation,
  sandboxStopSimulation,
} from "@skinmarket/contract";
import { builtinScenarios, findBuiltinScenario } from "../../../domain/simulation/builtin-scenarios.ts";
import { normalizeEffect, scenarioSeconds } from "../../../domain/simulation/scenario-effects.ts";
import { fail } from "../../../domain/result.ts";
import type { FastifyInstance } from "fastify";
import { ok, type Result } from "../../../domain/result.ts";
import type { SimulationRunner } from "../../../domain/simulation/simulation-runner.ts";
import { parseSimulationSettings, settingsView } from "../../../domain/simulation/simulation-settings.ts";
import type { SimulationState } from "../../../domain/simulation/simulation-state.ts";
import { registerOperation } from "../../operation-route.ts";

function scenarioView(state: SimulationState | undefined) {
  const run = state?.scenario;
  if (!run) return null;
  const duration = scenarioSeconds(run);
  const elapsed = Math.max(0, Math.floor((run.seenAtMs - run.startedAtMs) / 1000));
  return {
    name: run.name,
    description: run.description,
    started_at: Math.floor(run.startedAtMs / 1000),
    elapsed_seconds: run.finished ? Math.max(elapsed, 0) : Math.min(elapsed, duration),
    duration_seconds: duration,
    progress: run.finished ? 1 : duration === 0 ? 0 : Math.min(1, elapsed / duration),
    finished: run.finished,
    effects: run.effects.map((item) => ({
      type: item.effect.type,
      at_seconds: item.effect.atSeconds,
      for_seconds: item.effect.forSeconds,
      state: item.state,
      note: item.note,
    })),
  };
}

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
    scenario: scenarioView(state),
    recent: (state?.recent ?? []).map((action) => ({
      step: action.step,
      type: action.type,
      agent: action.agent,
      goods_id: action.goodsId ?? null,
      price: action.price === undefined ? null : formatMoney(Math.round(action.price)),
      outcome: action.outcome,
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

  registerOperation(app, sandboxListScenarios, () =>
    ok({
      items: builtinScenarios().map((scenario) => {
        const effects = scenario.effects.map(normalizeEffect);
        return {
          name: scenario.name,
          description: scenario.description ?? "",
          duration_seconds: Math.max(0, ...effects.map((effect) => effect.atSeconds + effect.forSeconds)),
          effects: effects.map((effect) => effect.type),
          definition: scenario,
        };
      }),
    }),
  );

  registerOperation(app, sandboxRunScenario, async ({ ctx, body }) => {
    if (body.name !== undefined && body.scenario !== undefined)
      return fail("Invalid Argument", "name: give name or scenario, not both");
    const definition = body.scenario ?? findBuiltinScenario(body.name!);
    if (!definition)
      return fail(
        "Invalid Argument",
        `name: no built-in scenario ${body.name}; there are ${builtinScenarios()
          .map((scenario) => scenario.name)
          .join(", ")}`,
      );
    return answer(await runner.runScenario(ctx, definition));
  });

  registerOperation(app, sandboxEndScenario, async ({ ctx }) => answer(await runner.endScenario(ctx)));

  registerOperation(app, sandboxGetSimulation, async () => {
    const status = await runner.status();
    if (!status.ok) return status;
    return ok(statusView(status.value.state, status.value.stepping));
  });
}
