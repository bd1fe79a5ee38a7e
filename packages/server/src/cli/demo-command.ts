import { resolve } from "node:path";
import { Command } from "commander";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import { loadCatalog } from "../domain/catalog/load-catalog.ts";
import { OffsetClock, systemClock, type Clock } from "../domain/clock.ts";
import type { DomainContext } from "../domain/context.ts";
import { loadClockOffset } from "../domain/sandbox/advance-clock.ts";
import { SecretBox } from "../domain/secret-box.ts";
import { SandboxPlatform } from "../platform/sandbox/sandbox-platform.ts";
import {
  buildDemoMarket,
  CREDENTIALED_TRADERS,
  DEMO_DEFAULTS,
  DemoMarketRefused,
} from "../demo/build-demo-market.ts";
import {
  demoCredentialsPath,
  describeDemoMarket,
  progressPrinter,
  showcaseTrader,
  writeDemoCredentials,
} from "../demo/demo-credentials.ts";
import { createLogger, marketRules, openConfiguredDatabase, secretKey } from "../server.ts";
import { UsageError } from "./command-helpers.ts";

interface DemoFlags {
  seed: string;
  listings: string;
  traders: string;
  credentialed: string;
  days: string;
  trades?: string;
  buyOrders?: string;
  add?: boolean;
  credentials?: string;
  json?: boolean;
}

/**
 * `skinmarket demo`: builds the demo market straight into the configured database (DATA_DIR's
 * embedded one or DATABASE_URL), so the embedded database must not be open in a running server.
 * Exit codes: 0 built; 1 the build failed; 2 bad usage, or the market already holds data.
 */
export function demoCommand(
  withConfig: (command: Command) => Command,
  configOf: (command: Command) => Config,
) {
  return withConfig(
    new Command("demo")
      .description(
        "build a deterministic demo market (traders, listings, buy orders, weeks of trades) into an empty database",
      )
      .option("--seed <n>", "same seed, same world", String(DEMO_DEFAULTS.seed))
      .option("--listings <n>", "listings on sale", String(DEMO_DEFAULTS.listings))
      .option("--traders <n>", "traders (users with platform accounts)", String(DEMO_DEFAULTS.traders))
      .option(
        "--credentialed <n>",
        "traders that get their own password and API token, written to the credentials file; the others cannot sign in",
        String(CREDENTIALED_TRADERS),
      )
      .option("--days <n>", "how far back completed trades go", String(DEMO_DEFAULTS.days))
      .option("--trades <n>", "completed trades (default: 30% of the listings)")
      .option("--buy-orders <n>", "buy orders in the public book (default: 10% of the listings)")
      .option("--add", "build beside existing users instead of refusing")
      .option(
        "--credentials <file>",
        "where to write the traders' passwords and tokens (default: DATA_DIR/demo-traders.json)",
      )
      .option("--json", "no progress; print a JSON summary"),
  ).action(async function (this: Command) {
    const flags = this.opts<DemoFlags>();
    const counts = {
      seed: whole("--seed", flags.seed, 0, Number.MAX_SAFE_INTEGER),
      listings: whole("--listings", flags.listings, 0, 10_000_000),
      traders: whole("--traders", flags.traders, 2, 1_000_000),
      credentialedTraders: whole("--credentialed", flags.credentialed, 1, 10_000),
      days: whole("--days", flags.days, 1, 3650),
      ...(flags.trades !== undefined ? { trades: whole("--trades", flags.trades, 0, 10_000_000) } : {}),
      ...(flags.buyOrders !== undefined
        ? { buyOrders: whole("--buy-orders", flags.buyOrders, 0, 10_000_000) }
        : {}),
    };
    const config = configOf(this);
    const log = createLogger({ logLevel: flags.json ? "silent" : "warn" });
    // The steps before the build take seconds (the catalog most): each is said as it starts.
    const step = (text: string) => {
      if (!flags.json) process.stderr.write(`demo: ${text}\n`);
    };
    step(
      `opening ${config.databaseUrl ? "the PostgreSQL database" : `the embedded database in ${config.dataDir}`}`,
    );
    const database = await openConfiguredDatabase(config, log);
    try {
      const { clock, ctx } = await demoContext(config, database.db, log);
      step("loading the catalog");
      const catalog = await loadCatalog(ctx);
      if (!catalog.ok) throw new Error(`catalog: ${catalog.failure.message}`);
      step(`building ${counts.listings} listings for ${counts.traders} traders (seed ${counts.seed})`);
      const report = await buildDemoMarket(
        database.db,
        { ...counts, now: clock.now(), rules: ctx.rules, secretBox: ctx.secretBox, add: flags.add ?? false },
        flags.json ? undefined : progressPrinter(process.stderr),
      ).catch((error: unknown) => {
        if (error instanceof DemoMarketRefused) throw new UsageError(error.message);
        throw error;
      });
      const credentials = flags.credentials
        ? resolve(flags.credentials)
        : demoCredentialsPath(config.dataDir);
      await writeDemoCredentials(credentials, report);
      if (flags.json) {
        const trader = showcaseTrader(report);
        process.stdout.write(
          `${JSON.stringify({
            database: database.description,
            seed: report.seed,
            listings: report.listings,
            pre_sell_listings: report.preSellListings,
            goods_on_sale: report.goodsOnSale,
            trades: report.trades,
            buy_orders: report.buyOrders,
            days: report.days,
            traders: report.traderCount,
            credentialed_traders: report.traders.length,
            credentials_file: credentials,
            busiest_goods: report.busiestGoods.map((goods) => ({
              goods_id: goods.goodsId,
              market_hash_name: goods.marketHashName,
              trades: goods.trades,
            })),
            example_trader: trader
              ? {
                  user_id: trader.userId,
                  nickname: trader.nickname,
                  access_level: trader.accessLevel,
                  token: trader.token,
                }
              : null,
            milliseconds: report.milliseconds,
          })}\n`,
        );
      } else {
        process.stdout.write(`${database.description}\n${describeDemoMarket(report, credentials)}\n`);
      }
    } finally {
      await database.close();
    }
  });
}

/** The server's clock (the sandbox's, moved or not), key and rules, as a started server has them. */
async function demoContext(config: Config, db: DomainContext["db"], log: Logger) {
  const sandboxClock = config.sandbox ? new OffsetClock() : undefined;
  const clock: Clock = sandboxClock ?? systemClock;
  const ctx: DomainContext = {
    db,
    clock,
    actor: { kind: "system" },
    log,
    platform: new SandboxPlatform(),
    secretBox: new SecretBox(await secretKey(config, log)),
    rules: marketRules(config),
  };
  if (sandboxClock) await loadClockOffset(ctx, sandboxClock);
  return { clock, ctx };
}

function whole(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${text}"`);
  return value;
}
