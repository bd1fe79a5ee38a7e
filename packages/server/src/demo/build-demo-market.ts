import { Kysely, sql, type Transaction } from "kysely";
import { DEFAULT_MARKET_RULES, type MarketRules } from "../domain/context.ts";
import { recomputeLiquidityRanks } from "../domain/liquidity/recompute-liquidity-ranks.ts";
import { SecretBox } from "../domain/secret-box.ts";
import { SandboxPlatform } from "../platform/sandbox/sandbox-platform.ts";
import type { DatabaseHandle } from "../storage/database.ts";
import type { Database } from "../storage/schema.ts";
import { suspendForeignKeys, suspendSecondaryIndexes } from "./bulk-rows.ts";
import { loadDemoCatalog } from "./demo-catalog.ts";
import { DemoJournal } from "./demo-journal.ts";
import { credentialsFor } from "./demo-trader-secrets.ts";
import { DAY_MS, type DemoPhase, type DemoProgress, type DemoTrader, type DemoWorld } from "./demo-world.ts";
import { writeDemoBuyOrders } from "./write-demo-buy-orders.ts";
import { writeDemoLedger } from "./write-demo-ledger.ts";
import { writeDemoListings } from "./write-demo-listings.ts";
import { writeDemoSteamMarket } from "./write-demo-steam-market.ts";
import { writeDemoPasswordHashes, writeDemoTraders } from "./write-demo-traders.ts";
import { writeDemoTrades, type BusiestGoods } from "./write-demo-trades.ts";

/**
 * The demo market (docs/design/platform-and-sandbox.md#the-demo-market): a world of traders
 * with platform accounts and inventories, listings across the catalog, buy orders in the public
 * book and weeks of completed trades, fixed by a seed. It is written set-based, a batch of rows per
 * statement, in one transaction, and leaves exactly the rows the verbs would have left: a
 * completed trade is a sold listing, a trade in SUCCESS, an accepted trade offer that moved the
 * item to the buyer under a new assetid, and the purchase and payout journal entries; every
 * trader's money came in by a deposit. The goods on sale have prices and a history on the
 * sandbox's Steam market. Secrets (passwords, API tokens, platform cookies) are
 * random, not drawn from the seed: knowing the seed never lets anyone act as a demo trader.
 */

export interface DemoMarketOptions {
  /** Same seed, same world (default 1). */
  seed?: number;
  /** Listings on sale (default 40,000: more than 20,000 goods get one). */
  listings?: number;
  traders?: number;
  /** Traders with a password and an API token of their own (default `CREDENTIALED_TRADERS`). */
  credentialedTraders?: number;
  /** How far back the completed trades go. */
  days?: number;
  /** Completed trades (default: 30 % of the listings). */
  trades?: number;
  /** Buy orders in the public book (default: 10 % of the listings). */
  buyOrders?: number;
  /** The moment the world is built at (default: now). */
  now?: Date;
  rules?: MarketRules;
  /** With the server's key, the traders' platform cookies are stored so that they can send offers. */
  secretBox?: SecretBox;
  /** Build beside existing users instead of refusing. */
  add?: boolean;
  /** Rows per statement. */
  batchSize?: number;
  /**
   * More listings, beyond `listings`, on the most popular standard goods in turn: a market where
   * many buyers want the same few goods (the purchase benchmark's hot rows).
   */
  popularListings?: { goods: number; listings: number };
}

import { CREDENTIALED_TRADERS, DEMO_DEFAULTS } from "./demo-defaults.ts";

export { CREDENTIALED_TRADERS, DEMO_DEFAULTS };

export interface DemoMarketReport {
  seed: number;
  listings: number;
  preSellListings: number;
  goodsOnSale: number;
  trades: number;
  buyOrders: number;
  days: number;
  /** The traders with credentials of their own (the first `CREDENTIALED_TRADERS`). */
  traders: DemoTrader[];
  /** Every trader built, with credentials or not. */
  traderCount: number;
  /** The goods with the most completed trades, most first (item pages worth a look). */
  busiestGoods: BusiestGoods[];
  /** Milliseconds per phase and in all. */
  milliseconds: Record<DemoPhase | "total", number>;
}

/** The market already holds users and `add` was not given. */
export class DemoMarketRefused extends Error {}

