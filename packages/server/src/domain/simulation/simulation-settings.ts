import { invalidArgument, ok, type Result } from "../result.ts";

/** What a simulation is started with (docs/design/simulation.md#the-step). */
export interface SimulationSettings {
  /** Every draw comes from this seed and the step's number. */
  seed: number;
  /** Actions per real second the runner asks for. */
  rate: number;
  /** How many goods trade (chosen from the seed), or which ones. */
  goods: number | number[];
  makers: number;
  noise: number;
  snipers: number;
  /** Sandbox seconds per real second while the runner runs (1: the clock is not moved). */
  clockSpeed: number;
  /** The share of sales whose seller never sends the offer (the trade fails at its deadline). */
  neverDeliver: number;
}

export const DEFAULT_SIMULATION_SETTINGS: SimulationSettings = {
  seed: 1,
  rate: 2,
  goods: 8,
  makers: 2,
  noise: 4,
  snipers: 1,
  clockSpeed: 60,
  neverDeliver: 0.05,
};

export const SIMULATION_LIMITS = {
  maxRate: 100,
  maxGoods: 200,
  maxAgentsPerKind: 50,
  maxClockSpeed: 3600,
} as const;

/** The settings as they travel (snake_case), every field optional. */
export interface SimulationSettingsInput {
  seed?: unknown;
  rate?: unknown;
  goods?: unknown;
  makers?: unknown;
  noise?: unknown;
  snipers?: unknown;
  clock_speed?: unknown;
  never_deliver?: unknown;
}

function integerIn(value: unknown, min: number, max: number): boolean {
  return typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;
}

function numberIn(value: unknown, min: number, max: number): boolean {
  return typeof value === "number" && Number.isFinite(value) && value >= min && value <= max;
}

/** Checks given settings over the defaults; a refusal names the field. */
export function parseSimulationSettings(input: SimulationSettingsInput): Result<SimulationSettings> {
  const settings = { ...DEFAULT_SIMULATION_SETTINGS };
  if (input.seed !== undefined) {
    if (!integerIn(input.seed, 0, 0xffff_ffff))
      return invalidArgument("seed", "an integer from 0 to 4294967295");
    settings.seed = input.seed as number;
  }
  if (input.rate !== undefined) {
    if (!numberIn(input.rate, 0.01, SIMULATION_LIMITS.maxRate))
      return invalidArgument("rate", `actions per second, from 0.01 to ${SIMULATION_LIMITS.maxRate}`);
    settings.rate = input.rate as number;
  }
  if (input.goods !== undefined) {
    if (Array.isArray(input.goods)) {
      const ids = input.goods;
      if (ids.length < 1 || ids.length > SIMULATION_LIMITS.maxGoods)
        return invalidArgument("goods", `from 1 to ${SIMULATION_LIMITS.maxGoods} goods ids`);
      if (!ids.every((id) => integerIn(id, 1, 2_147_483_647)))
        return invalidArgument("goods", "goods ids are positive integers");
      if (new Set(ids).size !== ids.length) return invalidArgument("goods", "a goods id is named twice");
      settings.goods = ids as number[];
    } else if (integerIn(input.goods, 1, SIMULATION_LIMITS.maxGoods)) {
      settings.goods = input.goods as number;
    } else {
      return invalidArgument(
        "goods",
        `a number of goods from 1 to ${SIMULATION_LIMITS.maxGoods}, or a list of goods ids`,
      );
    }
  }
  for (const field of ["makers", "noise", "snipers"] as const) {
    const value = input[field];
    if (value === undefined) continue;
    if (!integerIn(value, 0, SIMULATION_LIMITS.maxAgentsPerKind))
      return invalidArgument(field, `an integer from 0 to ${SIMULATION_LIMITS.maxAgentsPerKind}`);
    settings[field] = value as number;
  }
  if (settings.makers + settings.noise + settings.snipers === 0)
    return invalidArgument("makers", "at least one agent is needed (makers, noise or snipers)");
  if (input.clock_speed !== undefined) {
    if (!numberIn(input.clock_speed, 1, SIMULATION_LIMITS.maxClockSpeed))
      return invalidArgument(
        "clock_speed",
        `sandbox seconds per real second, from 1 to ${SIMULATION_LIMITS.maxClockSpeed}`,
      );
    settings.clockSpeed = input.clock_speed as number;
  }
  if (input.never_deliver !== undefined) {
    if (!numberIn(input.never_deliver, 0, 1)) return invalidArgument("never_deliver", "a share from 0 to 1");
    settings.neverDeliver = input.never_deliver as number;
  }
  return ok(settings);
}

/** The settings as they travel. */
export function settingsView(settings: SimulationSettings) {
  return {
    seed: settings.seed,
    rate: settings.rate,
    goods: settings.goods,
    makers: settings.makers,
    noise: settings.noise,
    snipers: settings.snipers,
    clock_speed: settings.clockSpeed,
    never_deliver: settings.neverDeliver,
  };
}
