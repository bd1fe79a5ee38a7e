import { parseArgs } from "node:util";
import { benchPurchases } from "./purchases.ts";
import { benchMarket, type Figure } from "./market.ts";
import { benchTwoInstanceFreshness } from "./two-instances.ts";
import { benchListingQueries, type ListingQueryFigures } from "./listing-queries.ts";
import { benchRebuild } from "./rebuild.ts";
import { benchEvents } from "./events.ts";
import { benchSimulate } from "./simulate.ts";
import { benchStart } from "./start.ts";
import { benchListings, type ListingFigures } from "./listings.ts";
import { benchService } from "./service.ts";
import { loadavg } from "node:os";
import { benchResults, DEFAULT_RESULTS_FOLDER, machineNow, writeBenchResults } from "./bench-results.ts";

/**
 * `npm run bench`: each figure is a ratio against a baseline measured in the same run on the same
 * machine, so the numbers travel between machines. Absolute figures are printed for context.
 *   --duration <s>   seconds per HTTP measurement (default 5)
 *   --json           print the results as JSON
 *   --results <dir>  where the results file goes (default bench-results/ at the repository's root)
 *   --no-results     write no results file
 * BENCH_DATABASE_URL: also measure on that PostgreSQL server. Use a scratch database: the bench
 * migrates it and leaves its users and journal entries behind. BENCH_REDIS_URL: also measure the
 * rate limits counted in that Redis.
 */
const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    duration: { type: "string", default: "5" },
    listings: { type: "string", default: "1000000" },
    "per-phase": { type: "string", default: "10000" },
    after: { type: "string", default: "1000000" },
    connections: { type: "string", default: "4" },
    steps: { type: "string", default: "200" },
    subscribers: { type: "string", default: "1000" },
    rate: { type: "string", default: "1000" },
    "client-threads": { type: "string", default: "2" },
    plans: { type: "boolean", default: false },
    trace: { type: "boolean", default: false },
    watch: { type: "string", default: "60" },
    "sign-ins": { type: "string", default: "4" },
    "node-options": { type: "string" },
    existing: { type: "boolean", default: false },
    rounds: { type: "string", default: "3" },
    json: { type: "boolean", default: false },
    results: { type: "string" },
    "no-results": { type: "boolean", default: false },
    help: { type: "boolean" },
  },
});
if (flags.help) {
  process.stdout.write(
    "usage: npm run bench -- [purchases|market|queries|simulate|events|listings|start] [--duration seconds] [--json]\n" +
      "          [--results folder | --no-results]: each run writes its figures, machine and goals to\n" +
      "          bench-results/<date>-<bench>.json at the repository's root (docs/design/performance.md)\n" +
      "  purchases: purchases/s through the API vs pgbench TPC-B on BENCH_DATABASE_URL's server;\n" +
      "          --trace also follows 300 purchases statement by statement (auto_explain: each\n" +
      "          statement's time, foreign-key checks and event triggers); --existing buys on the\n" +
      "          market already in BENCH_DATABASE_URL's database (a `skinmarket demo` world)\n" +
      "  market: whole-market prices vs bare node:http, one goods vs Fastify hello-world; with\n" +
      "          BENCH_DATABASE_URL also p50/p99 and plans of the listing queries over --listings\n" +
      "          listings (default 1000000; --plans prints the plans)\n" +
      "  queries: the listing queries' p50/p99 and plans, the whole-market rebuild, an update of\n" +
      "          100 goods and the rolling recheck's slice (--rounds, default 3); with --existing on the market already in BENCH_DATABASE_URL's database\n" +
      "          (a `skinmarket demo` world), else on a new demo market of --listings listings\n" +
      "  simulate: simulated traders' actions/s calling the verbs vs the same actions over HTTP\n" +
      "          (--steps, default 200)\n" +
      "  start: skinmarket serve on a new data directory (embedded database, demo market), then\n" +
      "          restarted on it: /healthz latency from the port's opening, with --sign-ins a\n" +
      "          second (default 4), the server's event-loop lag, and its resident size from 15 s\n" +
      "          to --watch seconds (default 60); --node-options are the server's NODE_OPTIONS\n" +
      "  listings: listings/s through POST sell_order/items (200 assets a request) vs a plain\n" +
      "          200-row INSERT into listings, on an empty market and with --after listings on sale\n" +
      "          (default 1000000), --per-phase listings each side (default 10000), --connections\n" +
      "          in flight (default 4); on BENCH_DATABASE_URL; --plans prints the reads' plans\n",
  );
  process.exit(0);
}
const duration = Number(flags.duration);
const startedAt = new Date();
const loadAtStart = loadavg();
const figures: Figure[] = [];

