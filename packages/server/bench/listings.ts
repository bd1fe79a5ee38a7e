import { performance } from "node:perf_hooks";
import { Kysely, sql, type CompiledQuery } from "kysely";
import pg from "pg";
import { buildApp } from "../src/app.ts";
import { createUser } from "../src/domain/accounts/create-user.ts";
import { loadCatalog } from "../src/domain/catalog/load-catalog.ts";
import { OffsetClock } from "../src/domain/clock.ts";
import { DEFAULT_MARKET_RULES, type DomainContext } from "../src/domain/context.ts";
import { EventLog } from "../src/domain/events/event-log.ts";
import { sequenceEvents } from "../src/domain/events/sequence-events.ts";
import { listItems } from "../src/domain/listings/list-items.ts";
import { parseListingPrice } from "../src/domain/market/parse-listing-price.ts";
import { toAssetInfo } from "../src/domain/platform-accounts/asset-info.ts";
import { SecretBox } from "../src/domain/secret-box.ts";
import { createPlatformAccount } from "../src/platform/sandbox/platform-accounts.ts";
import { SandboxPlatform } from "../src/platform/sandbox/sandbox-platform.ts";
import { openDatabase } from "../src/storage/database.ts";
import { migrateToLatest } from "../src/storage/migrator.ts";
import { runOnServer, urlOfDatabase } from "../src/storage/postgres-admin.ts";
import type { Database } from "../src/storage/schema.ts";
import { capturingDatabase, explain } from "./listing-queries.ts";
import type { Figure } from "./market.ts";
import { enqueueWebhookDeliveries } from "../src/domain/webhooks/enqueue.ts";

/** Assets per request, as the bots list them. */
const PER_REQUEST = 200;
/** Rows per statement while the market is filled between the phases. */
const FILL_CHUNK = 50_000;
/**
 * The tables whose statistics are kept as they were at the start: autovacuum still vacuums them
 * (as on any server) but never analyzes them.
 */
const FROZEN_STATISTICS = ["listings", "sandbox_assets", "audit_events", "event_outbox", "goods"];

export interface ListingBenchOptions {
  /** Listings written by each side in each phase (default 10,000). */
  perPhase?: number;
  /** Listings already on sale when the second phase runs (default 1,000,000). */
  after?: number;
  /** Requests (and baseline statements) in flight at once (default 4). */
  connections?: number;
}

export interface ListingPhase {
  /** Listings on sale when the phase began. */
  existing: number;
  /** Listings a second through HTTP, counted until their events were sequenced too. */
  httpPerSecond: number;
  /** Rows a second by the plain INSERT, counted until their events were sequenced too. */
  insertPerSecond: number;
  ratio: number;
  /** Listings a second through HTTP until the last answer (the events of most already sequenced). */
  answeredPerSecond: number;
  /**
   * Rows a second by the plain INSERT until its last commit, each commit poking the app's event
   * log as the app's own commits do (the events of most already sequenced).
   */
  plainInsertPerSecond: number;
  /** The ratio of each round (the phase alternates the two sides `ROUNDS` times). */
  roundRatios: number[];
  /** Statements the server sent to PostgreSQL per listing request. */
  statementsPerRequest: number;
  /** The plans of one request's reads (generic plans, EXPLAIN ANALYZE), and whether all read an index. */
  plans: string[];
  indexBacked: boolean;
}

export interface ListingFigures {
  perRequest: number;
  connections: number;
  phases: ListingPhase[];
  figures: Figure[];
}

const ROUNDS = 4;
const silent = { info() {}, warn() {}, error() {} };
const services = {
  platform: new SandboxPlatform(),
  secretBox: new SecretBox(SecretBox.generateKey()),
  rules: DEFAULT_MARKET_RULES,
};

