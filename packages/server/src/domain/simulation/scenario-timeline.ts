import type { ScenarioDefinition, ScenarioEffect } from "@skinmarket/contract";
import type { NormalizedEffect, ScenarioRun } from "./simulation-state.ts";

/** A scenario's timeline (docs/design/simulation.md#scenarios): its effects' times in seconds. */

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** `90`, `"90s"`, `"10m"`, `"1.5h"`, `"2d"` in seconds (whole). */
export function durationSeconds(value: number | string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === "number") return value;
  const match = /^(\d+(?:\.\d+)?)([smhd])$/.exec(value);
  if (!match) throw new Error(`not a duration: ${value}`);
  return Math.round(Number(match[1]) * UNITS[match[2]!]!);
}

const DEFAULT_FOR_SECONDS = 3600;

export function normalizeEffect(effect: ScenarioEffect): NormalizedEffect {
  const { type, at, for: lasting, ...fields } = effect;
  return {
    type,
    atSeconds: durationSeconds(at, 0),
    forSeconds: durationSeconds(lasting, DEFAULT_FOR_SECONDS),
    fields,
  };
}

/** A scenario run from its definition, starting now (sandbox time). */
export function newScenarioRun(definition: ScenarioDefinition, nowMs: number): ScenarioRun {
  return {
    name: definition.name,
    description: definition.description ?? "",
    startedAtMs: nowMs,
    seenAtMs: nowMs,
    effects: definition.effects.map((effect) => ({
      effect: normalizeEffect(effect),
      state: "pending",
      memory: {},
      note: "",
    })),
    finished: false,
  };
}

/** The scenario's whole length: the end of its last effect. */
export function scenarioSeconds(run: ScenarioRun): number {
  return Math.max(0, ...run.effects.map((item) => item.effect.atSeconds + item.effect.forSeconds));
}