/** The tables a build writes (their foreign keys are checked at its end). */
const DEMO_TABLES = [
  "users",
  "api_tokens",
  "web_sessions",
  "ledger_accounts",
  "journal_entries",
  "journal_lines",
  "sandbox_platform_accounts",
  "sandbox_platform_sessions",
  "sandbox_assets",
  "sandbox_trade_offers",
  "bound_platform_accounts",
  "platform_inventory_items",
  "listings",
  "trades",
  "buy_orders",
  "sandbox_steam_market_prices",
  "sandbox_steam_market_history",
];
/**
 * The large tables a build writes, whose secondary indexes are built once at its end when the
 * market was empty (`suspendSecondaryIndexes`).
 */
const INDEXED_TABLES = [
  "listings",
  "trades",
  "sandbox_assets",
  "sandbox_trade_offers",
  "platform_inventory_items",
  "journal_entries",
  "journal_lines",
  "buy_orders",
];
/** Any constant shared by every instance: one demo build at a time. */
const DEMO_LOCK_KEY = 730_002;

type Db = Kysely<Database>;

export async function buildDemoMarket(
  db: Db | DatabaseHandle,
  options: DemoMarketOptions = {},
  onProgress: (progress: DemoProgress) => void = () => {},
): Promise<DemoMarketReport> {
  const kysely = db instanceof Kysely ? db : db.db;
  const settings = {
    seed: options.seed ?? DEMO_DEFAULTS.seed,
    listings: options.listings ?? DEMO_DEFAULTS.listings,
    traders: options.traders ?? DEMO_DEFAULTS.traders,
    days: options.days ?? DEMO_DEFAULTS.days,
    popularListings: options.popularListings ?? { goods: 0, listings: 0 },
  };
  const trades = options.trades ?? Math.round((settings.listings * 3) / 10);
  const buyOrders = options.buyOrders ?? Math.round(settings.listings / 10);
  if (!Number.isSafeInteger(settings.seed)) throw new RangeError("seed must be a whole number");
  if (settings.traders < 2) throw new RangeError("traders: at least 2 (a trade needs a buyer and a seller)");
  if (settings.listings < 0 || trades < 0 || buyOrders < 0) throw new RangeError("counts cannot be negative");
  if (settings.popularListings.listings > 0 && settings.popularListings.goods < 1)
    throw new RangeError("popularListings.goods: at least 1 when popularListings.listings is given");
  if (settings.days < 1) throw new RangeError("days: at least 1");
  const now = options.now ?? new Date();
  const rules = options.rules ?? DEFAULT_MARKET_RULES;
  const batch = options.batchSize ?? 2000;
  const started = performance.now();
  const milliseconds = {} as DemoMarketReport["milliseconds"];
  let phaseStarted = started;
  const finishPhase = (phase: DemoPhase) => {
    const at = performance.now();
    milliseconds[phase] = Math.round(at - phaseStarted);
    phaseStarted = at;
  };

  if (!options.add) await refuseUnlessEmpty(kysely);
  // Secrets: argon2id is slow and runs in the password-hashing worker threads, beside the whole
  // build's database work; the hashes are written at its end (writeDemoPasswordHashes).
  const credentialed = options.credentialedTraders ?? CREDENTIALED_TRADERS;
  if (!Number.isSafeInteger(credentialed) || credentialed < 1)
    throw new RangeError("credentialedTraders: at least 1 (the trader a new user tries first)");
  const secrets = credentialsFor(settings.traders, credentialed, (done, total) =>
    onProgress({ phase: "passwords", done, total }),
  );

  const report = await kysely.transaction().execute(async (tx) => {
    // A starting picture, not history: the build writes no events (docs/design/events.md#quiet-bulk-writes).
    await sql`SELECT set_config('skinmarket.events', 'off', true)`.execute(tx);
    await lockAndCheck(tx, options.add ?? false);
    const world: DemoWorld = {
      tx,
      settings,
      trades,
      buyOrders,
      now,
      rules,
      batch,
      start: new Date(now.getTime() - (settings.days + 1) * DAY_MS),
      secrets,
      catalog: await loadDemoCatalog(tx, settings),
      traders: [],
      systemAccounts: { fees: 0, external: 0 },
      journal: new DemoJournal(tx, batch),
      feesTotal: 0,
      cheapest: new Map(),
      progress: (phase, done, total) => onProgress({ phase, done, total }),
    };
    // Into an empty market, each foreign key is checked once at the end rather than per row. A
    // build added to a market in use keeps them: its tables stay free for the requests.
    const keys = options.add ? undefined : await suspendForeignKeys(tx, DEMO_TABLES);
    const indexes = options.add ? undefined : await suspendSecondaryIndexes(tx, INDEXED_TABLES);
    const traders = await writeDemoTraders(world, options.secretBox);
    finishPhase("traders");
    const busiest = await writeDemoTrades(world);
    finishPhase("trades");
    const listed = await writeDemoListings(world);
    finishPhase("listings");
    const orders = await writeDemoBuyOrders(world);
    finishPhase("buy orders");
    world.progress("steam market", 0, 1);
    await writeDemoSteamMarket(world);
    world.progress("steam market", 1, 1);
    finishPhase("steam market");
    await writeDemoLedger(world);
    finishPhase("ledger");
    await writeDemoPasswordHashes(world);
    if (indexes) {
      onProgress({ phase: "indexes", done: 0, total: indexes.count });
      await indexes.restore((done) => onProgress({ phase: "indexes", done, total: indexes.count }));
    }
    finishPhase("indexes");
    if (keys) {
      onProgress({ phase: "foreign keys", done: 0, total: keys.count });
      await keys.restore((done) => onProgress({ phase: "foreign keys", done, total: keys.count }));
    }
    finishPhase("foreign keys");
    return { traders, listed, orders, busiest };
  });
  // Liquidity ranks from the weeks of trades now, not at the daily job's next run.
  onProgress({ phase: "liquidity", done: 0, total: 1 });
  const ranks = await recomputeLiquidityRanks({
    db: kysely,
    clock: { now: () => now },
    actor: { kind: "system" },
    log: { info() {}, warn() {}, error() {} },
    platform: new SandboxPlatform(),
    secretBox: options.secretBox ?? new SecretBox(SecretBox.generateKey()),
    rules,
  });
  if (!ranks.ok) throw new Error(`liquidity ranks: ${ranks.failure.message}`);
  onProgress({ phase: "liquidity", done: 1, total: 1 });
  finishPhase("liquidity");
  onProgress({ phase: "analyze", done: 0, total: 1 });
  // Fresh statistics, so that the planner uses the market's indexes from the first query on.
  await sql`ANALYZE listings, trades, buy_orders, sandbox_assets`.execute(kysely);
  onProgress({ phase: "analyze", done: 1, total: 1 });
  finishPhase("analyze");
  milliseconds.total = Math.round(performance.now() - started);
  return {
    seed: settings.seed,
    listings: settings.listings + settings.popularListings.listings,
    preSellListings: report.listed.preSell,
    goodsOnSale: report.listed.goods,
    trades,
    buyOrders: report.orders,
    days: settings.days,
    traders: report.traders,
    traderCount: settings.traders,
    busiestGoods: report.busiest,
    milliseconds,
  };
}

/** One build at a time, into a loaded catalog, and into an empty market unless `add`. */
async function lockAndCheck(tx: Transaction<Database>, add: boolean): Promise<void> {
  // Two instances starting together with DEMO=on: the second waits, then finds the first's world.
  await sql`SELECT pg_advisory_xact_lock(${DEMO_LOCK_KEY})`.execute(tx);
  const goods = await sql<{ count: string }>`SELECT count(*)::text AS count FROM goods`.execute(tx);
  if (goods.rows[0]?.count === "0") throw new Error("the catalog is not loaded: start the server once first");
  if (!add) await refuseUnlessEmpty(tx);
}

/** The demo market is built into a market without users, unless asked to build beside them. */
async function refuseUnlessEmpty(db: Db): Promise<void> {
  const users = await sql<{ count: string }>`SELECT count(*)::text AS count FROM users`.execute(db);
  const count = Number(users.rows[0]?.count ?? 0);
  if (count > 0) {
    throw new DemoMarketRefused(
      `the market already holds ${count} user${count === 1 ? "" : "s"}; the demo market is built into an empty one (reset the sandbox, use a new data directory, or pass --add to build beside them)`,
    );
  }
}