/**
 * `npm run bench -- listings`: listings per second through `POST sell_order/items` (200 assets a
 * request, `connections` requests in flight, one seller each), against the same rows written by a
 * plain multi-row INSERT into the same table (200 rows a statement, as many in flight) in the same
 * run, alternating. Two phases: on an empty market, then with `after` listings on sale (filled by
 * set-based SQL between the phases, then vacuumed as autovacuum would). The tables are analyzed
 * at the start and never again, so the second phase runs on column statistics taken when they
 * were nearly empty: the plans must not depend on when the tables were analyzed. A scratch database on `serverUrl`, dropped after.
 */
export async function benchListings(
  serverUrl: string,
  options: ListingBenchOptions,
  progress: (line: string) => void,
): Promise<ListingFigures> {
  const perPhase = Math.ceil((options.perPhase ?? 10_000) / (PER_REQUEST * ROUNDS)) * PER_REQUEST * ROUNDS;
  const after = options.after ?? 1_000_000;
  const connections = options.connections ?? 4;
  const name = `skinmarket_bench_listing_writes_${process.pid}_${Date.now()}`;
  await runOnServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = urlOfDatabase(serverUrl, name);
  try {
    const database = await openDatabase({ kind: "postgres", url });
    const baseline = await openDatabase({ kind: "postgres", url });
    try {
      await migrateToLatest(database.db);
      const admin: DomainContext = {
        db: database.db,
        clock: new OffsetClock(),
        actor: { kind: "admin" },
        log: silent,
        ...services,
      };
      progress("loading the catalog");
      const loaded = await loadCatalog(admin);
      if (!loaded.ok) throw new Error(loaded.failure.message);
      const sellers = await createSellers(admin, connections);
      // Per phase, each side lists perPhase assets, spread over the sellers, after a request per
      // seller to warm up (the server's statements prepared, the baseline's connections open).
      const httpAssets = [];
      const insertAssets = [];
      const warmUp = PER_REQUEST * connections;
      for (let phase = 0; phase < 2; phase++) {
        httpAssets.push(await mintAssets(database.db, sellers, warmUp + perPhase));
        insertAssets.push(await mintAssets(database.db, sellers, warmUp + perPhase));
      }
      for (const table of FROZEN_STATISTICS) {
        await sql
          .raw(
            `ALTER TABLE ${table} SET (autovacuum_analyze_threshold = 2000000000, autovacuum_analyze_scale_factor = 100)`,
          )
          .execute(database.db);
        await sql.raw(`ANALYZE ${table}`).execute(database.db);
      }
      // The app's event log, shared with the baseline: each side's commits poke the same sequencer.
      const eventLog = new EventLog(
        {
          db: database.db,
          clock: admin.clock,
          actor: { kind: "system" },
          log: silent,
          ...services,
        },
        [enqueueWebhookDeliveries],
      );
      const app = await buildApp({ database, clock: admin.clock, ...services, eventLog });
      const baseUrl = await app.listen({ port: 0, host: "127.0.0.1" });
      try {
        const phases: ListingPhase[] = [];
        for (let phase = 0; phase < 2; phase++) {
          if (phase === 1) {
            await fillMarket(admin, after, progress);
            await vacuumed(database.db);
          }
          const existing = await onSale(database.db);
          progress(`phase ${phase + 1}: ${existing} listings on sale; ${perPhase} listings each side`);
          phases.push(
            await measurePhase({
              db: database.db,
              baselineDb: baseline.db,
              poke: () => eventLog.poke(),
              url,
              baseUrl,
              sellers,
              http: httpAssets[phase]!,
              insert: insertAssets[phase]!,
              existing,
              progress,
            }),
          );
        }
        const figures = phases.flatMap((phase, index): Figure[] => {
          const label = index === 0 ? "empty market" : `after ${Math.round(phase.existing / 1000)}k`;
          const shape = `POST sell_order/items, ${PER_REQUEST} assets a request, ${connections} in flight, ${phase.statementsPerRequest.toFixed(1)} statements a request, reads ${phase.indexBacked ? "index-backed" : "NOT index-backed"}`;
          return [
            {
              name: `listings, ${label}, answered (PostgreSQL)`,
              value: phase.answeredPerSecond,
              baseline: phase.plainInsertPerSecond,
              unit: "rows/s",
              ratio: phase.answeredPerSecond / phase.plainInsertPerSecond,
              note: `${shape}, until answered (their events sequenced meanwhile); vs a plain ${PER_REQUEST}-row INSERT into listings, each commit poking the same sequencer`,
            },
            {
              name: `listings, ${label}, with events (PostgreSQL)`,
              value: phase.httpPerSecond,
              baseline: phase.insertPerSecond,
              unit: "rows/s",
              ratio: phase.ratio,
              note: `${shape}, rounds ${phase.roundRatios.map((ratio) => ratio.toFixed(2)).join(" ")}; each side until its rows' events were sequenced`,
            },
          ];
        });
        figures.push({
          name: "listings, flatness (PostgreSQL)",
          value: phases[1]!.answeredPerSecond,
          baseline: phases[0]!.answeredPerSecond,
          unit: "rows/s",
          ratio: phases[1]!.answeredPerSecond / phases[0]!.answeredPerSecond,
          note: `listings/s answered through HTTP with ${phases[1]!.existing} on sale vs with ${phases[0]!.existing}, statistics taken at the start`,
        });
        return { perRequest: PER_REQUEST, connections, phases, figures };
      } finally {
        await app.close();
        await eventLog.close();
      }
    } finally {
      await baseline.close();
      await database.close();
    }
  } finally {
    await runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

interface Seller {
  userId: number;
  token: string;
  platformid: string;
}

async function createSellers(admin: DomainContext, count: number): Promise<Seller[]> {
  const sellers: Seller[] = [];
  for (let index = 0; index < count; index++) {
    const user = await createUser(admin, { nickname: `bench-seller-${index}` });
    if (!user.ok) throw new Error(user.failure.message);
    const account = await createPlatformAccount(admin, { userId: user.value.userId });
    if (!account.ok) throw new Error(account.failure.message);
    sellers.push({
      userId: user.value.userId,
      token: user.value.token,
      platformid: account.value.platformid,
    });
  }
  return sellers;
}

let nextAssetId = 1_000_000_000;

/**
 * `count` new items in the sellers' inventories (the sellers in turn), of goods spread over the
 * catalog, written set-based; answers each seller's assetids.
 */
async function mintAssets(db: Kysely<Database>, sellers: Seller[], count: number): Promise<string[][]> {
  const first = nextAssetId;
  nextAssetId += count;
  await sql`
    WITH catalog AS (SELECT array_agg(goods_id ORDER BY goods_id) AS ids FROM goods),
    owners AS (SELECT ${sellers.map((seller) => seller.platformid)}::text[] AS ids)
    INSERT INTO sandbox_assets (assetid, platformid, goods_id, classid, instanceid, paintwear, paintseed,
      paintindex, acquired_at)
    SELECT ${first}::bigint + n, owners.ids[1 + n % array_length(owners.ids, 1)],
      catalog.ids[1 + (n * 7919) % array_length(catalog.ids, 1)], (5000000 + n)::text, '0',
      (0.06 + (n % 9000) / 10000.0)::text, n % 1000, 0, now()
    FROM generate_series(0, ${count - 1}::int) AS n, catalog, owners`.execute(db);
  return sellers.map((_, seller) =>
    Array.from({ length: Math.ceil((count - seller) / sellers.length) }, (_, index) =>
      String(first + seller + index * sellers.length),
    ),
  );
}

/** Listings on sale of another seller's items, written set-based (no events, as the demo build). */
async function fillMarket(
  admin: DomainContext,
  count: number,
  progress: (line: string) => void,
): Promise<void> {
  const db = admin.db;
  const user = await createUser(admin, { nickname: "bench-filler" });
  if (!user.ok) throw new Error(user.failure.message);
  const account = await createPlatformAccount(admin, { userId: user.value.userId });
  if (!account.ok) throw new Error(account.failure.message);
  const filler = { platformid: account.value.platformid, userId: user.value.userId };
  const started = performance.now();
  for (let done = 0; done < count; done += FILL_CHUNK) {
    const chunk = Math.min(FILL_CHUNK, count - done);
    const first = nextAssetId;
    nextAssetId += chunk;
    await db.transaction().execute(async (trx) => {
      await sql`SELECT set_config('skinmarket.events', 'off', true)`.execute(trx);
      await sql`
        WITH catalog AS (SELECT array_agg(goods_id ORDER BY goods_id) AS ids FROM goods),
        minted AS (
          INSERT INTO sandbox_assets (assetid, platformid, goods_id, classid, instanceid, paintwear,
            paintseed, paintindex, acquired_at)
          SELECT ${first}::bigint + n, ${filler.platformid},
            catalog.ids[1 + (n * 7919) % array_length(catalog.ids, 1)], (7000000 + n)::text, '0',
            (0.06 + (n % 9000) / 10000.0)::text, n % 1000, 0, now()
          FROM generate_series(0, ${chunk - 1}::int) AS n, catalog
          RETURNING assetid, goods_id, paintwear, paintseed, paintindex)
        INSERT INTO listings (user_id, platformid, assetid, goods_id, price, fee, state, allow_bargain,
          allow_wallet_zft, allow_epay, allow_pending_divide_balance, force_buyer_send_offer, description,
          paintwear, paintseed, paintindex, asset, created_at, updated_at)
        SELECT ${filler.userId}::bigint, ${filler.platformid}, assetid, goods_id, 10000 + assetid % 90000,
          250 + assetid % 2250, 'ON_SALE', false, true, true, false, false, '', paintwear::numeric,
          paintseed, paintindex, jsonb_build_object('assetid', assetid::text), now(), now()
        FROM minted`.execute(trx);
    });
    progress(
      `filled ${done + chunk} of ${count} listings (${((done + chunk) / ((performance.now() - started) / 1000)).toFixed(0)}/s)`,
    );
  }
}

async function vacuumed(db: Kysely<Database>): Promise<void> {
  // VACUUM without ANALYZE: the visibility map and the row counts, no column statistics.
  for (const table of FROZEN_STATISTICS) await sql.raw(`VACUUM ${table}`).execute(db);
}

async function onSale(db: Kysely<Database>): Promise<number> {
  const { count } = await db
    .selectFrom("listings")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("state", "=", sql.lit("ON_SALE"))
    .executeTakeFirstOrThrow();
  return Number(count);
}

async function measurePhase(input: {
  db: Kysely<Database>;
  baselineDb: Kysely<Database>;
  /** Tells the app's event log that the baseline committed, as the app's own commits do. */
  poke: () => void;
  url: string;
  baseUrl: string;
  sellers: Seller[];
  http: string[][];
  insert: string[][];
  existing: number;
  progress: (line: string) => void;
}): Promise<ListingPhase> {
  const { sellers } = input;
  // The baseline's rows, made beforehand: what the verb writes for each asset.
  const insertRows = await Promise.all(
    sellers.map((seller, index) => listingRows(input.db, seller, input.insert[index]!)),
  );
  await Promise.all(
    sellers.map(async (seller, index) => {
      await input.baselineDb
        .insertInto("listings")
        .values(insertRows[index]!.splice(0, PER_REQUEST))
        .execute();
      await listThroughHttp(input.baseUrl, seller, input.http[index]!.slice(0, PER_REQUEST));
    }),
  );
  const httpLists = input.http.map((list) => list.slice(PER_REQUEST));
  const perRound = (list: unknown[]) => Math.ceil(list.length / ROUNDS);
  // Seconds until the last row was written (answered), and until its events were sequenced too.
  const seconds = { http: 0, httpWithEvents: 0, insert: 0, insertWithEvents: 0 };
  let httpRows = 0;
  let insertedRows = 0;
  const roundRatios: number[] = [];
  const query = pg.Client.prototype.query;
  let statements = 0;
  let requests = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const slice = <T>(list: T[]) => list.slice(round * perRound(list), (round + 1) * perRound(list));
    await drainOutbox(input.db);
    let started = performance.now();
    const inserted = await Promise.all(
      insertRows.map(async (rows) => {
        let count = 0;
        for (const batch of chunks(slice(rows), PER_REQUEST)) {
          await input.baselineDb.insertInto("listings").values(batch).execute();
          input.poke();
          count += batch.length;
        }
        return count;
      }),
    );
    const insertTime = (performance.now() - started) / 1000;
    await drainOutbox(input.db);
    const insertWithEvents = (performance.now() - started) / 1000;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      statements += 1;
      return (query as (...args: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    started = performance.now();
    const listed = await Promise.all(
      sellers.map(async (seller, index) => {
        let count = 0;
        for (const batch of chunks(slice(httpLists[index]!), PER_REQUEST)) {
          count += await listThroughHttp(input.baseUrl, seller, batch);
          requests += 1;
        }
        return count;
      }),
    );
    const httpTime = (performance.now() - started) / 1000;
    pg.Client.prototype.query = query;
    await drainOutbox(input.db);
    const httpWithEvents = (performance.now() - started) / 1000;
    const roundInserted = inserted.reduce((a, b) => a + b, 0);
    const roundListed = listed.reduce((a, b) => a + b, 0);
    roundRatios.push(roundListed / httpWithEvents / (roundInserted / insertWithEvents));
    input.progress(
      `round ${round + 1}: HTTP ${(roundListed / httpTime).toFixed(0)} listings/s answered, ${(roundListed / httpWithEvents).toFixed(0)}/s with their events; INSERT ${(roundInserted / insertTime).toFixed(0)} rows/s, ${(roundInserted / insertWithEvents).toFixed(0)}/s with their events`,
    );
    seconds.http += httpTime;
    seconds.httpWithEvents += httpWithEvents;
    seconds.insert += insertTime;
    seconds.insertWithEvents += insertWithEvents;
    httpRows += roundListed;
    insertedRows += roundInserted;
  }
  const plans = await requestPlans(input.db, input.url, sellers[0]!);
  const httpPerSecond = httpRows / seconds.httpWithEvents;
  const insertPerSecond = insertedRows / seconds.insertWithEvents;
  return {
    existing: input.existing,
    httpPerSecond,
    insertPerSecond,
    ratio: httpPerSecond / insertPerSecond,
    answeredPerSecond: httpRows / seconds.http,
    plainInsertPerSecond: insertedRows / seconds.insert,
    roundRatios,
    statementsPerRequest: statements / requests,
    plans,
    indexBacked: plans.every(
      (plan) => !/Seq Scan on (sandbox_assets|listings|goods|buy_orders)\b/.test(plan),
    ),
  };
}

/**
 * Turns every change written so far into events (the triggers' outbox rows, as the server's
 * sequencer does). Both sides' rows write the same outbox rows (the trigger is the table's); the
 * events of either side's rows are sequenced while they are written (each commit pokes the app's
 * log, the baseline's as the app's own). So each side is timed until its last answer, and until its
 * rows' events are sequenced, and starts with none of the other side's left.
 */
async function drainOutbox(db: Kysely<Database>): Promise<void> {
  const ctx: DomainContext = {
    db,
    clock: new OffsetClock(),
    actor: { kind: "system" },
    log: silent,
    ...services,
  };
  for (;;) {
    const round = await sequenceEvents(ctx, [enqueueWebhookDeliveries]);
    if (round.state === "busy") await new Promise((resolve) => setTimeout(resolve, 20));
    else if (!round.more) return;
  }
}

function* chunks<T>(list: T[], size: number): Generator<T[]> {
  for (let start = 0; start < list.length; start += size) yield list.slice(start, start + size);
}

/** A listing request; every asset must answer OK. Answers the listings made. */
async function listThroughHttp(baseUrl: string, seller: Seller, assetids: string[]): Promise<number> {
  const response = await fetch(`${baseUrl}/api/market/developer/sell_order/items`, {
    method: "POST",
    headers: { authorization: `Bearer ${seller.token}`, "content-type": "application/json" },
    body: JSON.stringify({
      game: "csgo",
      assets: assetids.map((assetid, index) => ({ assetid, price: priceOf(index) })),
    }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`listing: ${response.status} ${JSON.stringify(body)}`);
  const refused = assetids.filter((assetid) => body[assetid] !== "OK");
  if (refused.length > 0)
    throw new Error(`listing refused ${refused[0]}: ${JSON.stringify(body[refused[0]!])}`);
  return assetids.length;
}

function priceOf(index: number): string {
  return (100 + (index % 900)).toFixed(2);
}

/** The rows `listItems` writes for these assets, made through the same functions. */
async function listingRows(db: Kysely<Database>, seller: Seller, assetids: string[]) {
  const ctx: DomainContext = {
    db,
    clock: new OffsetClock(),
    actor: { kind: "user", userId: seller.userId },
    log: silent,
    ...services,
  };
  const assets = await services.platform.findAssets(ctx, { assetids });
  const goods = new Map(
    (
      await db
        .selectFrom("goods")
        .select(["goods_id", "icon_url", "type"])
        .where(
          "goods_id",
          "in",
          assets.map((asset) => asset.goodsId),
        )
        .execute()
    ).map((row) => [row.goods_id, row]),
  );
  const now = new Date();
  return assets.map((asset, index) => {
    const price = parseListingPrice(priceOf(index % PER_REQUEST), services.rules);
    if (!price.ok) throw new Error(price.reason);
    const info = goods.get(asset.goodsId)!;
    return {
      user_id: seller.userId,
      platformid: asset.platformid,
      assetid: Number(asset.assetid),
      goods_id: asset.goodsId,
      price: price.price,
      fee: price.fee,
      state: "ON_SALE" as const,
      allow_bargain: false,
      allow_wallet_zft: true,
      allow_epay: true,
      allow_pending_divide_balance: false,
      force_buyer_send_offer: false,
      description: "",
      paintwear: asset.paintwear,
      paintseed: asset.paintseed,
      paintindex: asset.paintindex,
      tradable_after: asset.tradableAfter,
      asset: JSON.stringify(toAssetInfo(asset, info.icon_url, info.type)),
      created_at: now,
      updated_at: now,
    };
  });
}

/**
 * The plans of the reads of one listing request of `PER_REQUEST` fresh assets: the verb runs on a
 * capturing connection inside a transaction that is rolled back, and each read is explained as a
 * prepared statement's generic plan (the plan a busy server settles on).
 */
async function requestPlans(db: Kysely<Database>, url: string, seller: Seller): Promise<string[]> {
  const [assetids] = await mintAssets(db, [seller], PER_REQUEST);
  const captured: CompiledQuery[] = [];
  const capturing = capturingDatabase(url, captured);
  try {
    await capturing
      .transaction()
      .execute(async (trx) => {
        const listed = await listItems(
          {
            db: trx,
            clock: new OffsetClock(),
            actor: { kind: "user", userId: seller.userId },
            log: silent,
            ...services,
          },
          assetids!.map((assetid, index) => ({ assetid, price: priceOf(index) })),
        );
        if (!listed.ok) throw new Error(listed.failure.message);
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
  } finally {
    await capturing.destroy();
  }
  return explain(
    url,
    captured.filter((query) => /^\s*select/i.test(query.sql)),
  );
}

class RolledBack extends Error {}
