import { randomUUID } from "node:crypto";
import { buildApp } from "../src/app.ts";
import { createUser } from "../src/domain/accounts/create-user.ts";
import { loadCatalog } from "../src/domain/catalog/load-catalog.ts";
import { OffsetClock } from "../src/domain/clock.ts";
import { DEFAULT_MARKET_RULES, type DomainContext } from "../src/domain/context.ts";
import { MarketChanges, batched } from "../src/domain/market/market-changes.ts";
import { PriceSnapshots } from "../src/domain/market/price-snapshots.ts";
import { SecretBox } from "../src/domain/secret-box.ts";
import { buildDemoMarket } from "../src/demo/build-demo-market.ts";
import { SandboxPlatform } from "../src/platform/sandbox/sandbox-platform.ts";
import { announceMarketChange, marketChangeOf } from "../src/domain/change-notices.ts";
import { listenForChanges } from "../src/storage/change-notifications.ts";
import { openDatabase } from "../src/storage/database.ts";
import { migrateToLatest } from "../src/storage/migrator.ts";
import { runOnServer, urlOfDatabase } from "../src/storage/postgres-admin.ts";
import { changeTargets, measureFreshness, startChangeStream } from "./freshness.ts";
import type { Figure } from "./market.ts";

const CHANGES_PER_SECOND = 100;
const PROBES = 20;
/** As the server announces its commits (server.ts). */
const ANNOUNCE_INTERVAL_MS = 200;

/**
 * Freshness across two instances on one PostgreSQL database (docs/design/performance.md#how-the-bench-measures): prices
 * written and counted on instance A (which announces its changes as the server does), answers read
 * from instance B (which hears them and keeps its snapshot fresh as the server does). The
 * database, with the default demo market, is dropped afterwards.
 */
export async function benchTwoInstanceFreshness(
  serverUrl: string,
  progress: (line: string) => void,
): Promise<Figure[]> {
  const name = `skinmarket_bench_fresh_${process.pid}_${Date.now()}`;
  await runOnServer(serverUrl, `CREATE DATABASE ${name}`);
  const url = urlOfDatabase(serverUrl, name);
  try {
    const a = await openDatabase({ kind: "postgres", url });
    const b = await openDatabase({ kind: "postgres", url });
    const services = {
      platform: new SandboxPlatform(),
      secretBox: new SecretBox(SecretBox.generateKey()),
      rules: DEFAULT_MARKET_RULES,
    };
    const log = { info() {}, warn() {}, error() {} };
    const clock = new OffsetClock();
    const contextOf = (db: typeof a.db): DomainContext => ({
      db,
      clock,
      actor: { kind: "system" },
      log,
      ...services,
    });
    const ctxA = contextOf(a.db);
    const ctxB = contextOf(b.db);
    try {
      await migrateToLatest(a.db);
      const catalog = await loadCatalog(ctxA);
      if (!catalog.ok) throw new Error(catalog.failure.message);
      progress("two instances: building the demo market (default size) on PostgreSQL");
      await buildDemoMarket(a, { seed: 1 }, () => undefined);
      const idA = randomUUID();
      const idB = randomUUID();
      const changesA = new MarketChanges(
        // An announcement still due when the bench closes the database is dropped.
        batched(
          (goods) => announceMarketChange(a.db, idA, goods).catch(() => undefined),
          ANNOUNCE_INTERVAL_MS,
        ),
      );
      const changesB = new MarketChanges();
      const listener = await listenForChanges({
        url,
        onChange: (message) => {
          const change = marketChangeOf(message);
          if (change && message.from !== idB) changesB.heard(change);
        },
        onReconnect: () => changesB.heard(),
        log,
      });
      // As the server keeps them with a PostgreSQL server (server.ts).
      const snapshotsB = new PriceSnapshots(changesB, 1000, {
        serveStale: true,
        listingsPerChunk: 20_000,
        updateIntervalMs: 250,
      });
      const appB = await buildApp({
        database: b,
        clock,
        ...services,
        marketChanges: changesB,
        priceSnapshots: snapshotsB,
      });
      await snapshotsB.current(ctxB);
      const stopSnapshots = snapshotsB.keepFresh(ctxB);
      const user = await createUser(
        { ...ctxB, actor: { kind: "admin" } },
        { nickname: `bench-fresh-${Date.now()}` },
      );
      if (!user.ok) throw new Error(user.failure.message);
      const headers = { authorization: `Bearer ${user.value.token}` };
      const { probe, streamed } = await changeTargets(ctxA);
      const priceIn = (body: string) =>
        (
          JSON.parse(body) as { info: Array<{ goods_id: number; sales: Array<{ min_price: string }> }> }
        ).info.find((entry) => entry.goods_id === probe.goodsId)?.sales[0]?.min_price;
      progress(
        `two instances: ${PROBES} price writes on one, each until the other's first answer showing it`,
      );
      const stop = startChangeStream(ctxA, changesA, streamed, CHANGES_PER_SECOND);
      try {
        return await measureFreshness(
          ctxA,
          changesA,
          probe,
          "across two instances",
          {
            singleGoods: async () =>
              priceIn(
                (await appB.inject({ url: `/api/market/items?game=cs2&goods_id=${probe.goodsId}`, headers }))
                  .body,
              ) ?? "",
            wholeMarket: async () =>
              priceIn((await appB.inject({ url: "/api/market/items?game=cs2", headers })).body),
          },
          PROBES,
        );
      } finally {
        await stop();
        stopSnapshots();
        await appB.close();
        await listener.close();
      }
    } finally {
      await a.close();
      await b.close();
    }
  } finally {
    await runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}
