import { sql, type CompiledQuery } from "kysely";
import { OffsetClock } from "../src/domain/clock.ts";
import { DEFAULT_MARKET_RULES, type DomainContext } from "../src/domain/context.ts";
import { buildSnapshot } from "../src/domain/market/build-price-snapshot.ts";
import { DEFAULT_MAX_AGE_MS } from "../src/domain/market/price-snapshots.ts";
import { recheckSlice } from "../src/domain/market/recheck-slice.ts";
import { updateSnapshot } from "../src/domain/market/update-price-snapshot.ts";
import { SecretBox } from "../src/domain/secret-box.ts";
import { SandboxPlatform } from "../src/platform/sandbox/sandbox-platform.ts";
import { SERVER_LISTINGS_PER_CHUNK } from "../src/server.ts";
import { openDatabase } from "../src/storage/database.ts";
import { capturingDatabase, explain } from "./listing-queries.ts";
import type { Figure } from "./market.ts";

/**
 * The whole-market rebuild on a PostgreSQL database that holds a market: the snapshot of every
 * goods' figures read from all listings on sale, as a server with `DATABASE_URL` builds it at
 * start (chunks of `SERVER_LISTINGS_PER_CHUNK` listings), timed `rounds` times, against the
 * update of 100 changed goods and the rolling recheck's slice (goods in id order holding a
 * sixtieth of the listings, goods off the market included: what a server reads each second instead
 * of the whole market every minute; read as a range of ids, against the same goods by their ids);
 * then the plans of one chunk's statements.
 */
export async function benchRebuild(
  url: string,
  rounds: number,
  progress: (line: string) => void,
): Promise<{ figures: Figure[]; plans: string[] }> {
  const database = await openDatabase({ kind: "postgres", url });
  const ctx: DomainContext = {
    db: database.db,
    clock: new OffsetClock(),
    actor: { kind: "system" },
    log: { info() {}, warn() {}, error() {} },
    platform: new SandboxPlatform(),
    secretBox: new SecretBox(SecretBox.generateKey()),
    rules: DEFAULT_MARKET_RULES,
  };
  try {
    const { count } = await database.db
      .selectFrom("listings")
      .select((eb) => eb.fn.countAll<string>().as("count"))
      .where("state", "=", sql.lit("ON_SALE"))
      .executeTakeFirstOrThrow();
    progress(`whole-market rebuild over ${count} listings on sale: ${rounds} rounds`);
    const times: number[] = [];
    let snapshot = await buildSnapshot(ctx, SERVER_LISTINGS_PER_CHUNK);
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      snapshot = await buildSnapshot(ctx, SERVER_LISTINGS_PER_CHUNK);
      times.push(performance.now() - started);
      progress(`rebuild ${round + 1}: ${times.at(-1)!.toFixed(0)} ms, ${snapshot.entries.size} goods`);
    }
    const changed = new Set(
      [...snapshot.entries.keys()].filter((_, index) => index % 97 === 0).slice(0, 100),
    );
    const updates: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const started = performance.now();
      await updateSnapshot(ctx, snapshot, changed);
      updates.push(performance.now() - started);
    }
    // The recheck's slices in turn, from the start of the catalog, as the server walks them: read as
    // a range of ids (as the server does), then the same goods by their ids (the plan before).
    const share = 1000 / DEFAULT_MAX_AGE_MS;
    const rechecks: number[] = [];
    const byIds: number[] = [];
    const sizes: number[] = [];
    let from = 0;
    for (let round = 0; round < rounds; round++) {
      const slice = recheckSlice(snapshot, from, share);
      from = slice.next;
      sizes.push(slice.goods.length);
      let started = performance.now();
      await updateSnapshot(ctx, snapshot, new Set(slice.goods), { range: slice.range });
      rechecks.push(performance.now() - started);
      started = performance.now();
      await updateSnapshot(ctx, snapshot, new Set(slice.goods));
      byIds.push(performance.now() - started);
    }
    const ids = snapshot.catalog.byId.size;
    progress(
      `recheck slices of ${sizes.join(", ")} goods: ${rechecks.map((time) => time.toFixed(0)).join(", ")} ms by range, ${byIds.map((time) => time.toFixed(0)).join(", ")} ms by ids`,
    );
    progress("plans of the first chunk's statements");
    const captured: CompiledQuery[] = [];
    const planner = capturingDatabase(url, captured);
    try {
      await buildSnapshot({ ...ctx, db: planner }, SERVER_LISTINGS_PER_CHUNK);
    } finally {
      await planner.destroy();
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    // The statements of the first chunk: the boundary read, then the figures' statements up to the next one.
    const boundaries = captured.flatMap((query, index) => (/OFFSET/i.test(query.sql) ? [index] : []));
    const firstChunk = captured.slice(boundaries[0] ?? 0, boundaries[1] ?? captured.length);
    const plans = await explain(url, [...captured.slice(0, boundaries[0] ?? 0), ...firstChunk]);
    const note = `${count} listings on sale, ${snapshot.entries.size} goods, chunks of ${SERVER_LISTINGS_PER_CHUNK} (${boundaries.length} chunks, ${captured.length} statements); rounds ${times.map((time) => time.toFixed(0)).join(", ")} ms`;
    return {
      figures: [
        {
          name: "whole-market rebuild (PostgreSQL)",
          value: median(times),
          baseline: 1000,
          unit: "ms",
          ratio: median(times) / 1000,
          note: `vs the 1 s goal; ${note}`,
        },
        {
          name: "update of 100 changed goods (PostgreSQL)",
          value: median(updates),
          baseline: median(times),
          unit: "ms",
          ratio: median(updates) / median(times),
          note: `vs the whole rebuild; rounds ${updates.map((time) => time.toFixed(0)).join(", ")} ms`,
        },
        {
          name: "rolling recheck's slice, a sixtieth of the listings (PostgreSQL)",
          value: median(rechecks),
          baseline: 1000,
          unit: "ms",
          ratio: median(rechecks) / 1000,
          note: `vs the second it has (one slice a second, the catalog's ${ids} goods within a minute); slices of ${sizes.join(", ")} goods; rounds ${rechecks.map((time) => time.toFixed(0)).join(", ")} ms`,
        },
        {
          name: "the same slices read by their goods ids (PostgreSQL)",
          value: median(byIds),
          baseline: median(rechecks),
          unit: "ms",
          ratio: median(byIds) / median(rechecks),
          note: `vs read as a range of ids; rounds ${byIds.map((time) => time.toFixed(0)).join(", ")} ms`,
        },
      ],
      plans,
    };
  } finally {
    await database.close();
  }
}
