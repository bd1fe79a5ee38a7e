import autocannon from "autocannon";
import Fastify from "fastify";
import { sql } from "kysely";
import { buildApp } from "../src/app.ts";
import { createUser } from "../src/domain/accounts/create-user.ts";
import { loadCatalog } from "../src/domain/catalog/load-catalog.ts";
import { OffsetClock } from "../src/domain/clock.ts";
import { DEFAULT_MARKET_RULES } from "../src/domain/context.ts";
import type { DomainContext } from "../src/domain/context.ts";
import { SecretBox } from "../src/domain/secret-box.ts";
import { fundAccount } from "../src/domain/wallet/fund-account.ts";
import { LimiterStore } from "../src/http/limits/limiter-store.ts";
import { SandboxPlatform } from "../src/platform/sandbox/sandbox-platform.ts";
import { openDatabase, type DatabaseLocation } from "../src/storage/database.ts";
import { migrateToLatest } from "../src/storage/migrator.ts";
import type { Figure } from "./market.ts";

/**
 * The service's everyday costs (`npm run bench` without a name): an authenticated balance request
 * against Fastify's hello-world, the same with every rate limit counted (in memory, and in Redis
 * with `redisUrl`), a ledger deposit against a one-row insert transaction, and the catalog's first
 * load; on PGlite, and also on PostgreSQL with `serverUrl`.
 */
