import type { DomainContext } from "../context.ts";
import type { SimulationSettings } from "./simulation-settings.ts";

/** Whales act only for scenarios (a buy-order wall); the step draws its agent from the others. */
export type AgentKind = "maker" | "noise" | "sniper" | "whale";

export interface SimulationAgent {
  kind: AgentKind;
  /** `maker-0`, `noise-2`: how actions name the agent (ids differ between worlds). */
  name: string;
  userId: number;
  platformid: string;
}

export interface SimulatedGoods {
  goodsId: number;
  /** Where the fair value started, in fen: the walk is pulled gently back towards it. */
  anchor: number;
  /** The fair value now, in fen (fractional: rounded only when an agent quotes). */
  fair: number;
  /** Its skin in its quality (`short name|quality`): the exteriors of a family move together. */
  family?: string;
  /** Its exterior's rank, 0 (Factory New) to 4 (Battle-Scarred); none for goods without wear. */
  wear?: number;
}

/**
 * How the agents behave. Kept in the state so that a later scenario can change it for a while
 * (sellers who stop delivering, a wider spread in a panic) without a new kind of agent.
 */
export interface AgentBehaviour {
  /** The market makers' spread around the fair value (0.04: ask 2 % above, bid 2 % below). */
  spread: number;
  /** A sniper buys a listing this far under the fair value or more. */
  sniperDiscount: number;
  /** The share of sales whose seller never sends the offer. */
  neverDeliver: number;
  /** The fair value's step volatility (standard deviation of its log). */
  volatility: number;
  /** The chance per goods and step of a jump, and its largest size (share of the value). */
  jumpChance: number;
  jumpSize: number;
}

export interface SimulationState {
  settings: SimulationSettings;
  running: boolean;
  /** Steps taken: the next step draws from `new DemoRandom(seed, step)`, so this is the PRNG's position. */
  step: number;
  goods: SimulatedGoods[];
  agents: SimulationAgent[];
  behaviour: AgentBehaviour;
  /** Actions taken, per type. */
  actions: Record<string, number>;
  /** Milliseconds of clock movement owed (steps move the clock in whole seconds). */
  clockCarryMs: number;
  startedAt: string;
  /** The scenario run last, with its progress (absent before the first). */
  scenario?: ScenarioRun | null;
  /** The last actions taken, newest last (at most `RECENT_ACTIONS`). */
  recent?: RecentAction[];
}

export const RECENT_ACTIONS = 20;

export interface RecentAction {
  step: number;
  type: string;
  agent: string;
  goodsId?: number;
  price?: number;
  outcome: string;
}

export type EffectState = "pending" | "active" | "done";

/** One effect of a running scenario: its timing in seconds, its state and what it holds on to. */
export interface EffectRun {
  /** The effect as given, defaults filled in (see `normalizeEffect`). */
  effect: NormalizedEffect;
  state: EffectState;
  /** What the effect acts on and must undo at its end (goods, orders, accounts, earlier values). */
  memory: Record<string, unknown>;
  /** One line for people: what it did or acts on. */
  note: string;
}

export interface NormalizedEffect {
  type: string;
  atSeconds: number;
  forSeconds: number;
  /** The effect's own fields as given (snake_case). */
  fields: Record<string, unknown>;
}

export interface ScenarioRun {
  name: string;
  description: string;
  /** Sandbox time it started, ms. */
  startedAtMs: number;
  /** Sandbox time at the last step that looked at it, ms. */
  seenAtMs: number;
  effects: EffectRun[];
  finished: boolean;
}

const STATE_KEY = "sandbox_simulation";

export async function loadSimulationState(ctx: DomainContext): Promise<SimulationState | undefined> {
  const row = await ctx.db
    .selectFrom("system_settings")
    .select("value")
    .where("key", "=", STATE_KEY)
    .executeTakeFirst();
  return row ? (row.value as SimulationState) : undefined;
}

/**
 * Written after every step, so a restart resumes at the next step with the same draws. Only
 * `create` (a start) writes a new row: a step that ends after a sandbox reset deleted the state
 * must not bring it back.
 */
export async function saveSimulationState(
  ctx: DomainContext,
  state: SimulationState,
  options: { create?: boolean } = {},
): Promise<void> {
  const value = JSON.stringify(state);
  if (!options.create) {
    await ctx.db.updateTable("system_settings").set({ value }).where("key", "=", STATE_KEY).execute();
    return;
  }
  await ctx.db
    .insertInto("system_settings")
    .values({ key: STATE_KEY, value })
    .onConflict((conflict) => conflict.column("key").doUpdateSet({ value }))
    .execute();
}
