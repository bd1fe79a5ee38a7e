import type { Logger } from "pino";
import type { Config } from "../config.ts";
import type { DomainContext } from "../domain/context.ts";
import { buildDemoMarket, DemoMarketRefused } from "./build-demo-market.ts";
import { demoCredentialsPath, describeDemoMarket, writeDemoCredentials } from "./demo-credentials.ts";

/** Whether a start builds the demo market (before it knows whether the market is empty). */
export function demoWantedAtStart(
  config: Pick<Config, "demo" | "sandbox">,
  newEmbeddedDatabase: boolean,
): boolean {
  return config.demo === "on" || (config.demo === "auto" && config.sandbox && newEmbeddedDatabase);
}

/**
 * The first-run experience (docs/sandbox.md "The demo market"): with `DEMO=auto` (the default) a
 * server that has just created its embedded database, with the sandbox on, builds the demo market
 * before it listens, so that `npm start` on a fresh clone serves a rich market. `DEMO=on` builds
 * it at any start that finds no users; `DEMO=off` never. Answers whether it built.
 */
export async function buildDemoAtStart(
  config: Config,
  ctx: DomainContext,
  input: { newEmbeddedDatabase: boolean; baseUrl: string },
  log: Logger,
): Promise<boolean> {
  if (!demoWantedAtStart(config, input.newEmbeddedDatabase)) return false;
  log.info({ demo: config.demo }, "building the demo market");
  let lastPhase = "";
  try {
    const report = await buildDemoMarket(
      ctx.db,
      { now: ctx.clock.now(), rules: ctx.rules, secretBox: ctx.secretBox },
      (progress) => {
        if (progress.phase === lastPhase) return;
        lastPhase = progress.phase;
        log.info({ phase: progress.phase, total: progress.total }, "demo market");
      },
    );
    const path = demoCredentialsPath(config.dataDir);
    await writeDemoCredentials(path, report);
    log.info(
      {
        listings: report.listings,
        goods: report.goodsOnSale,
        trades: report.trades,
        buyOrders: report.buyOrders,
        traders: report.traderCount,
        credentials: path,
        ms: report.milliseconds.total,
      },
      "demo market built",
    );
    // Shown once to the person who started the server, on stderr (as the admin token is): stdout
    // carries only log lines.
    process.stderr.write(`\n${describeDemoMarket(report, path, input.baseUrl)}\n\n`);
    return true;
  } catch (error) {
    if (!(error instanceof DemoMarketRefused)) throw error;
    log.info("the market already holds users: no demo market built");
    return false;
  }
}