function progress(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

let listingQueries: ListingQueryFigures | undefined;
let listingWrites: ListingFigures | undefined;
if (positionals[0] === "listings") {
  const server = process.env.BENCH_DATABASE_URL;
  if (!server) {
    process.stderr.write("bench listings: set BENCH_DATABASE_URL to a PostgreSQL server\n");
    process.exit(2);
  }
  listingWrites = await benchListings(
    server,
    {
      perPhase: Number(flags["per-phase"]),
      after: Number(flags.after),
      connections: Number(flags.connections),
    },
    progress,
  );
  figures.push(...listingWrites.figures);
  report();
  process.exit(0);
}

if (positionals[0] === "start") {
  const nodeOptions = flags["node-options"];
  const results = await benchStart({
    seconds: Number(flags.watch),
    signInsPerSecond: Number(flags["sign-ins"]),
    ...(nodeOptions ? { nodeOptions } : {}),
    progress,
  });
  const settings = nodeOptions ? `, NODE_OPTIONS=${nodeOptions}` : "";
  for (const result of results) {
    const healthz = result.healthz;
    figures.push(
      {
        name: `/healthz, ${result.start}, max`,
        value: healthz.maxMs,
        baseline: 100,
        unit: "ms",
        ratio: healthz.maxMs / 100,
        note: `${healthz.probes} probes from the port's opening (${(result.portOpenMs / 1000).toFixed(1)} s after the spawn) for ${flags.watch} s, p99 ${healthz.p99Ms.toFixed(1)} ms, ${healthz.failures} failed; ${result.signIns.done} sign-ins meanwhile (${result.signIns.refused} refused)${settings}; ratio to the 100 ms goal`,
      },
      {
        name: `event-loop lag, ${result.start}, to the port`,
        value: result.eventLoopLagMaxMs.beforeOpen,
        baseline: 100,
        unit: "ms",
        ratio: result.eventLoopLagMaxMs.beforeOpen / 100,
        note: `the server's largest stall (nodejs_eventloop_lag_max_seconds) from its start to the port's opening${settings}; ratio to the 100 ms goal`,
      },
      {
        name: `event-loop lag, ${result.start}, serving`,
        value: result.eventLoopLagMaxMs.afterOpen,
        baseline: 100,
        unit: "ms",
        ratio: result.eventLoopLagMaxMs.afterOpen / 100,
        note: `the server's largest stall (nodejs_eventloop_lag_max_seconds) from the port's opening to the end${settings}; ratio to the 100 ms goal`,
      },
      {
        name: `resident memory, ${result.start}`,
        value: result.residentMb.max,
        baseline: 600,
        unit: "MB",
        ratio: result.residentMb.max / 600,
        note: `the serving process's VmRSS, the largest of ${result.residentMb.samples} samples from 15 s after the port opened (smallest ${result.residentMb.min.toFixed(0)} MB)${settings}; ratio to the 600 MB goal`,
      },
    );
  }
  report();
  process.exit(0);
}

if (positionals[0] === "purchases") {
  const server = process.env.BENCH_DATABASE_URL;
  if (!server) {
    process.stderr.write(
      "bench purchases: set BENCH_DATABASE_URL to a PostgreSQL server (pgbench runs against it too)\n",
    );
    process.exit(2);
  }
  const result = await benchPurchases(server, duration, progress, {
    trace: flags.trace,
    existing: flags.existing,
  });
  const pgbench = `pgbench TPC-B scale ${result.scale}, ${result.clients} clients: ${result.pgbenchTps.map((tps) => tps.toFixed(0)).join(" before, ")} after`;
  for (const [shape, figure] of [
    ["across the market", result.spread],
    ["hot goods", result.hot],
  ] as const) {
    figures.push({
      name: `purchases, ${shape} (PostgreSQL)`,
      value: figure.purchasesPerSecond,
      baseline: result.baseline,
      unit: "tx/s",
      ratio: figure.purchasesPerSecond / result.baseline,
      note: `HTTP purchases of one unit, ${result.clients} buyers over ${figure.goods} goods, ${figure.purchases} in all, ledger checked after; vs ${pgbench}`,
    });
  }
  report();
  process.exit(0);
}

if (positionals[0] === "queries") {
  const server = process.env.BENCH_DATABASE_URL;
  if (!server) {
    process.stderr.write(
      "bench queries: set BENCH_DATABASE_URL to a PostgreSQL server (or database, with --existing)\n",
    );
    process.exit(2);
  }
  // The whole-market rebuild, the update and the recheck's slice on the same market, existing
  // or new (before a new one is dropped).
  let rebuild: Awaited<ReturnType<typeof benchRebuild>> | undefined;
  listingQueries = await benchListingQueries(
    server,
    {
      listings: Number(flags.listings),
      existing: flags.existing,
      onMarket: async (url) => {
        rebuild = await benchRebuild(url, Number(flags.rounds), progress);
      },
    },
    progress,
  );
  if (rebuild) {
    figures.push(...rebuild.figures);
    if (flags.plans) {
      process.stdout.write("plans of the rebuild's first chunk\n");
      for (const plan of rebuild.plans) process.stdout.write(`${plan.replace(/^/gm, "    ")}\n`);
    }
  }
  report();
  process.exit(0);
}

if (positionals[0] === "simulate") {
  figures.push(...(await benchSimulate(Number(flags.steps), progress)));
  report();
  process.exit(0);
}

if (positionals[0] === "market") {
  figures.push(...(await benchMarket(duration, progress)));
  const server = process.env.BENCH_DATABASE_URL;
  if (server) {
    figures.push(...(await benchTwoInstanceFreshness(server, progress)));
    listingQueries = await benchListingQueries(server, { listings: Number(flags.listings) }, progress);
  } else
    progress(
      "freshness across two instances and listing queries skipped: set BENCH_DATABASE_URL to a PostgreSQL server",
    );
  report();
  process.exit(0);
}

if (positionals[0] === "events") {
  const options = {
    subscribers: Number(flags.subscribers),
    rate: Number(flags.rate),
    seconds: duration,
    clientThreads: Number(flags["client-threads"]),
  };
  figures.push(...(await benchEvents({ kind: "pglite" }, "PGlite", options, progress)));
  const server = process.env.BENCH_DATABASE_URL;
  if (server) {
    figures.push(...(await benchEvents({ kind: "postgres", url: server }, "PostgreSQL", options, progress)));
    figures.push(
      ...(await benchEvents({ kind: "postgres", url: server }, "PostgreSQL", options, progress, true)),
    );
  } else progress("events on PostgreSQL skipped: set BENCH_DATABASE_URL to a PostgreSQL server");
  report();
  process.exit(0);
}

figures.push(
  ...(await benchService(duration, progress, {
    redisUrl: process.env.BENCH_REDIS_URL,
    serverUrl: process.env.BENCH_DATABASE_URL,
  })),
);

report();

function report(): void {
  print();
  if (flags["no-results"]) return;
  const { results: folder, "no-results": _noResults, help: _help, ...options } = flags;
  const path = writeBenchResults(
    folder ?? DEFAULT_RESULTS_FOLDER,
    benchResults({
      date: startedAt,
      bench: positionals[0] ?? "http",
      options,
      machine: machineNow(loadAtStart),
      figures,
      ...(listingQueries ? { listingQueries } : {}),
      ...(listingWrites
        ? { extra: { listingWrites: listingWrites.phases.map(({ plans: _plans, ...phase }) => phase) } }
        : {}),
    }),
  );
  progress(`results written to ${path}`);
}

function print(): void {
  if (flags.json) {
    process.stdout.write(
      `${JSON.stringify({ duration, figures, listingQueries, listingWrites }, null, 2)}\n`,
    );
  } else {
    for (const figure of figures) {
      process.stdout.write(
        `${figure.name.padEnd(26)} ${figure.value.toFixed(0).padStart(8)} ${figure.unit.padEnd(6)} ratio ${figure.ratio.toFixed(2).padStart(7)}  (${figure.note}; baseline ${figure.baseline.toFixed(0)})\n`,
      );
    }
    if (listingQueries) reportListingQueries(listingQueries);
    if (listingWrites && flags.plans)
      for (const phase of listingWrites.phases) {
        process.stdout.write(`\nplans of a listing request's reads, ${phase.existing} listings on sale\n`);
        for (const plan of phase.plans) process.stdout.write(`${plan.replace(/^/gm, "    ")}\n`);
      }
  }
}

function reportListingQueries(result: ListingQueryFigures): void {
  process.stdout.write(
    `\nlisting queries over ${result.listings} listings (goal: p99 <= 20 ms, index-backed)\n`,
  );
  for (const figure of result.figures) {
    process.stdout.write(
      `${figure.shape.padEnd(58)} p50 ${figure.p50Ms.toFixed(1).padStart(6)} ms  p99 ${figure.p99Ms.toFixed(1).padStart(6)} ms  ${figure.indexBacked ? "index-backed" : "SCAN"}\n`,
    );
    if (flags.plans)
      for (const plan of figure.plans) process.stdout.write(`${plan.replace(/^/gm, "    ")}\n`);
  }
}
