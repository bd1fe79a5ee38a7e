import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import type { SimulationSettings } from "./simulation-settings.ts";
import { loadSimulationState, type SimulationState } from "./simulation-state.ts";
import type { SimulationEnvironment } from "./agent-actions.ts";
import { simulationStep } from "./simulation-step.ts";
import { startSimulation, stopSimulation } from "./start-simulation.ts";
import { endScenario, runScenario } from "./run-scenario.ts";
import type { ScenarioDefinition } from "@skinmarket/contract";

/** After this many failed steps in a row the runner stops stepping (the state says running). */
const MAX_FAILED_STEPS = 20;
/** How long a runner's claim on the simulation lasts without a step renewing it (database time). */
const LEASE_SECONDS = 10;

/**
 * Calls the step function at the settings' rate, one step at a time: the next step is timed from
 * the start of the last one, and waits for it to end when a step takes longer than its share of a
 * second. Each step reads the saved state first, so a stop (or a sandbox reset, which deletes the
 * state) is seen at the next step.
 */
export class SimulationRunner {
  readonly #env: SimulationEnvironment;
  #timer: NodeJS.Timeout | undefined;
  #stepping: Promise<void> = Promise.resolve();
  #failures = 0;
  #closed = false;
  /** Names this runner in the lease that keeps the other instances' runners from stepping too. */
  readonly #instance = randomUUID();

  readonly #options: { leaseSeconds: number; onStep?: () => void };

  constructor(env: SimulationEnvironment, options: { leaseSeconds?: number; onStep?: () => void } = {}) {
    this.#env = env;
    this.#options = { leaseSeconds: options.leaseSeconds ?? LEASE_SECONDS, ...options };
  }

  /** At the server's start: a simulation saved as running runs on from its next step. */
  async resume(): Promise<void> {
    const state = await loadSimulationState(this.#env.ctx);
    if (state?.running) {
      this.#env.ctx.log.info({ seed: state.settings.seed, step: state.step }, "the simulation resumes");
      this.#schedule(0);
    }
  }

  async start(ctx: DomainContext, settings: SimulationSettings): Promise<Result<SimulationState>> {
    await this.#stepping;
    const started = await startSimulation({ ...this.#env.ctx, actor: ctx.actor }, this.#env.hands, settings);
    if (!started.ok) return started;
    this.#failures = 0;
    this.#schedule(0);
    return started;
  }

  async stop(ctx: DomainContext): Promise<Result<SimulationState>> {
    if (ctx.actor.kind !== "admin")
      return fail("Access Denied", "only the sandbox admin stops the simulation");
    this.#cancel();
    await this.#stepping;
    return stopSimulation({ ...this.#env.ctx, actor: ctx.actor });
  }

  /** Runs a scenario: between steps, so that no step saves over it. */
  async runScenario(ctx: DomainContext, definition: ScenarioDefinition): Promise<Result<SimulationState>> {
    return this.#between(() => runScenario({ ...this.#env.ctx, actor: ctx.actor }, definition));
  }

  async endScenario(ctx: DomainContext): Promise<Result<SimulationState>> {
    return this.#between(() => endScenario({ ...this.#env, ctx: { ...this.#env.ctx, actor: ctx.actor } }));
  }

  /** Runs a change of the saved state while no step is under way, then steps on if it was stepping. */
  async #between(change: () => Promise<Result<SimulationState>>): Promise<Result<SimulationState>> {
    const wasStepping = this.#timer !== undefined;
    this.#cancel();
    await this.#stepping;
    let result: Result<SimulationState> | undefined;
    try {
      result = await change();
      return result;
    } finally {
      // The next step comes at the usual interval, as if the change had not been there.
      if (wasStepping) this.#schedule(result?.ok ? 1000 / result.value.settings.rate : 1000);
    }
  }

  async status(): Promise<Result<{ state: SimulationState | undefined; stepping: boolean }>> {
    const state = await loadSimulationState(this.#env.ctx);
    return ok({ state, stepping: this.#timer !== undefined });
  }

  /** Stops the timer without touching the saved state (the server shuts down; a restart resumes). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#cancel();
    await this.#stepping;
  }

  #cancel(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(delayMs: number): void {
    if (this.#closed) return;
    this.#cancel();
    this.#timer = setTimeout(() => {
      this.#stepping = this.#tick();
    }, delayMs);
  }

  async #tick(): Promise<void> {
    const began = Date.now();
    let intervalMs = 1000;
    try {
      const state = await loadSimulationState(this.#env.ctx);
      if (!state?.running) {
        this.#timer = undefined;
        return;
      }
      intervalMs = 1000 / state.settings.rate;
      // With several instances on one database, each resumes a running simulation at start; only
      // the one holding the lease steps, and another takes over once it stops renewing it.
      if (await this.#holdsLease()) {
        await simulationStep(this.#env, state);
        this.#options.onStep?.();
      }
      this.#failures = 0;
    } catch (error) {
      this.#failures += 1;
      this.#env.ctx.log.error({ err: error, failures: this.#failures }, "a simulation step failed");
      if (this.#failures >= MAX_FAILED_STEPS) {
        this.#timer = undefined;
        return;
      }
    }
    if (this.#timer === undefined) return;
    this.#schedule(Math.max(0, intervalMs - (Date.now() - began)));
  }

  /** Takes or renews the runner's lease (`system_settings`), unless another live runner holds it. */
  async #holdsLease(): Promise<boolean> {
    const claimed = await sql<{ key: string }>`
      INSERT INTO system_settings (key, value)
      VALUES ('sandbox_simulation_runner',
        jsonb_build_object('instance', ${this.#instance}::text,
          'until', now() + make_interval(secs => ${this.#options.leaseSeconds})))
      ON CONFLICT (key) DO UPDATE SET value = excluded.value
      WHERE system_settings.value->>'instance' = ${this.#instance}::text
        OR (system_settings.value->>'until')::timestamptz < now()
      RETURNING key`.execute(this.#env.ctx.db);
    return claimed.rows.length > 0;
  }
}
