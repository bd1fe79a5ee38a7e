import { Command } from "commander";
import type { Config } from "../config.ts";
import { CREDENTIALED_TRADERS, DEMO_DEFAULTS } from "../demo/demo-defaults.ts";
import { UsageError } from "./command-helpers.ts";
import type { DemoFlags } from "./demo-run.ts";

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
    const { runDemo } = await import("./demo-run.ts");
    await runDemo(config, flags, counts);
  });
}

function whole(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got "${text}"`);
  return value;
}
