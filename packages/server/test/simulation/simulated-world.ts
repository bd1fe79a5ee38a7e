import assert from "node:assert/strict";
import { OffsetClock } from "../../src/domain/clock.ts";
import { DEFAULT_MARKET_RULES, type DomainContext } from "../../src/domain/context.ts";
import { sequenceEvents } from "../../src/domain/events/sequence-events.ts";
import { findBuiltinScenario } from "../../src/domain/simulation/builtin-scenarios.ts";
import { runScenario } from "../../src/domain/simulation/run-scenario.ts";
import {
  parseSimulationSettings,
  type SimulationSettingsInput,
} from "../../src/domain/simulation/simulation-settings.ts";
import type { SimulationState } from "../../src/domain/simulation/simulation-state.ts";
import type { SimulationAction, SimulationEnvironment } from "../../src/domain/simulation/agent-actions.ts";
import { simulationStep } from "../../src/domain/simulation/simulation-step.ts";
import { startSimulation } from "../../src/domain/simulation/start-simulation.ts";
import { assertLedgerInvariants } from "../../src/domain/wallet/check-ledger-invariants.ts";
import { sandboxHands } from "../../src/platform/sandbox/simulation-hands.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import { silentLog, testPlatform } from "../support/test-context.ts";
import { openTestDatabase } from "../support/test-database.ts";
import { enqueueWebhookDeliveries } from "../../src/domain/webhooks/enqueue.ts";

/** The sandbox clock without real time in it: a world's moments depend only on its steps. */
export class SteppedClock extends OffsetClock {
  override now(): Date {
    return new Date(Date.UTC(2026, 0, 5, 12) + this.offsetMs);
  }
}

export interface World {
  database: DatabaseHandle;
  env: SimulationEnvironment;
  state: SimulationState;
  /** Every action so far, one line each (step, type, agent, goods, price, outcome). */
  lines: string[];
}

export function describeAction(step: number, action: SimulationAction): string {
  return `${step} ${action.type} ${action.agent} ${action.goodsId ?? "-"} ${action.price ?? "-"} ${action.outcome}`;
}

/** A fresh database with the catalog and a started simulation (no scenario yet). */
export async function openWorld(settings: SimulationSettingsInput): Promise<World> {
  const database = await openTestDatabase({ catalog: true });
  const clock = new SteppedClock();
  const ctx: DomainContext = {
    db: database.db,
    clock,
    actor: { kind: "admin" },
    log: silentLog,
    // The platform protects trades as the server's does by default, so the rollbacks scenario
    // finds its trades reversible (docs/design/trade-protection.md#the-platforms-window).
    ...testPlatform(DEFAULT_MARKET_RULES.tradeProtectionHours),
  };
  const parsed = parseSimulationSettings(settings);
  assert.ok(parsed.ok);
  const started = await startSimulation(ctx, sandboxHands, parsed.value);
  assert.ok(started.ok, started.ok ? "" : started.failure.message);
  return { database, env: { ctx, clock, hands: sandboxHands }, state: started.value, lines: [] };
}

/** Runs a built-in scenario by name in the world's simulation. */
export async function startBuiltin(world: World, name: string): Promise<void> {
  const definition = findBuiltinScenario(name);
  assert.ok(definition, `no built-in scenario ${name}`);
  const started = await runScenario(world.env.ctx, definition);
  assert.ok(started.ok, started.ok ? "" : started.failure.message);
  world.state = started.value;
}

/**
 * Steps the world `count` times, checking the ledger invariants after every step; `after` sees
 * each step's actions.
 */
export async function step(
  world: World,
  count: number,
  after?: (actions: SimulationAction[], world: World) => Promise<void> | void,
): Promise<void> {
  for (let index = 0; index < count; index++) {
    const report = await simulationStep(world.env, world.state);
    for (const action of report.actions) world.lines.push(describeAction(report.step, action));
    await assertLedgerInvariants(world.database.db);
    await after?.(report.actions, world);
  }
}

/** Sequences the outbox into the event log and answers the types of the events there. */
export async function eventTypes(world: World): Promise<Map<string, number>> {
  for (;;) {
    const round = await sequenceEvents({ ...world.env.ctx, actor: { kind: "system" } }, [
      enqueueWebhookDeliveries,
    ]);
    if (round.state === "done" && !round.more) break;
  }
  const rows = await world.database.db
    .selectFrom("events")
    .select(({ fn }) => ["type", fn.countAll<number>().as("count")])
    .groupBy("type")
    .execute();
  return new Map(rows.map((row) => [row.type, Number(row.count)]));
}

/**
 * The event log as a replay must reproduce it: each event's type, the agent it belongs to (by
 * name), its goods and its data without what legitimately differs between two worlds of one seed.
 * Left out: platform ids, trade-URL tokens and whatever carries them, which the sandbox platform
 * draws from the operating system's random source (an account is an outside thing, not the
 * simulation's); record ids (listings, trades, buy orders, offers, assets, users), which two fresh
 * databases number alike but a world that is not fresh does not (the actions name agents and goods
 * for the same reason); and moments (`*_at`), which follow the clock, equal only when the clock is
 * (the test's is; a live server's carries real time). Prices, amounts, states, counts and goods stay.
 */
export async function eventLines(world: World): Promise<string[]> {
  for (;;) {
    const round = await sequenceEvents({ ...world.env.ctx, actor: { kind: "system" } }, [
      enqueueWebhookDeliveries,
    ]);
    if (round.state === "done" && !round.more) break;
  }
  const agents = new Map(world.state.agents.map((agent) => [agent.userId, agent.name]));
  const rows = await world.database.db
    .selectFrom("events")
    .select(["type", "user_id", "goods_id", "data"])
    .orderBy("event_id")
    .execute();
  return rows.map((row) => {
    const owner = row.user_id === null ? "market" : (agents.get(row.user_id) ?? "someone");
    return `${row.type} ${owner} ${row.goods_id ?? "-"} ${JSON.stringify(stableData(row.data))}`;
  });
}

const UNSTABLE_KEY = /(^|_)ids?$|assetids?$|tradeofferid|platformid|trade_url|token|_at$/;

function stableData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stableData);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !UNSTABLE_KEY.test(key))
      .map(([key, inner]) => [key, stableData(inner)]),
  );
}

export function countActions(world: World, type: string, outcome?: string): number {
  return world.lines.filter((line) => {
    const parts = line.split(" ");
    return parts[1] === type && (outcome === undefined || line.endsWith(` ${outcome}`));
  }).length;
}
