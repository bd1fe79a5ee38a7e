import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { promisify } from "node:util";
import { Worker } from "node:worker_threads";
import { sql } from "kysely";
import { buildApp } from "../src/app.ts";
import { loadCatalog } from "../src/domain/catalog/load-catalog.ts";
import { OffsetClock } from "../src/domain/clock.ts";
import { DEFAULT_MARKET_RULES, type DomainContext } from "../src/domain/context.ts";
import { SecretBox } from "../src/domain/secret-box.ts";
import { assertLedgerInvariants } from "../src/domain/wallet/check-ledger-invariants.ts";
import { fundAccount } from "../src/domain/wallet/fund-account.ts";
import { createApiToken } from "../src/domain/tokens/create-api-token.ts";
import { buildDemoMarket } from "../src/demo/build-demo-market.ts";
import { DemoRandom } from "../src/domain/simulation/demo-random.ts";
import { SandboxPlatform } from "../src/platform/sandbox/sandbox-platform.ts";
import { openDatabase, type DatabaseHandle } from "../src/storage/database.ts";
import { migrateToLatest } from "../src/storage/migrator.ts";
import { runOnServer, urlOfDatabase } from "../src/storage/postgres-admin.ts";
import type { LoadFigures } from "./purchase-load-worker.ts";
import { tracePurchases, traceLines } from "./purchase-trace.ts";

const run = promisify(execFile);
const ADMIN = "sma_bench-admin-token-000000000000";
/** Buyers pay up to this per unit (yuan): the supply counted below is what they can afford. */
const MAX_PRICE = 1000;
/** The popular goods of the hot shape. */
const HOT_GOODS = 4;
/** Purchases a second the market is sized for (more than measured so far, with room). */
const SIZED_FOR = 3000;
const WARM_UP_SECONDS = 3;
/** Purchases `--trace` follows statement by statement. */
const TRACED_PURCHASES = 300;

export interface ShapeFigures {
  purchasesPerSecond: number;
  purchases: number;
  /** How many goods the buyers picked from. */
  goods: number;
  /** Where a purchase's time went (see `measured`). */
  cost: PurchaseCost;
}

/** Per purchase: statements sent to PostgreSQL, and the CPU time of each side. */
export interface PurchaseCost {
  statements: number;
  /** CPU of the market database's server processes (user and system), in microseconds. */
  postgresUs: number;
  /**
   * Wall time the server's event loop was busy (the load runs in another thread), in
   * microseconds: its CPU, plus whatever ran on its core meanwhile (a write that wakes a
   * PostgreSQL process may let that process run first), so it overstates Node's own work.
   */
  loopBusyUs: number;
  /** CPU of the server's thread (the HTTP layer, the domain, `pg`), in microseconds. */
  nodeUs: number;
  /** CPU of the rest of the process: the load generator's thread and Node's helper threads. */
  loadUs: number;
}

export interface PurchaseFigures {
  clients: number;
  scale: number;
  /** pgbench's tps before and after the purchases; the baseline is their mean. */
  pgbenchTps: [number, number];
  baseline: number;
  spread: ShapeFigures;
  hot: ShapeFigures;
}

/**
 * Purchases per second through the HTTP API on a PostgreSQL server, against pgbench's TPC-B
 * transactions per second on the same server in the same run, with as many pgbench clients as
 * buyers and a scale of at least the clients (pgbench's own rule: below it, the clients queue on
 * the few branch rows). Two shapes of load: buyers spread over the whole market, each request
 * for goods picked at random in proportion to what is on sale, and many buyers after the same
 * few popular goods (hot rows). Each database is created for the run and dropped afterwards.
 * `serverUrl` names the server (its database is only used to connect). With `existing`, the
 * market is the one already in `serverUrl`'s database (a `skinmarket demo` world, kept): its
 * first traders buy what its other traders have on sale, with API tokens issued for the run.
 */