export async function benchService(
  duration: number,
  progress: (message: string) => void,
  options: { redisUrl: string | undefined; serverUrl: string | undefined },
): Promise<Figure[]> {
  const figures: Figure[] = [];
  const log = { info() {}, warn() {}, error() {} };
  const services = {
    platform: new SandboxPlatform(),
    secretBox: new SecretBox(SecretBox.generateKey()),
    rules: DEFAULT_MARKET_RULES,
  };

  async function requestsPerSecond(url: string, headers: Record<string, string> = {}): Promise<number> {
    const result = await autocannon({ url, connections: 16, pipelining: 1, duration, headers });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return result.requests.average;
  }

  async function helloWorldBaseline(): Promise<number> {
    progress("baseline: Fastify hello-world");
    const hello = Fastify();
    hello.get("/", async () => ({ hello: "world" }));
    const helloUrl = await hello.listen({ port: 0, host: "127.0.0.1" });
    const baseline = await requestsPerSecond(helloUrl);
    await hello.close();
    return baseline;
  }

  async function httpFigures(location: DatabaseLocation, label: string, baseline: number): Promise<number> {
    progress(`GET /api/market/developer/balance (bearer auth, ledger read, ${label})`);
    const database = await openDatabase(location);
    await migrateToLatest(database.db);
    const clock = new OffsetClock();
    const ctx: DomainContext = { db: database.db, clock, actor: { kind: "admin" }, log, ...services };
    const user = await createUser(ctx, { nickname: `bench-http-${Date.now()}` });
    if (!user.ok) throw new Error(user.failure.message);
    const app = await buildApp({ database, clock, ...services });
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    const balance = await requestsPerSecond(`${url}/api/market/developer/balance`, {
      authorization: `Bearer ${user.value.token}`,
    });
    await app.close();
    await database.close();
    figures.push({
      name: `balance request (${label})`,
      value: balance,
      baseline,
      unit: "req/s",
      ratio: balance / baseline,
      note: "vs Fastify hello-world, same run",
    });
    return balance;
  }

  /**
   * The cost of the rate limits: the same balance requests with every limit counted (in memory, or
   * in Redis with BENCH_REDIS_URL), against the run without limits. The rate is set so high that
   * nothing is refused: what is measured is the counting.
   */
  async function limitFigures(
    label: string,
    withoutLimits: number,
    redisUrl: string | undefined,
  ): Promise<void> {
    progress(`GET /api/market/developer/balance with limits counted (${label})`);
    const database = await openDatabase({ kind: "pglite" });
    await migrateToLatest(database.db);
    const clock = new OffsetClock();
    const ctx: DomainContext = { db: database.db, clock, actor: { kind: "admin" }, log, ...services };
    const user = await createUser(ctx, { nickname: `bench-limits-${Date.now()}` });
    if (!user.ok) throw new Error(user.failure.message);
    const store = new LimiterStore({
      ...(redisUrl ? { redisUrl } : {}),
      keyPrefix: `skinmarket-bench:${Date.now()}`,
      log,
    });
    const unlimited = { points: 1_000_000_000, seconds: 3600 };
    const app = await buildApp({
      database,
      clock,
      ...services,
      limits: { store, settings: { defaultRate: unlimited, overrides: { getBalance: unlimited } } },
    });
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    const limited = await requestsPerSecond(`${url}/api/market/developer/balance`, {
      authorization: `Bearer ${user.value.token}`,
    });
    await app.close();
    await store.close();
    await database.close();
    figures.push({
      name: `limits counted (${label})`,
      value: limited,
      baseline: withoutLimits,
      unit: "req/s",
      ratio: limited / withoutLimits,
      note: "balance requests with rate limits counted, vs the same without limits (PGlite)",
    });
  }

  async function ledgerFigures(location: DatabaseLocation, label: string, count: number): Promise<void> {
    progress(`ledger deposits on ${label}`);
    const database = await openDatabase(location);
    try {
      await migrateToLatest(database.db);
      const ctx: DomainContext = {
        db: database.db,
        clock: new OffsetClock(),
        actor: { kind: "admin" },
        log,
        ...services,
      };
      const user = await createUser(ctx, { nickname: `bench-${Date.now()}` });
      if (!user.ok) throw new Error(user.failure.message);
      await sql`CREATE TEMPORARY TABLE IF NOT EXISTS bench_baseline (id bigserial PRIMARY KEY, amount bigint NOT NULL)`.execute(
        database.db,
      );
      // Baseline: the cheapest write transaction on the same database, one row per transaction.
      const baselineStart = performance.now();
      for (let index = 0; index < count; index++) {
        await database.db
          .transaction()
          .execute((trx) => sql`INSERT INTO bench_baseline (amount) VALUES (${index})`.execute(trx));
      }
      const baseline = count / ((performance.now() - baselineStart) / 1000);
      const start = performance.now();
      for (let index = 0; index < count; index++) {
        const funded = await fundAccount(ctx, {
          userId: user.value.userId,
          account: "balance",
          amount: "1.00",
        });
        if (!funded.ok) throw new Error(funded.failure.message);
      }
      const deposits = count / ((performance.now() - start) / 1000);
      figures.push({
        name: `deposit (${label})`,
        value: deposits,
        baseline,
        unit: "tx/s",
        ratio: deposits / baseline,
        note: "journal entry + 2 lines + 2 balance updates + audit, vs 1-row insert transactions",
      });
    } finally {
      await database.close();
    }
  }

  async function catalogFigure(): Promise<void> {
    progress("catalog first load (PGlite)");
    const database = await openDatabase({ kind: "pglite" });
    await migrateToLatest(database.db);
    const loaded = await loadCatalog({
      db: database.db,
      clock: new OffsetClock(),
      actor: { kind: "system" },
      log,
      ...services,
    });
    await database.close();
    if (!loaded.ok) throw new Error(loaded.failure.message);
    figures.push({
      name: "catalog first load",
      value: loaded.value.milliseconds,
      baseline: loaded.value.goodsCount,
      unit: "ms",
      ratio: loaded.value.goodsCount / (loaded.value.milliseconds / 1000),
      note: "goods per second into an empty embedded database",
    });
  }

  const helloWorld = await helloWorldBaseline();
  const embeddedBalance = await httpFigures({ kind: "pglite" }, "PGlite", helloWorld);
  await limitFigures("memory", embeddedBalance, undefined);
  if (options.redisUrl) await limitFigures("Redis", embeddedBalance, options.redisUrl);
  await ledgerFigures({ kind: "pglite" }, "PGlite", 500);
  if (options.serverUrl) {
    await httpFigures({ kind: "postgres", url: options.serverUrl }, "PostgreSQL", helloWorld);
    await ledgerFigures({ kind: "postgres", url: options.serverUrl }, "PostgreSQL", 1000);
  }
  await catalogFigure();
  return figures;
}
