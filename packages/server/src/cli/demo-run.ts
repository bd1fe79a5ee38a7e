import { resolve } from "node:path";
import type { Logger } from "pino";
import type { Config } from "../config.ts";
import { loadCatalog } from "../domain/catalog/load-catalog.ts";
import { OffsetClock, systemClock, type Clock } from "../domain/clock.ts";
import type { DomainContext } from "../domain/context.ts";
import { loadClockOffset } from "../domain/sandbox/advance-clock.ts";
import { SecretBox } from "../domain/secret-box.ts";
import { SandboxPlatform } from "../platform/sandbox/sandbox-platform.ts";
import { buildDemoMarket, DemoMarketRefused, type DemoMarketOptions } from "../demo/build-demo-market.ts";
import {
  demoCredentialsPath,
  describeDemoMarket,
  progressPrinter,
  showcaseTrader,
  writeDemoCredentials,
} from "../demo/demo-credentials.ts";
import { createLogger, marketRules, openConfiguredDatabase, secretKey } from "../server.ts";
import { UsageError } from "./command-helpers.ts";

export interface DemoFlags {
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
 * The work of `skinmarket demo`, loaded only when the command runs (the CLI's other commands do
 * not load the server; docs/design/stack.md#startup-compile-cache).
 */
export async function runDemo(
  config: Config,
  flags: DemoFlags,
  counts: Pick<
    DemoMarketOptions,
    "seed" | "listings" | "traders" | "credentialedTraders" | "days" | "trades" | "buyOrders"
  >,
): Promise<void> {
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
    const credentials = flags.credentials ? resolve(flags.credentials) : demoCredentialsPath(config.dataDir);
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
