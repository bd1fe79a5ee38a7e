import { monitorEventLoopDelay } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { sql } from "kysely";
import type { DomainContext } from "../src/domain/context.ts";
import type { MarketChanges } from "../src/domain/market/market-changes.ts";
import type { Figure } from "./market.ts";

/** The freshness goal of docs/design/performance.md#goals: a change shows within a second. */
const GOAL_MS = 1000;

/**
 * Price changes streaming in at `perSecond`, as commits of this process: each moves one listing's
 * price by a fen (up and down, so that the market stays what it was) and counts as a change, as a
 * committed transaction's `afterCommit` does. Answers a function that stops the stream.
 */
export function startChangeStream(
  ctx: DomainContext,
  changes: MarketChanges,
  listingIds: readonly number[],
  perSecond: number,
): () => Promise<void> {
  let step = 0;
  let inFlight = Promise.resolve();
  const timer = setInterval(() => {
    const listingId = listingIds[step % listingIds.length]!;
    const delta = Math.floor(step / listingIds.length) % 2 === 0 ? 1 : -1;
    step += 1;
    inFlight = sql<{ goods_id: number }>`
      UPDATE listings SET price = price + ${delta} WHERE listing_id = ${listingId} RETURNING goods_id
    `
      .execute(ctx.db)
      .then(({ rows }) => changes.committed(rows.map((row) => row.goods_id)));
  }, 1000 / perSecond);
  return async () => {
    clearInterval(timer);
    await inFlight;
  };
}

/**
 * The largest event-loop stall seen while `during` runs, in milliseconds, with two figures that
 * tell the server's own work from the machine's (docs/design/performance.md#no-stall-at-start-or-during-a-rebuild): `cpuStallMaxMs`, the
 * most CPU time the server thread used between two ticks of a 5 ms timer (the longest stretch of
 * its own work without a turn for timers), and `idleThreadLagMaxMs`, the largest stall an idle
 * thread of the same process saw meanwhile (time spent waiting for a core on a busy machine).
 */
export async function eventLoopLagMax<Value>(
  during: () => Promise<Value>,
): Promise<{ value: Value; lagMaxMs: number; cpuStallMaxMs: number; idleThreadLagMaxMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  const idleThread = new Worker(IDLE_THREAD, { eval: true });
  await new Promise((resolve) => idleThread.once("message", resolve));
  const threadCpuMs = () => {
    const used = process.threadCpuUsage();
    return (used.user + used.system) / 1000;
  };
  let lastCpu = threadCpuMs();
  let cpuStallMaxMs = 0;
  const ticks = setInterval(() => {
    const cpu = threadCpuMs();
    cpuStallMaxMs = Math.max(cpuStallMaxMs, cpu - lastCpu);
    lastCpu = cpu;
  }, 5);
  histogram.enable();
  try {
    const value = await during();
    idleThread.postMessage("max");
    const idleThreadLagMaxMs = await new Promise<number>((resolve) => idleThread.once("message", resolve));
    return { value, lagMaxMs: histogram.max / 1e6, cpuStallMaxMs, idleThreadLagMaxMs };
  } finally {
    histogram.disable();
    clearInterval(ticks);
    await idleThread.terminate();
  }
}

/** A thread that does nothing but watch its own event loop; asked, it answers its largest stall. */
const IDLE_THREAD = `
const { monitorEventLoopDelay } = require("node:perf_hooks");
const { parentPort } = require("node:worker_threads");
const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
parentPort.on("message", () => parentPort.postMessage(histogram.max / 1e6));
parentPort.postMessage("ready");
`;

/**
 * Freshness as a bot sees it: `probes` times, a listing's price is written and committed (as a
 * listing's commit: the SQL write, then the change counted); from then, the time until the first
 * single-goods answer, and the first whole-market answer, that shows the new price.
 */
export async function measureFreshness(
  ctx: DomainContext,
  changes: MarketChanges,
  probe: { listingId: number; goodsId: number },
  label: string,
  answers: { singleGoods: () => Promise<string>; wholeMarket: () => Promise<string | undefined> },
  probes: number,
): Promise<Figure[]> {
  const single: number[] = [];
  const whole: number[] = [];
  for (let round = 0; round < probes; round++) {
    const price = 100_000 + round;
    await sql`UPDATE listings SET price = ${price} WHERE listing_id = ${probe.listingId}`.execute(ctx.db);
    changes.committed([probe.goodsId]);
    const written = performance.now();
    const shown = (price / 100).toFixed(2);
    single.push(await until(async () => (await answers.singleGoods()) === shown, written));
    whole.push(await until(async () => (await answers.wholeMarket()) === shown, written));
  }
  return [
    ...percentiles(`freshness, single goods (${label})`, single, probe.goodsId),
    ...percentiles(`freshness, whole market (${label})`, whole, probe.goodsId),
  ];
}

async function until(shows: () => Promise<boolean>, since: number): Promise<number> {
  while (!(await shows())) await new Promise((resolve) => setTimeout(resolve, 5));
  return performance.now() - since;
}

function percentiles(name: string, samples: number[], goodsId: number): Figure[] {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (fraction: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
  return (
    [
      ["p50", at(0.5)],
      ["p99", at(0.99)],
    ] as const
  ).map(([label, value]) => ({
    name: `${name} ${label}`,
    value,
    baseline: GOAL_MS,
    unit: "ms",
    ratio: value / GOAL_MS,
    note: `${samples.length} price writes to goods ${goodsId}, each until the first answer showing it (polled every 5 ms), 100 other changes a second streaming in; ratio to the 1 s goal`,
  }));
}

/**
 * The probe (a tradable listing alone on sale for its goods, so that its price is the goods'
 * lowest) and the listings the change stream moves (of other goods).
 */
export async function changeTargets(ctx: DomainContext) {
  const alone = await sql<{ goods_id: number; listing_id: number }>`
    SELECT goods_id, min(listing_id) AS listing_id FROM listings
    WHERE state = 'ON_SALE' AND (tradable_after IS NULL OR tradable_after <= now())
    GROUP BY goods_id HAVING count(*) = 1 ORDER BY goods_id LIMIT 1
  `.execute(ctx.db);
  const probe = alone.rows[0];
  if (!probe) throw new Error("the demo market has no goods with a single listing");
  const others = await sql<{ listing_id: number }>`
    SELECT listing_id FROM listings WHERE state = 'ON_SALE' AND goods_id <> ${probe.goods_id}
    ORDER BY listing_id LIMIT 500
  `.execute(ctx.db);
  return {
    probe: { goodsId: probe.goods_id, listingId: probe.listing_id },
    streamed: others.rows.map((row) => row.listing_id),
  };
}
