import { PAINTWEAR_INTERVALS } from "@skinmarket/contract";
import { Kysely, PostgresDialect, sql, type CompiledQuery } from "kysely";
import pg from "pg";
import { buildApp } from "../src/app.ts";
import { buildDemoMarket } from "../src/demo/build-demo-market.ts";
import { createUser } from "../src/domain/accounts/create-user.ts";
import { loadCatalog } from "../src/domain/catalog/load-catalog.ts";
import { OffsetClock } from "../src/domain/clock.ts";
import { DEFAULT_MARKET_RULES, type DomainContext } from "../src/domain/context.ts";
import { getEnterpriseSellOrders } from "../src/domain/listings/get-enterprise-sell-orders.ts";
import { getOnSale } from "../src/domain/listings/get-on-sale.ts";
import { SecretBox } from "../src/domain/secret-box.ts";
import { createApiToken } from "../src/domain/tokens/create-api-token.ts";
import { SandboxPlatform } from "../src/platform/sandbox/sandbox-platform.ts";
import { openDatabase, type DatabaseHandle } from "../src/storage/database.ts";
import { migrateToLatest } from "../src/storage/migrator.ts";
import { runOnServer, urlOfDatabase } from "../src/storage/postgres-admin.ts";
import type { Database } from "../src/storage/schema.ts";
import { INT8_OID, NUMERIC_OID, parseInt8, parseNumeric } from "../src/storage/type-parsers.ts";

/** One query shape: its latencies through the HTTP app, and the plans of the statements it runs. */
export interface ListingQueryFigure {
  shape: string;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  /** EXPLAIN ANALYZE of each statement of one request, as a prepared statement's generic plan. */
  plans: string[];
  /** Every statement of the shape reads an index (no sequential scan of listings or trades). */
  indexBacked: boolean;
}

export interface ListingQueryFigures {
  listings: number;
  figures: ListingQueryFigure[];
}

export interface ListingBenchOptions {
  /** Listings on sale to build (default 1,000,000). */
  listings?: number;
  /** Requests measured per shape (default 200). */
  samples?: number;
  seed?: number;
  /**
   * `serverUrl` names a database that already holds a market (a `skinmarket demo` world): the
   * queries are measured there, nothing is built or dropped (it gains a bench user and tokens).
   */
  existing?: boolean;
  /** Runs on the market's database (its URL) after the queries, before a scratch one is dropped. */
  onMarket?: (url: string) => Promise<void>;
}

/**
 * `npm run bench -- market` (listing queries): a scratch database on the PostgreSQL server
 * `serverUrl` filled by the demo market with `listings` listings, then every variant of
 * `GET /api/market/enterprise/goods/sell_order` and `GET /api/market/developer/sell_order/on_sale`
 * through the HTTP app, p50/p99 per shape, with the plans. The database is dropped afterwards.
 */
