import { performance } from "node:perf_hooks";
import type { CompiledQuery, Kysely } from "kysely";
import pg from "pg";
import { OffsetClock } from "../src/domain/clock.ts";
import type { DomainContext } from "../src/domain/context.ts";
import { sequenceEvents } from "../src/domain/events/sequence-events.ts";
import { enqueueWebhookDeliveries } from "../src/domain/webhooks/enqueue.ts";
import { listItems } from "../src/domain/listings/list-items.ts";
import { parseListingPrice } from "../src/domain/market/parse-listing-price.ts";
import { toAssetInfo } from "../src/domain/platform-accounts/asset-info.ts";
import type { Database } from "../src/storage/schema.ts";
import { mintAssets, PER_REQUEST, services, silent, type Seller } from "./listing-bench-market.ts";
import { capturingDatabase, explain } from "./listing-queries.ts";

/**
 * One phase of the listings bench (`listings.ts`): the same rows written through HTTP and by a
 * plain INSERT, alternating for `ROUNDS` rounds, each side timed until answered and until its
 * rows' events are sequenced; and the plans of one request's reads.
 */

/** Rounds of a phase: the two sides alternate this many times. */
export const ROUNDS = 4;

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

/** One phase: `ROUNDS` rounds of each side on `existing` listings on sale, and one request's plans. */
export async function measurePhase(input: {
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
