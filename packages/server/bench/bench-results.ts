import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, platform, release, totalmem } from "node:os";
import { join, resolve } from "node:path";
import { goalOf, LISTING_QUERY_GOAL } from "./bench-goals.ts";
import type { Figure } from "./market.ts";

/**
 * The results file of a bench run (docs/design/performance.md#benchmark-results): the moment, the
 * machine, the figures and the goals beside them. Figures belong to a machine and a moment, so
 * they are written here, not in the design.
 */
export const DEFAULT_RESULTS_FOLDER = resolve(import.meta.dirname, "../../../bench-results");

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryMb: number;
  /** The 1-, 5- and 15-minute load averages when the run started and when it ended. */
  loadAverage: { start: number[]; end: number[] };
  platform: string;
  release: string;
  node: string;
}

export interface JudgedFigure extends Figure {
  goal?: { text: string; of: "ratio" | "value"; atLeast?: number; atMost?: number; met: boolean };
}

export interface ListingQueryResult {
  shape: string;
  p50Ms: number;
  p99Ms: number;
  indexBacked: boolean;
}

export interface BenchResults {
  date: string;
  bench: string;
  options: Record<string, unknown>;
  machine: Machine;
  figures: JudgedFigure[];
  listingQueries?: {
    listings: number;
    goal: { text: string; met: boolean };
    figures: ListingQueryResult[];
  };
  extra?: Record<string, unknown>;
}

/** The machine as the run sees it; `loadAtStart` is `os.loadavg()` read when the run began. */
export function machineNow(loadAtStart: number[]): Machine {
  const processors = cpus();
  return {
    cpus: processors.length,
    cpuModel: processors[0]?.model.trim() ?? "unknown",
    memoryMb: Math.round(totalmem() / 2 ** 20),
    loadAverage: { start: loadAtStart, end: loadavg() },
    platform: platform(),
    release: release(),
    node: process.version,
  };
}

/** Each figure with the goal it answers beside it, and whether the run met it. */
export function judgeFigures(figures: readonly Figure[]): JudgedFigure[] {
  return figures.map((figure) => {
    const goal = goalOf(figure.name);
    if (!goal) return { ...figure };
    const measured = goal.of === "ratio" ? figure.ratio : figure.value;
    const met =
      (goal.atLeast === undefined || measured >= goal.atLeast) &&
      (goal.atMost === undefined || measured <= goal.atMost);
    return {
      ...figure,
      goal: {
        text: goal.text,
        of: goal.of,
        ...(goal.atLeast !== undefined ? { atLeast: goal.atLeast } : {}),
        ...(goal.atMost !== undefined ? { atMost: goal.atMost } : {}),
        met,
      },
    };
  });
}

export function benchResults(input: {
  date: Date;
  bench: string;
  options: Record<string, unknown>;
  machine: Machine;
  figures: readonly Figure[];
  listingQueries?: { listings: number; figures: readonly ListingQueryResult[] };
  extra?: Record<string, unknown>;
}): BenchResults {
  return {
    date: input.date.toISOString(),
    bench: input.bench,
    options: input.options,
    machine: input.machine,
    figures: judgeFigures(input.figures),
    ...(input.listingQueries
      ? {
          listingQueries: {
            listings: input.listingQueries.listings,
            goal: {
              text: LISTING_QUERY_GOAL.text,
              met: input.listingQueries.figures.every(
                (query) => query.indexBacked && query.p99Ms <= LISTING_QUERY_GOAL.p99AtMostMs,
              ),
            },
            figures: input.listingQueries.figures.map(({ shape, p50Ms, p99Ms, indexBacked }) => ({
              shape,
              p50Ms,
              p99Ms,
              indexBacked,
            })),
          },
        }
      : {}),
    ...(input.extra ? { extra: input.extra } : {}),
  };
}

/**
 * Writes `<folder>/<date and time>-<bench>.json` (the folder made if need be; `-2`, `-3` ... after
 * the bench's name when runs share a second, so no run's results replace another's); answers its path.
 */
export function writeBenchResults(folder: string, results: BenchResults): string {
  mkdirSync(folder, { recursive: true });
  const stamp = results.date.replace(/\.\d+Z$/, "Z").replace(/:/g, "-");
  const text = `${JSON.stringify(results, null, 2)}\n`;
  for (let copy = 1; ; copy++) {
    const path = join(folder, `${stamp}-${results.bench}${copy === 1 ? "" : `-${copy}`}.json`);
    try {
      writeFileSync(path, text, { flag: "wx" });
      return path;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}