export async function benchListingQueries(
  serverUrl: string,
  options: ListingBenchOptions,
  progress: (line: string) => void,
): Promise<ListingQueryFigures> {
  if (options.existing) {
    const database = await openDatabase({ kind: "postgres", url: serverUrl });
    try {
      const figures = await measureListingQueries(database, serverUrl, options, progress);
      await options.onMarket?.(serverUrl);
      return figures;
    } finally {
      await database.close();
    }
  }
  const name = `skinmarket_bench_listings_${process.pid}_${Date.now()}`;
  await runOnServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = urlOfDatabase(serverUrl, name);
  try {
    const database = await openDatabase({ kind: "postgres", url });
    try {
      await migrateToLatest(database.db);
      progress("loading the catalog");
      const loaded = await loadCatalog(contextOf(database.db));
      if (!loaded.ok) throw new Error(loaded.failure.message);
      const listings = options.listings ?? 1_000_000;
      progress(`building a demo market of ${listings} listings`);
      let phase = "";
      await buildDemoMarket(
        database,
        { seed: options.seed ?? 1, listings, traders: 300, days: 30 },
        (step) => {
          if (step.phase !== phase) progress(`demo market: ${(phase = step.phase)}`);
        },
      );
      const figures = await measureListingQueries(database, url, options, progress);
      await options.onMarket?.(url);
      return figures;
    } finally {
      await database.close();
    }
  } finally {
    await runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

const services = {
  platform: new SandboxPlatform(),
  secretBox: new SecretBox(SecretBox.generateKey()),
  rules: DEFAULT_MARKET_RULES,
};
const silent = { info() {}, warn() {}, error() {} };

function contextOf(db: Kysely<Database>, actor: DomainContext["actor"] = { kind: "system" }): DomainContext {
  return { db, clock: new OffsetClock(), actor, log: silent, ...services };
}

interface Shape {
  name: string;
  /** The request of sample `index`. */
  request(index: number): { token: string; url: string; userId: number };
}

/**
 * Measures the listing queries on a filled PostgreSQL database (`url` is the same database, for
 * the plans). A market in steady state has planner statistics, so it is analyzed first.
 */
export async function measureListingQueries(
  database: DatabaseHandle,
  url: string,
  options: ListingBenchOptions,
  progress: (line: string) => void,
): Promise<ListingQueryFigures> {
  const db = database.db;
  await sql`VACUUM ANALYZE listings`.execute(db);
  await sql`VACUUM ANALYZE trades`.execute(db);
  const { count } = await db
    .selectFrom("listings")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("state", "=", sql.lit("ON_SALE"))
    .executeTakeFirstOrThrow();
  const admin = contextOf(db, { kind: "admin" });
  const buyer = await createUser(admin, {
    nickname: `bench-enterprise-${Date.now()}`,
    accessLevel: "enterprise",
  });
  if (!buyer.ok) throw new Error(buyer.failure.message);
  const pools = await choosePools(db);
  const sellerTokens: Array<{ token: string; userId: number; platformid: string }> = [];
  for (const seller of pools.sellers) {
    const issued = await createApiToken(admin, { userId: seller.user_id });
    if (!issued.ok) throw new Error(issued.failure.message);
    sellerTokens.push({ token: issued.value.token, userId: seller.user_id, platformid: seller.platformid });
  }
  const shapes = listingShapes(pools, buyer.value.token, buyer.value.userId, sellerTokens);

  const app = await buildApp({ database, clock: new OffsetClock(), ...services });
  const samples = options.samples ?? 200;
  const captured: CompiledQuery[] = [];
  const planner = capturingDatabase(url, captured);
  const figures: ListingQueryFigure[] = [];
  try {
    for (const shape of shapes) {
      progress(`${shape.name}: ${samples} requests`);
      // Warm up: the statements become named prepared statements, as on a running server.
      for (let index = 0; index < 10; index++) await send(app, shape.request(index));
      const times: number[] = [];
      for (let index = 0; index < samples; index++) {
        const started = performance.now();
        await send(app, shape.request(index));
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      captured.length = 0;
      await runThroughDomain(planner, shape.request(0));
      const plans = await explain(url, captured);
      figures.push({
        shape: shape.name,
        samples,
        p50Ms: percentile(times, 0.5),
        p99Ms: percentile(times, 0.99),
        plans,
        indexBacked: plans.every((plan) => !/Seq Scan on (listings|trades)/.test(plan)),
      });
    }
  } finally {
    await app.close();
    await planner.destroy();
  }
  return { listings: Number(count), figures };
}

async function send(app: Awaited<ReturnType<typeof buildApp>>, request: { token: string; url: string }) {
  const answer = await app.inject({
    method: "GET",
    url: request.url,
    headers: { authorization: `Bearer ${request.token}` },
  });
  if (answer.statusCode !== 200) throw new Error(`${request.url}: ${answer.statusCode} ${answer.body}`);
}

/** The same request through the domain verb on the capturing connection, to learn its statements. */
async function runThroughDomain(db: Kysely<Database>, request: { url: string; userId: number }) {
  const parsed = new URL(request.url, "http://bench");
  const query = Object.fromEntries(parsed.searchParams);
  const ctx = contextOf(db, { kind: "user", userId: request.userId });
  const number = (field: string) => (query[field] === undefined ? {} : { [field]: Number(query[field]) });
  const result = parsed.pathname.includes("/enterprise/")
    ? await getEnterpriseSellOrders(ctx, {
        marketHashName: query.market_hash_name!,
        ...(query.min_paintwear ? { minPaintwear: Number(query.min_paintwear) } : {}),
        ...(query.max_paintwear ? { maxPaintwear: Number(query.max_paintwear) } : {}),
        ...number("paintseed"),
        ...number("paintindex"),
        ...(query.pay_method ? { payMethod: query.pay_method as "epay" } : {}),
        sortBy: (query.sort_by ?? "price.asc") as "price.asc",
        pageNum: Number(query.page_num ?? 1),
        pageSize: Number(query.page_size ?? 10),
      })
    : await getOnSale(ctx, {
        ...(query.platformid ? { platformid: query.platformid } : {}),
        ...(query.min_price ? { minPrice: query.min_price } : {}),
        ...(query.max_price ? { maxPrice: query.max_price } : {}),
        ...(query.min_paintwear ? { minPaintwear: Number(query.min_paintwear) } : {}),
        ...(query.max_paintwear ? { maxPaintwear: Number(query.max_paintwear) } : {}),
        ...(query.search ? { search: query.search } : {}),
        sortBy: query.sort_by ?? "updated.desc",
        pageNum: Number(query.page_num ?? 1),
        pageSize: Number(query.page_size ?? 10),
      });
  if (!result.ok) throw new Error(`${request.url}: ${result.failure.message}`);
}

/**
 * EXPLAIN ANALYZE of each statement as the server runs it after a few executions: a named
 * prepared statement, here forced onto its generic plan (the harder case for partial indexes).
 */
export async function explain(url: string, queries: CompiledQuery[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SET plan_cache_mode = force_generic_plan");
    const plans: string[] = [];
    for (const [index, query] of queries.entries()) {
      const name = `bench_plan_${index}`;
      await client.query(`PREPARE ${name} AS ${query.sql}`);
      const values = query.parameters.map(literalOf);
      const result = await client.query<{ "QUERY PLAN": string }>(
        `EXPLAIN (ANALYZE, BUFFERS, SUMMARY ON) EXECUTE ${name}${values.length ? `(${values.join(", ")})` : ""}`,
      );
      plans.push(`${query.sql}\n${result.rows.map((row) => row["QUERY PLAN"]).join("\n")}`);
      await client.query(`DEALLOCATE ${name}`);
    }
    return plans;
  } finally {
    await client.end();
  }
}

/** A statement parameter written as an SQL literal, for `EXECUTE` of a prepared statement. */
function literalOf(value: unknown): string {
  if (value instanceof Date) return `'${value.toISOString()}'`;
  if (Array.isArray(value)) return `'{${value.join(",")}}'`;
  if (typeof value === "string") return `'${value.replace(/'/g, "''")}'`;
  return String(value);
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

interface Pools {
  /** Goods with wear, most listed first, then a spread of others: each with an interval it reaches. */
  wearGoods: Array<{ name: string; interval: readonly [string, string]; seed: number }>;
  /** Goods whose listings differ by paint index (Doppler phases). */
  phaseGoods: Array<{ market_hash_name: string; paintindex: number }>;
  /** Goods of every kind, most listed first, then a spread. */
  anyGoods: string[];
  /** Sellers with the most listings on sale, then a spread. */
  sellers: Array<{ user_id: number; platformid: string }>;
}

/** The goods and sellers the samples go round: the heaviest first (the p99), then ordinary ones. */
async function choosePools(db: Kysely<Database>): Promise<Pools> {
  const counted = await sql<{
    goods_id: number;
    market_hash_name: string;
    listings: string;
    paintwear_min: string | null;
    paintwear_max: string | null;
    seed: number | null;
  }>`
    SELECT goods.goods_id, goods.market_hash_name, count(*) AS listings, goods.paintwear_min, goods.paintwear_max,
      min(listings.paintseed) AS seed
    FROM listings JOIN goods USING (goods_id)
    WHERE listings.state = 'ON_SALE'
    GROUP BY goods.goods_id ORDER BY count(*) DESC, goods.goods_id
  `.execute(db);
  const spread = <Row>(rows: Row[]) => [
    ...rows.slice(0, 5),
    ...rows.filter((_, index) => index % 97 === 50).slice(0, 15),
  ];
  const wear = counted.rows.filter((row) => row.paintwear_min !== null);
  const wearGoods = spread(wear).map((row) => {
    const low = Number(row.paintwear_min);
    const high = Number(row.paintwear_max);
    const interval =
      PAINTWEAR_INTERVALS.find(([min, max]) => Number(min) < high && Number(max) > low) ??
      PAINTWEAR_INTERVALS[0];
    return { name: row.market_hash_name, interval, seed: row.seed ?? 0 };
  });
  const phases = await sql<{ market_hash_name: string; paintindex: number }>`
    SELECT goods.market_hash_name, min(listings.paintindex) AS paintindex
    FROM listings JOIN goods USING (goods_id)
    WHERE listings.state = 'ON_SALE' AND listings.paintindex IS NOT NULL
    GROUP BY goods.goods_id HAVING count(DISTINCT listings.paintindex) > 1
    ORDER BY count(*) DESC LIMIT 10
  `.execute(db);
  const sellers = await sql<{ user_id: number; platformid: string }>`
    SELECT user_id, min(platformid) AS platformid FROM listings WHERE state = 'ON_SALE'
    GROUP BY user_id ORDER BY count(*) DESC, user_id
  `.execute(db);
  return {
    wearGoods,
    phaseGoods: phases.rows,
    anyGoods: spread(counted.rows).map((row) => row.market_hash_name),
    sellers: spread(sellers.rows).slice(0, 10),
  };
}

function listingShapes(
  pools: Pools,
  buyerToken: string,
  buyerId: number,
  sellers: Array<{ token: string; userId: number; platformid: string }>,
): Shape[] {
  const enterprise = (name: string, pick: (index: number) => Record<string, string | number>): Shape => ({
    name: `goods/sell_order ${name}`,
    request: (index) => ({
      token: buyerToken,
      userId: buyerId,
      url: `/api/market/enterprise/goods/sell_order?${new URLSearchParams({ game: "cs2", ...stringify(pick(index)) })}`,
    }),
  });
  const onSale = (
    name: string,
    extra: (seller: (typeof sellers)[number]) => Record<string, string | number>,
  ): Shape => ({
    name: `on_sale ${name}`,
    request: (index) => {
      const seller = sellers[index % sellers.length]!;
      return {
        token: seller.token,
        userId: seller.userId,
        url: `/api/market/developer/sell_order/on_sale?${new URLSearchParams({ game: "cs2", ...stringify(extra(seller)) })}`,
      };
    },
  });
  const any = (index: number) => pools.anyGoods[index % pools.anyGoods.length]!;
  const wear = (index: number) => pools.wearGoods[index % pools.wearGoods.length]!;
  const phase = (index: number) => pools.phaseGoods[index % Math.max(1, pools.phaseGoods.length)];
  const shapes: Shape[] = [];
  for (const sort of [
    "price.asc",
    "price.desc",
    "paintwear.asc",
    "paintwear.desc",
    "created.asc",
    "created.desc",
  ])
    shapes.push(enterprise(sort, (index) => ({ market_hash_name: any(index), sort_by: sort })));
  shapes.push(
    enterprise("page 50", (index) => ({ market_hash_name: any(index), page_num: 50 })),
    enterprise("wear interval, price.asc", (index) => ({
      market_hash_name: wear(index).name,
      min_paintwear: wear(index).interval[0],
      max_paintwear: wear(index).interval[1],
    })),
    enterprise("wear interval, paintwear.desc", (index) => ({
      market_hash_name: wear(index).name,
      min_paintwear: wear(index).interval[0],
      max_paintwear: wear(index).interval[1],
      sort_by: "paintwear.desc",
    })),
    enterprise("wear interval, created.desc", (index) => ({
      market_hash_name: wear(index).name,
      min_paintwear: wear(index).interval[0],
      max_paintwear: wear(index).interval[1],
      sort_by: "created.desc",
    })),
    enterprise("paintseed", (index) => ({ market_hash_name: wear(index).name, paintseed: wear(index).seed })),
    enterprise("paintseed, created.desc", (index) => ({
      market_hash_name: wear(index).name,
      paintseed: wear(index).seed,
      sort_by: "created.desc",
    })),
    enterprise("pay_method=pending_divide_balance", (index) => ({
      market_hash_name: any(index),
      pay_method: "pending_divide_balance",
    })),
    enterprise("pay_method=epay, paintwear.asc", (index) => ({
      market_hash_name: any(index),
      pay_method: "epay",
      sort_by: "paintwear.asc",
    })),
    enterprise("interval + seed + pay_method, created.desc", (index) => ({
      market_hash_name: wear(index).name,
      min_paintwear: wear(index).interval[0],
      max_paintwear: wear(index).interval[1],
      paintseed: wear(index).seed,
      pay_method: "wallet",
      sort_by: "created.desc",
    })),
  );
  if (pools.phaseGoods.length > 0)
    shapes.push(
      enterprise("paintindex", (index) => ({
        market_hash_name: phase(index)!.market_hash_name,
        paintindex: phase(index)!.paintindex,
      })),
      enterprise("paintindex, paintwear.desc", (index) => ({
        market_hash_name: phase(index)!.market_hash_name,
        paintindex: phase(index)!.paintindex,
        sort_by: "paintwear.desc",
      })),
    );
  for (const sort of [
    "updated.desc",
    "updated.asc",
    "price.asc",
    "price.desc",
    "paintwear.asc",
    "paintwear.desc",
  ])
    shapes.push(onSale(sort, () => ({ sort_by: sort })));
  shapes.push(
    onSale("page 50", () => ({ page_num: 50 })),
    onSale("price range, price.asc", () => ({ min_price: 100, max_price: 500, sort_by: "price.asc" })),
    onSale("price range, updated.desc", () => ({ min_price: 100, max_price: 500 })),
    onSale("paintwear range, paintwear.asc", () => ({
      min_paintwear: 0.1,
      max_paintwear: 0.2,
      sort_by: "paintwear.asc",
    })),
    onSale("paintwear range, price.desc", () => ({
      min_paintwear: 0.1,
      max_paintwear: 0.2,
      sort_by: "price.desc",
    })),
    onSale("search", () => ({ search: "AK-47" })),
    onSale("search, price.asc", () => ({ search: "Case", sort_by: "price.asc" })),
    onSale("platformid", (seller) => ({ platformid: seller.platformid })),
  );
  return shapes;
}

function stringify(query: Record<string, string | number>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)]));
}

/**
 * A one-connection database on `url` that records every statement it sends in `captured`, with
 * the service's type parsers: what the plans of a verb's reads are taken from.
 */
export function capturingDatabase(url: string, captured: CompiledQuery[]): Kysely<Database> {
  return new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: new pg.Pool({
        connectionString: url,
        max: 1,
        types: {
          getTypeParser: ((oid: number, format?: "text" | "binary") => {
            if (oid === INT8_OID) return parseInt8;
            if (oid === NUMERIC_OID) return parseNumeric;
            return pg.types.getTypeParser(oid, format);
          }) as typeof pg.types.getTypeParser,
        },
      }),
    }),
    log: (event) => {
      if (event.level === "query") captured.push(event.query);
    },
  });
}
