import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { benchResults, machineNow, writeBenchResults, type BenchResults } from "../../bench/bench-results.ts";

const figure = (name: string, value: number, ratio: number) => ({
  name,
  value,
  baseline: value / ratio,
  unit: "ms",
  ratio,
  note: "a note",
});

test("a bench run's results carry the date, the machine, the figures and the goals beside them", () => {
  const folder = mkdtempSync(join(tmpdir(), "bench-results-"));
  try {
    const machine = machineNow([1.5, 1, 0.5]);
    const results = benchResults({
      date: new Date("2026-11-28T03:04:05.678Z"),
      bench: "market",
      options: { duration: "3" },
      machine,
      figures: [
        figure("whole market (gzip)", 500, 0.95),
        figure("whole market (brotli)", 400, 0.7),
        figure("freshness, whole market (PGlite) p99", 1200, 1.2),
        figure("catalog first load", 900, 40),
      ],
      listingQueries: {
        listings: 1000,
        figures: [{ shape: "on_sale price.asc", p50Ms: 2, p99Ms: 25, indexBacked: true }],
      },
    });
    const path = writeBenchResults(folder, results);

    assert.equal(path, join(folder, "2026-11-28T03-04-05Z-market.json"));
    assert.deepEqual(readdirSync(folder), ["2026-11-28T03-04-05Z-market.json"]);
    const written = JSON.parse(readFileSync(path, "utf8")) as BenchResults;
    assert.equal(written.date, "2026-11-28T03:04:05.678Z");
    assert.deepEqual(written.options, { duration: "3" });
    assert.ok(written.machine.cpus >= 1 && written.machine.memoryMb > 0);
    assert.deepEqual(written.machine.loadAverage.start, [1.5, 1, 0.5]);
    assert.equal(written.machine.loadAverage.end.length, 3);
    assert.equal(written.machine.node, process.version);

    const goals = written.figures.map((judged) => [
      judged.name,
      judged.goal?.met,
      judged.goal?.atLeast ?? judged.goal?.atMost,
    ]);
    assert.deepEqual(goals, [
      ["whole market (gzip)", true, 0.9],
      ["whole market (brotli)", false, 0.9],
      ["freshness, whole market (PGlite) p99", false, 1000],
      ["catalog first load", undefined, undefined],
    ]);
    assert.equal(written.listingQueries?.goal.met, false, "a p99 over 20 ms misses the listing-query goal");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test("a second run in the same second does not overwrite the first's results", () => {
  const folder = mkdtempSync(join(tmpdir(), "bench-results-"));
  try {
    const results = benchResults({
      date: new Date("2026-11-28T03:04:05Z"),
      bench: "events",
      options: {},
      machine: machineNow([0, 0, 0]),
      figures: [],
    });
    const first = writeBenchResults(folder, results);
    const second = writeBenchResults(folder, results);
    assert.equal(second, join(folder, "2026-11-28T03-04-05Z-events-2.json"));
    assert.deepEqual(
      readdirSync(folder).sort(),
      [first, second].map((path) => path.slice(folder.length + 1)).sort(),
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