export async function benchPurchases(
  serverUrl: string,
  seconds: number,
  progress: (line: string) => void,
  options: { clients?: number; trace?: boolean; existing?: boolean } = {},
): Promise<PurchaseFigures> {
  const clients = options.clients ?? 16;
  const suffix = `${process.pid}_${Date.now()}`;
  const marketDb = options.existing
    ? decodeURIComponent(new URL(serverUrl).pathname.slice(1))
    : `skinmarket_bench_market_${suffix}`;
  const pgbenchDb = `skinmarket_bench_pgbench_${suffix}`;
  const scale = clients;
  if (!options.existing) await runOnServer(serverUrl, `CREATE DATABASE ${marketDb}`);
  // The time of each SQL function (pg_stat_user_functions), printed after the runs.
  await runOnServer(serverUrl, `ALTER DATABASE ${marketDb} SET track_functions = 'pl'`);
  await runOnServer(serverUrl, `CREATE DATABASE ${pgbenchDb}`);
  try {
    const pgbenchUrl = urlOfDatabase(serverUrl, pgbenchDb);
    progress(`pgbench: initializing scale ${scale}`);
    await run("pgbench", ["-i", "-s", String(scale), "-q", pgbenchUrl]);
    const pgbench = async () => {
      const { stdout } = await run("pgbench", [
        "-c",
        String(clients),
        "-j",
        "2",
        "-T",
        String(seconds),
        "-n",
        pgbenchUrl,
      ]);
      const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
      if (!Number.isFinite(tps)) throw new Error(`could not read pgbench's tps from:\n${stdout}`);
      progress(`pgbench: TPC-B, scale ${scale}, ${clients} clients, ${seconds} s: ${tps.toFixed(0)} tps`);
      return tps;
    };
    const before = await pgbench();

    const database = await openDatabase({ kind: "postgres", url: urlOfDatabase(serverUrl, marketDb) });
    try {
      await migrateToLatest(database.db);
      const clock = new OffsetClock();
      const services = {
        platform: new SandboxPlatform(),
        secretBox: new SecretBox(SecretBox.generateKey()),
        rules: DEFAULT_MARKET_RULES,
      };
      const ctx: DomainContext = {
        db: database.db,
        clock,
        actor: { kind: "admin" },
        log: { info() {}, warn() {}, error() {} },
        ...services,
      };
      const buyers = options.existing
        ? await existingBuyers(ctx, clients)
        : await newMarketBuyers(ctx, database, seconds, clients, progress);
      for (const buyer of buyers) {
        const funded = await fundAccount(ctx, {
          userId: buyer.userId,
          account: "balance",
          amount: "100000000",
        });
        if (!funded.ok) throw new Error(funded.failure.message);
      }
      const supply = await supplyByGoods(
        ctx,
        buyers.map((buyer) => buyer.userId),
      );
      const hotIds = new Set(supply.slice(0, HOT_GOODS).map((row) => row.goodsId));
      const spread = shuffled(supply.filter((row) => !hotIds.has(row.goodsId)));
      const hot = shuffled(supply.filter((row) => hotIds.has(row.goodsId)));
      progress(
        `supply: ${spread.length} units across ${supply.length - HOT_GOODS} goods, ${hot.length} units of the ${HOT_GOODS} popular goods`,
      );

      const app = await buildApp({ database, clock, ...services, sandbox: { clock, adminToken: ADMIN } });
      const baseUrl = await app.listen({ port: 0, host: "127.0.0.1" });
      try {
        const tokens = buyers.map((buyer) => buyer.token);
        // The pool's connections plan their statements on a market with a history and planner
        // statistics (as a server past its first minute does; docs/design/performance.md#how-the-bench-measures).
        progress(`warm-up: ${clients} buyers across the market, ${WARM_UP_SECONDS} s, then ANALYZE`);
        const warmUp = await purchaseLoad({
          baseUrl,
          tokens,
          goods: spread,
          offset: 0,
          seconds: WARM_UP_SECONDS,
        });
        checked(warmUp);
        await sql`ANALYZE`.execute(database.db);
        progress(`spread: ${clients} buyers across the market, ${seconds} s`);
        const spreadLoad = await measured(ctx, "spread", () =>
          purchaseLoad({ baseUrl, tokens, goods: spread, offset: warmUp.requests, seconds }),
        );
        const spreadBought = checked(spreadLoad.load);
        const spreadSeconds = spreadLoad.load.seconds;
        progress(
          `spread: ${(spreadBought / spreadSeconds).toFixed(0)} purchases/s, ${costLine(spreadLoad.cost)}`,
        );
        // A market already built may hold less of its popular goods than a full run would buy:
        // the buyers then stop after asking for nine units in ten, so that the last requests do
        // not queue for the last few units.
        const hotAmount =
          options.existing && hot.length < seconds * SIZED_FOR ? Math.floor(hot.length * 0.9) : undefined;
        progress(
          `hot: ${clients} buyers after ${HOT_GOODS} goods, ${hotAmount === undefined ? `${seconds} s` : `until their ${hotAmount} units are bought`}`,
        );
        const hotLoad = await measured(ctx, "hot", () =>
          purchaseLoad({
            baseUrl,
            tokens,
            goods: hot,
            offset: 0,
            seconds,
            ...(hotAmount === undefined ? {} : { amount: hotAmount }),
          }),
        );
        const hotBought = checked(hotLoad.load);
        const hotSeconds = hotLoad.load.seconds;
        progress(`hot: ${(hotBought / hotSeconds).toFixed(0)} purchases/s, ${costLine(hotLoad.cost)}`);
        if (options.trace) {
          // The units the spread shape left: its sequence holds one entry per unit on sale.
          const left = spread.slice(warmUp.requests + spreadLoad.load.requests);
          const trace = await tracePurchases(urlOfDatabase(serverUrl, marketDb), {
            buyerId: buyers[0]!.userId,
            goods: left.slice(0, TRACED_PURCHASES),
            maxPrice: MAX_PRICE,
          });
          for (const line of traceLines(trace)) progress(line);
        }
        await assertLedgerInvariants(database.db);
        progress("ledger invariants hold after the runs");
        const after = await pgbench();
        // Read after pgbench's run: idle server processes report their counts within seconds.
        const functions = await sql<{ funcname: string; calls: number; total_ms: number; self_ms: number }>`
          SELECT funcname, calls::int, total_time AS total_ms, self_time AS self_ms
          FROM pg_stat_user_functions ORDER BY total_time DESC
        `.execute(database.db);
        for (const row of functions.rows)
          progress(
            `function ${row.funcname}: ${row.calls} calls, ${((row.total_ms * 1000) / row.calls).toFixed(0)} us each in all, ${((row.self_ms * 1000) / row.calls).toFixed(0)} us in itself`,
          );
        return {
          clients,
          scale,
          pgbenchTps: [before, after],
          baseline: (before + after) / 2,
          spread: {
            purchasesPerSecond: spreadBought / spreadSeconds,
            purchases: spreadBought,
            goods: supply.length - HOT_GOODS,
            cost: spreadLoad.cost,
          },
          hot: {
            purchasesPerSecond: hotBought / hotSeconds,
            purchases: hotBought,
            goods: HOT_GOODS,
            cost: hotLoad.cost,
          },
        };
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }
  } finally {
    if (!options.existing) await runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${marketDb} WITH (FORCE)`);
    await runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${pgbenchDb} WITH (FORCE)`);
  }
}

