import { sql } from "kysely";
import { buildApp } from "../src/app.ts";
import { loadCatalog } from "../src/domain/catalog/load-catalog.ts";
import { OffsetClock } from "../src/domain/clock.ts";
import type { DomainContext } from "../src/domain/context.ts";
import { EventLog } from "../src/domain/events/event-log.ts";
import { openDatabase } from "../src/storage/database.ts";
import { migrateToLatest } from "../src/storage/migrator.ts";
import { runOnServer, urlOfDatabase } from "../src/storage/postgres-admin.ts";
import {
  createSellers,
  fillMarket,
  FROZEN_STATISTICS,
  mintAssets,
  onSale,
  PER_REQUEST,
  services,
  silent,
  vacuumed,
} from "./listing-bench-market.ts";
import { measurePhase, ROUNDS, type ListingPhase } from "./listing-bench-phase.ts";
import type { Figure } from "./market.ts";
import { enqueueWebhookDeliveries } from "../src/domain/webhooks/enqueue.ts";

export interface ListingBenchOptions {
  /** Listings written by each side in each phase (default 10,000). */
  perPhase?: number;
  /** Listings already on sale when the second phase runs (default 1,000,000). */
  after?: number;
  /** Requests (and baseline statements) in flight at once (default 4). */
  connections?: number;
}

export interface ListingFigures {
  perRequest: number;
  connections: number;
  phases: ListingPhase[];
  figures: Figure[];
}

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
