#!/usr/bin/env node
import { MarketApiError, MarketTransportError } from "@skinmarket/client";
import { Command, CommanderError, Option } from "commander";
import { adminCommand, UsageError } from "./cli/admin-commands.ts";
import { demoCommand } from "./cli/demo-command.ts";
import {
  CONFIG_VARIABLES,
  ConfigError,
  loadConfig,
  loadEnvFile,
  type ConfigSource,
  type ConfigVariable,
} from "./config.ts";
import { createLogger, openConfiguredDatabase, startServer } from "./server.ts";
import { DataDirLockedError } from "./storage/data-dir-lock.ts";

// Every command (serve, migrate, demo, admin) reads `.env` from the working directory first; the
// environment wins over it, and a flag over both.
const envFile = loadEnvFile();

/**
 * The `skinmarket` command. Exit codes: 0 done; 1 the work failed (server error, API refusal);
 * 2 bad usage or configuration.
 */
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;
/** Signals this close to the first are the same interrupt delivered twice (see `serve`). */
const REPEATED_SIGNAL_MS = 1000;

/** Flags of `serve` and `migrate`: each overrides its environment variable. */
const FLAG_VARIABLES: Array<[flag: string, variable: ConfigVariable]> = [
  ["--port <port>", "PORT"],
  ["--host <host>", "HOST"],
  ["--data-dir <dir>", "DATA_DIR"],
  ["--database-url <url>", "DATABASE_URL"],
  ["--sandbox <on|off>", "SANDBOX"],
  ["--sandbox-admin-token <token>", "SANDBOX_ADMIN_TOKEN"],
  ["--log-level <level>", "LOG_LEVEL"],
  ["--log-format <json|pretty>", "LOG_FORMAT"],
  ["--session-ttl-hours <hours>", "SESSION_TTL_HOURS"],
  ["--jobs-interval-ms <ms>", "JOBS_INTERVAL_MS"],
  ["--snapshot-interval-ms <ms>", "SNAPSHOT_INTERVAL_MS"],
  ["--secure-cookies <on|off>", "SECURE_COOKIES"],
  ["--secret-key <hex>", "SECRET_KEY"],
  ["--seller-fee-percent <percent>", "SELLER_FEE_PERCENT"],
  ["--max-listing-price <yuan>", "MAX_LISTING_PRICE"],
  ["--limits <on|off>", "LIMITS"],
  ["--redis-url <url>", "REDIS_URL"],
  ["--redis-key-prefix <prefix>", "REDIS_KEY_PREFIX"],
  ["--rate-limit-default <rate>", "RATE_LIMIT_DEFAULT"],
  ["--rate-limits <list>", "RATE_LIMITS"],
  ["--demo <auto|on|off>", "DEMO"],
  ["--cors-origins <list>", "CORS_ORIGINS"],
];

function withConfigFlags(command: Command, only?: ConfigVariable[]): Command {
  for (const [flag, variable] of FLAG_VARIABLES) {
    if (only && !only.includes(variable)) continue;
    command.addOption(new Option(flag, CONFIG_VARIABLES[variable]).env(variable));
  }
  return command;
}

function configFrom(command: Command) {
  const options = command.opts<Record<string, string | undefined>>();
  const source: ConfigSource = {};
  for (const [flag, variable] of FLAG_VARIABLES) {
    const key = flag
      .slice(2, flag.indexOf(" "))
      .replace(/-([a-z])/g, (_m, letter: string) => letter.toUpperCase());
    source[variable] = options[key];
  }
  return loadConfig(source);
}

const program = new Command("skinmarket")
  .description("skinmarket: a CS2 item marketplace service")
  .showHelpAfterError()
  .exitOverride();

withConfigFlags(
  program.command("serve", { isDefault: true }).description("run the marketplace HTTP service"),
).action(async function (this: Command) {
  const config = configFrom(this);
  const log = createLogger(config);
  if (envFile) log.info({ path: envFile }, `variables read from ${envFile}`);
  const server = await startServer(config, log);
  let stoppingSince: number | undefined;
  const stop = (signal: string) => {
    if (stoppingSince !== undefined) {
      // One Ctrl-C reaches the server more than once: from the terminal (to its whole process
      // group) and again from npm or `node --watch`, which forward it. Only a later one is a person
      // asking again.
      if (performance.now() - stoppingSince < REPEATED_SIGNAL_MS) return;
      log.warn({ signal }, "second signal: exiting without waiting");
      process.exit(EXIT_FAILURE);
    }
    stoppingSince = performance.now();
    log.info({ signal }, "shutting down");
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, "shutdown failed");
        process.exit(EXIT_FAILURE);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
});

withConfigFlags(
  program
    .command("migrate")
    .description("apply pending database migrations and exit")
    .option("--json", "print a JSON report"),
  ["DATA_DIR", "DATABASE_URL", "LOG_LEVEL"],
).action(async function (this: Command) {
  const config = configFrom(this);
  const log = createLogger({ logLevel: this.opts<{ json?: boolean }>().json ? "silent" : config.logLevel });
  const database = await openConfiguredDatabase(config, log);
  await database.close();
  if (this.opts<{ json?: boolean }>().json) {
    process.stdout.write(`${JSON.stringify({ database: database.description, migrated: true })}\n`);
  } else {
    process.stdout.write(`${database.description}: schema is up to date\n`);
  }
});

program.addCommand(adminCommand());
program.addCommand(
  demoCommand(
    (command) =>
      withConfigFlags(command, [
        "DATA_DIR",
        "DATABASE_URL",
        "SANDBOX",
        "SECRET_KEY",
        "SELLER_FEE_PERCENT",
        "MAX_LISTING_PRICE",
      ]),
    configFrom,
  ),
);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = exitCodeFor(error);
}

function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) {
    // Help and version are not failures; commander has already printed what went wrong otherwise.
    return error.exitCode === 0 ? 0 : EXIT_USAGE;
  }
  if (error instanceof UsageError) {
    process.stderr.write(`skinmarket: ${error.message}\n`);
    return EXIT_USAGE;
  }
  if (error instanceof ConfigError) {
    process.stderr.write(`skinmarket: configuration: ${error.message}\n`);
    return EXIT_USAGE;
  }
  if (error instanceof DataDirLockedError) {
    process.stderr.write(`skinmarket: ${error.message}\n`);
    return EXIT_FAILURE;
  }
  if (error instanceof MarketApiError) {
    process.stderr.write(`skinmarket: ${error.code}: ${error.msg}\n`);
    return EXIT_FAILURE;
  }
  if (error instanceof MarketTransportError) {
    process.stderr.write(`skinmarket: cannot reach the server: ${error.message}\n`);
    return EXIT_FAILURE;
  }
  process.stderr.write(
    `skinmarket: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return EXIT_FAILURE;
}