/**
 * A load with what each purchase cost: statements counted where `pg` sends them, the CPU time the
 * market database's server processes used (from /proc: the server runs on this machine), and the
 * time the server's event loop was busy (the HTTP layer, the domain, `pg`'s encoding and parsing).
 */
async function measured(
  ctx: DomainContext,
  name: string,
  load: () => Promise<LoadFigures>,
): Promise<{ load: LoadFigures; cost: PurchaseCost }> {
  // BENCH_CPU_PROFILE=<dir>: a CPU profile of the server's thread during the load, for DevTools.
  const profileDir = process.env.BENCH_CPU_PROFILE;
  const session = profileDir ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
  }
  const query = pg.Client.prototype.query;
  let statements = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    statements += 1;
    return (query as (...args: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  const cpuBefore = await backendCpuTicks(ctx);
  const loopBefore = performance.eventLoopUtilization();
  const threadBefore = await mainThreadCpuUs();
  const processBefore = process.cpuUsage();
  try {
    const figures = await load();
    const loop = performance.eventLoopUtilization(loopBefore);
    const thread = (await mainThreadCpuUs()) - threadBefore;
    const processUsage = process.cpuUsage(processBefore);
    if (session) {
      const { profile } = await session.post("Profiler.stop");
      await writeFile(`${profileDir}/purchases-${name}.cpuprofile`, JSON.stringify(profile));
      session.disconnect();
    }
    const cpuAfter = await backendCpuTicks(ctx);
    let ticks = 0;
    for (const [pid, after] of cpuAfter) ticks += after - (cpuBefore.get(pid) ?? 0);
    const purchases = Math.max(1, figures.purchases);
    return {
      load: figures,
      cost: {
        // Less the two reads of the server processes' ids.
        statements: (statements - 2) / purchases,
        postgresUs: (ticks * 10_000) / purchases,
        loopBusyUs: (loop.active * 1000) / purchases,
        nodeUs: thread / purchases,
        loadUs: (processUsage.user + processUsage.system - thread) / purchases,
      },
    };
  } finally {
    pg.Client.prototype.query = query;
  }
}

/** CPU time of this process's main thread (the server's event loop), in microseconds. */
async function mainThreadCpuUs(): Promise<number> {
  const fields = (await readFile(`/proc/self/task/${process.pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** CPU clock ticks (1/100 s) used so far by each server process of the market database. */
async function backendCpuTicks(ctx: DomainContext): Promise<Map<number, number>> {
  const { rows } = await sql<{ pid: number }>`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database()
  `.execute(ctx.db);
  const ticks = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      // Fields 14 and 15 (utime, stime), after the command name in parentheses.
      const fields = (await readFile(`/proc/${pid}/stat`, "utf8")).split(") ")[1]!.split(" ");
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks;
}

function costLine(cost: PurchaseCost): string {
  return `per purchase ${cost.statements.toFixed(2)} statements, CPU us: PostgreSQL ${cost.postgresUs.toFixed(0)}, server thread ${cost.nodeUs.toFixed(0)} (event loop busy ${cost.loopBusyUs.toFixed(0)} us), load generator ${cost.loadUs.toFixed(0)}`;
}

/**
 * The units each standard goods has on sale that every buyer could buy at `MAX_PRICE` (the
 * conditions of `purchase_goods_unit`, migration 0019, and none of the buyers' own listings), most first.
 * A condition that drifted from the function's shows as empty answers, which fail the run.
 */
/** A new demo market sized for the run, and its first traders as the buyers. */
async function newMarketBuyers(
  ctx: DomainContext,
  database: DatabaseHandle,
  seconds: number,
  clients: number,
  progress: (line: string) => void,
): Promise<Array<{ userId: number; token: string }>> {
  progress("loading the catalog");
  await loadCatalog(ctx);
  // The demo market: about half its listings are standard goods a purchase of goods can buy.
  // Sized so that neither shape runs out: each sequence below holds one entry per listing.
  const spreadListings = Math.ceil(((WARM_UP_SECONDS + seconds) * SIZED_FOR * 2.5) / 1000) * 1000;
  const hotListings = Math.ceil((seconds * SIZED_FOR * 1.2) / 1000) * 1000;
  progress(
    `building the demo market: ${spreadListings} listings across the catalog, ${hotListings} more on its ${HOT_GOODS} most popular standard goods`,
  );
  const demo = await buildDemoMarket(
    database,
    { seed: 1, listings: spreadListings, popularListings: { goods: HOT_GOODS, listings: hotListings } },
    () => undefined,
  );
  return demo.traders.slice(0, clients);
}

/** The first traders of a market already built, each with an API token issued for the run. */
async function existingBuyers(
  ctx: DomainContext,
  clients: number,
): Promise<Array<{ userId: number; token: string }>> {
  const users = await ctx.db
    .selectFrom("users")
    .select("user_id")
    .orderBy("user_id")
    .limit(clients)
    .execute();
  if (users.length < clients)
    throw new Error(`the market has ${users.length} traders, fewer than ${clients} buyers`);
  return Promise.all(
    users.map(async ({ user_id: userId }) => {
      const issued = await createApiToken(ctx, { userId: Number(userId) });
      if (!issued.ok) throw new Error(issued.failure.message);
      return { userId: Number(userId), token: issued.value.token };
    }),
  );
}

async function supplyByGoods(ctx: DomainContext, buyerIds: number[]) {
  const { rows } = await sql<{ goods_id: number; units: number }>`
    SELECT listing.goods_id, count(*)::int AS units
    FROM listings AS listing JOIN goods USING (goods_id)
    WHERE goods.is_standard AND listing.state = 'ON_SALE' AND listing.price <= ${MAX_PRICE * 100}
      AND NOT listing.force_buyer_send_offer AND listing.user_id <> ALL (${buyerIds}::bigint[])
      AND (listing.tradable_after IS NULL OR listing.tradable_after <= ${ctx.clock.now()})
    GROUP BY listing.goods_id ORDER BY units DESC, listing.goods_id
  `.execute(ctx.db);
  return rows.map((row) => ({ goodsId: row.goods_id, units: row.units }));
}

/** One entry per unit on sale, in a random order: the goods the buyers ask for, one after another. */
function shuffled(supply: Array<{ goodsId: number; units: number }>): number[] {
  const order = supply.flatMap((row) => Array.from({ length: row.units }, () => row.goodsId));
  const random = new DemoRandom(7);
  for (let index = order.length - 1; index > 0; index--) {
    const other = random.int(0, index);
    [order[index], order[other]] = [order[other]!, order[index]!];
  }
  return order;
}

/** The purchases of a load, or why it does not count: failed requests, or an empty market. */
function checked(load: LoadFigures): number {
  if (load.failures > 0) throw new Error(`${load.failures} purchase requests failed`);
  if (load.emptyAnswers > 0)
    throw new Error(`${load.emptyAnswers} purchases found no listing (after ${load.purchases} bought)`);
  return load.purchases;
}

function purchaseLoad(input: {
  baseUrl: string;
  tokens: string[];
  goods: number[];
  offset: number;
  seconds: number;
  amount?: number;
}): Promise<LoadFigures> {
  const worker = new Worker(new URL("./purchase-load-worker.ts", import.meta.url), {
    workerData: { ...input, maxPrice: MAX_PRICE },
  });
  return new Promise((resolve, reject) => {
    worker.once("message", (figures: LoadFigures) => resolve(figures));
    worker.once("error", reject);
  });
}
