import type { ScenarioDefinition } from "@skinmarket/contract";
import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { finishScenario } from "./scenario-effects.ts";
import { newScenarioRun } from "./scenario-timeline.ts";
import { loadSimulationState, saveSimulationState, type SimulationState } from "./simulation-state.ts";
import { directVerbs } from "./agent-verbs.ts";
import type { SimulationAction, SimulationEnvironment } from "./agent-actions.ts";

/**
 * Starts a scenario in the simulation (docs/design/simulation.md#the-step): its effects begin at the next
 * steps, timed from now by the sandbox clock. The simulation must have been started; a scenario
 * that has not finished must be ended first.
 */
export async function runScenario(
  ctx: DomainContext,
  definition: ScenarioDefinition,
): Promise<Result<SimulationState>> {
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin runs scenarios");
  const state = await loadSimulationState(ctx);
  if (!state) return fail("Invalid State", "no simulation was started; start one first (simulate start)");
  if (state.scenario && !state.scenario.finished)
    return fail("Invalid State", `the scenario ${state.scenario.name} has not finished; end it first`);
  state.scenario = newScenarioRun(definition, ctx.clock.now().getTime());
  await saveSimulationState(ctx, state);
  await recordAudit(ctx, {
    action: "sandbox.simulation.scenario.start",
    details: { name: definition.name, effects: definition.effects.map((effect) => effect.type) },
  });
  return ok(state);
}

/** Ends the running scenario now: its active effects end (what they hold is undone), the rest never begin. */
export async function endScenario(env: SimulationEnvironment): Promise<Result<SimulationState>> {
  const ctx = env.ctx;
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin ends scenarios");
  const state = await loadSimulationState(ctx);
  if (!state?.scenario || state.scenario.finished) return fail("Invalid State", "no scenario is running");
  const actions: SimulationAction[] = [];
  await finishScenario({ ...env, verbs: env.verbs ?? directVerbs(ctx, env.hands) }, state, actions);
  for (const action of actions) state.actions[action.type] = (state.actions[action.type] ?? 0) + 1;
  state.recent = [
    ...(state.recent ?? []),
    ...actions.map((action) => ({ step: state.step, ...action })),
  ].slice(-20);
  await saveSimulationState(ctx, state);
  await recordAudit(ctx, {
    action: "sandbox.simulation.scenario.end",
    details: { name: state.scenario.name },
  });
  return ok(state);
}
