import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Worker } from "node:worker_threads";
import { sql } from "kysely";
import { buildApp } from "../src/app.ts";
import { loadCatalog } from "../src/domain/catalog/load-catalog.ts";
import { OffsetClock } from "../src/domain/clock.ts";
import { DEFAULT_MARKET_RULES, type DomainContext } from "../src/domain/context.ts";
import { SecretBox } from "../src/domain/secret-box.ts";
import { assertLedgerInvariants } from "../src/domain/wallet/check-ledger-invariants.ts";
import { SandboxPlatform } from "../src/platform/sandbox/sandbox-platform.ts";
import { openDatabase } from "../src/storage/database.ts";
import { migrateToLatest } from "../src/storage/migrator.ts";
import { runOnServer, urlOfDatabase } from "../src/storage/postgres-admin.ts";
import type { LoadFigures } from "./purchase-load-worker.ts";

const run = promisify(execFile);
const ADMIN = "sma_bench-admin-token-000000000000";
const GOODS = "Sticker | Crown (Foil)";

export interface PurchaseFigures {
  purchasesPerSecond: number;
  pgbenchTps: number;
  purchases: number;
}

/**
 * Purchases per second through the HTTP API on a PostgreSQL server, against pgbench's TPC-B
 * transactions per second on the same server in the same run. Each database is created for the
 * run and dropped afterwards. `serverUrl` names the server (its database is only used to connect).
 */
export async function benchPurchases(
  serverUrl: string,
  seconds: number,
  progress: (line: string) => void,
): Promise<PurchaseFigures> {
  const suffix = `${process.pid}_${Date.now()}`;
  const marketDb = `skinmarket_bench_market_${suffix}`;
  const pgbenchDb = `skinmarket_bench_pgbench_${suffix}`;
  await runOnServer(serverUrl, `CREATE DATABASE ${marketDb}`);
  await runOnServer(serverUrl, `CREATE DATABASE ${pgbenchDb}`);
  try {
    const pgbenchUrl = urlOfDatabase(serverUrl, pgbenchDb);
    progress("pgbench: initializing scale 1");
    await run("pgbench", ["-i", "-s", "1", "-q", pgbenchUrl]);
    progress(`pgbench: TPC-B, 16 clients, ${seconds} s`);
    const { stdout } = await run("pgbench", ["-c", "16", "-j", "2", "-T", String(seconds), "-n", pgbenchUrl]);
    const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
    if (!Number.isFinite(tps)) throw new Error(`could not read pgbench's tps from:\n${stdout}`);

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
        actor: { kind: "system" },
        log: { info() {}, warn() {}, error() {} },
        ...services,
      };
      progress("loading the catalog");
      await loadCatalog(ctx);
      const app = await buildApp({ database, clock, ...services, sandbox: { clock, adminToken: ADMIN } });
      const baseUrl = await app.listen({ port: 0, host: "127.0.0.1" });
      try {
        progress("building the market: sellers with listings, funded buyers");
        // More listings than the warm-up and the run can buy: a buyer who finds none would
        // measure an empty market.
        const listings = Math.ceil(((WARM_UP_SECONDS + seconds) * 2500) / 1000) * 1000;
        const { buyers, goodsId } = await buildMarket(baseUrl, 16, listings);
        // A market in steady state has traded before and has planner statistics (pgbench's
        // initialization analyzes its tables too). Without a history, the journal and the trades
        // are a few rows when the pool's connections first plan the foreign-key checks on them:
        // those cached plans scan the whole table, and each purchase gets slower as it grows.
        progress(`warm-up: 16 buyers, ${WARM_UP_SECONDS} s, then ANALYZE`);
        checked(await purchaseLoad(baseUrl, buyers, goodsId, WARM_UP_SECONDS));
        await sql`ANALYZE`.execute(database.db);
        progress(`purchases: 16 buyers, ${seconds} s`);
        const purchases = checked(await purchaseLoad(baseUrl, buyers, goodsId, seconds));
        await assertLedgerInvariants(database.db);
        progress("ledger invariants hold after the run");
        return { purchasesPerSecond: purchases / seconds, pgbenchTps: tps, purchases };
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }
  } finally {
    await runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${marketDb} WITH (FORCE)`);
    await runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${pgbenchDb} WITH (FORCE)`);
  }
}

const WARM_UP_SECONDS = 3;

/** The purchases of a load, or why it does not count: failed requests, or an empty market. */
function checked(load: LoadFigures): number {
  if (load.failures > 0) throw new Error(`${load.failures} purchase requests failed`);
  if (load.emptyAnswers > 0)
    throw new Error(`the market ran out of listings after ${load.purchases} purchases`);
  return load.purchases;
}

interface Buyer {
  token: string;
}

async function call(baseUrl: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

async function buildMarket(baseUrl: string, buyerCount: number, listingCount: number) {
  const sellers = 4;
  let goodsId = 0;
  for (let index = 0; index < sellers; index++) {
    const user = (await call(baseUrl, ADMIN, "POST", "/sandbox/users", {})) as {
      user_id: string;
      token: string;
    };
    const account = (await call(baseUrl, ADMIN, "POST", "/sandbox/platform/accounts", {
      user_id: user.user_id,
    })) as { platformid: string };
    const perSeller = listingCount / sellers;
    for (let granted = 0; granted < perSeller; granted += 1000) {
      const { assets } = (await call(
        baseUrl,
        ADMIN,
        "POST",
        `/sandbox/platform/accounts/${account.platformid}/items`,
        {
          market_hash_name: GOODS,
          count: Math.min(1000, perSeller - granted),
        },
      )) as { assets: Array<{ assetid: string; goods_id: number }> };
      goodsId = assets[0]!.goods_id;
      for (let start = 0; start < assets.length; start += 200) {
        const batch = assets
          .slice(start, start + 200)
          .map((asset, offset) => ({ assetid: asset.assetid, price: 1 + ((start + offset) % 50) / 10 }));
        await call(baseUrl, user.token, "POST", "/api/market/developer/sell_order/items", {
          game: "cs2",
          assets: batch,
        });
      }
    }
  }
  const buyers: Buyer[] = [];
  for (let index = 0; index < buyerCount; index++) {
    const user = (await call(baseUrl, ADMIN, "POST", "/sandbox/users", {})) as {
      user_id: string;
      token: string;
    };
    const account = (await call(baseUrl, ADMIN, "POST", "/sandbox/platform/accounts", {
      user_id: user.user_id,
    })) as {
      platformid: string;
      trade_url: string;
      cookies: string;
    };
    await call(baseUrl, user.token, "POST", "/api/market/developer/platform/cookie", {
      platformid: account.platformid,
      platform_cookies: account.cookies,
    });
    await call(baseUrl, user.token, "POST", "/api/market/developer/platform/setup", {
      platformid: account.platformid,
    });
    await call(baseUrl, ADMIN, "POST", `/sandbox/users/${user.user_id}/funds`, {
      account: "balance",
      amount: "100000",
    });
    buyers.push({ token: user.token });
  }
  return { buyers, goodsId };
}

function purchaseLoad(
  baseUrl: string,
  buyers: Buyer[],
  goodsId: number,
  seconds: number,
): Promise<LoadFigures> {
  const worker = new Worker(new URL("./purchase-load-worker.ts", import.meta.url), {
    workerData: { baseUrl, tokens: buyers.map((buyer) => buyer.token), goodsId, seconds },
  });
  return new Promise((resolve, reject) => {
    worker.once("message", (figures: LoadFigures) => resolve(figures));
    worker.once("error", reject);
  });
}
