import {
  formatMoney,
  sandboxEndScenario,
  sandboxGetSimulation,
  sandboxListScenarios,
  sandboxRunScenario,
  sandboxStartSimulation,
  sandboxStopSimulation,
} from "@skinmarket/contract";
import { normalizeEffect, scenarioSeconds } from "../../../domain/simulation/scenario-timeline.ts";
import {
  findScenario,
  listScenarios,
  type ScenarioEntry,
} from "../../../domain/simulation/scenario-library.ts";
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

function scenarioSummary(entry: ScenarioEntry) {
  const common = {
    name: entry.name,
    source: entry.source,
    file: entry.file,
    overrides_builtin: entry.overridesBuiltin,
  };
  if (!entry.valid)
    return {
      ...common,
      valid: false,
      problem: entry.problem,
      description: "",
      duration_seconds: 0,
      effects: [],
      definition: null,
    };
  const effects = entry.definition.effects.map(normalizeEffect);
  return {
    ...common,
    valid: true,
    problem: null,
    description: entry.definition.description ?? "",
    duration_seconds: Math.max(0, ...effects.map((effect) => effect.atSeconds + effect.forSeconds)),
    effects: effects.map((effect) => effect.type),
    definition: entry.definition,
  };
}

/**
 * The living sandbox's controls: start (or resume), stop, status, scenarios (docs/design/simulation.md#the-living-sandbox); `scenariosFolder` holds the user's scenario files, which run by name.
 */
export function registerSandboxSimulation(
  app: FastifyInstance,
  runner: SimulationRunner,
  scenariosFolder: string | undefined,
): void {
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

  registerOperation(app, sandboxListScenarios, async () =>
    ok({
      items: (await listScenarios(scenariosFolder)).map(scenarioSummary),
      scenarios_folder: scenariosFolder ?? null,
    }),
  );

  registerOperation(app, sandboxRunScenario, async ({ ctx, body }) => {
    if (body.name !== undefined && body.scenario !== undefined)
      return fail("Invalid Argument", "name: give name or scenario, not both");
    const definition = body.scenario ? ok(body.scenario) : await findScenario(body.name!, scenariosFolder);
    if (!definition.ok) return definition;
    return answer(await runner.runScenario(ctx, definition.value));
  });

  registerOperation(app, sandboxEndScenario, async ({ ctx }) => answer(await runner.endScenario(ctx)));

  registerOperation(app, sandboxGetSimulation, async () => {
    const status = await runner.status();
    if (!status.ok) return status;
    return ok(statusView(status.value.state, status.value.stepping));
  });
}
