import { readFileSync } from "node:fs";
import { Command, Option } from "commander";
import { adminCommand } from "./admin-commands.ts";
import { simulateCommand } from "./simulate-command.ts";
import { demoCommand } from "./demo-command.ts";
import { listenCommand } from "./listen-command.ts";
import { steamCommand } from "./steam-command.ts";
import { staffCommand } from "./staff-command.ts";
import { commanderMessage, EXIT_FAILURE, jsonRequested, reportError, writeError } from "./report-error.ts";
import {
  CONFIG_VARIABLES,
  loadConfig,
  loadEnvFile,
  type ConfigSource,
  type ConfigVariable,
} from "../config.ts";
import { checkPortFree, portFailure } from "../port-check.ts";
import { removeServerFile } from "../server-file.ts";

// The server's modules load only in the commands that run it (serve, migrate, demo): the others
// talk to a running server over HTTP and start in a fraction of the time.
// Every command (serve, migrate, demo, admin) reads `.env` from the working directory first; the
// environment wins over it, and a flag over both.
const envFile = loadEnvFile();

/** The `skinmarket` command; its exit codes are in cli/report-error.ts. */
const json = jsonRequested(process.argv.slice(2));
const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
};
/** Signals this close to the first are the same interrupt delivered twice (see `serve`). */
const REPEATED_SIGNAL_MS = 1000;

/** Flags of `serve` and `migrate`: each overrides its environment variable. */
const FLAG_VARIABLES: Array<[flag: string, variable: ConfigVariable]> = [
  ["--port <port>", "PORT"],
  ["--host <host>", "HOST"],
  ["--data-dir <dir>", "DATA_DIR"],
  ["--scenarios-dir <dir>", "SCENARIOS_DIR"],
  ["--database-url <url>", "DATABASE_URL"],
  ["--sandbox <on|off>", "SANDBOX"],
  ["--sandbox-admin-token <token>", "SANDBOX_ADMIN_TOKEN"],
  ["--log-level <level>", "LOG_LEVEL"],
  ["--log-format <json|pretty>", "LOG_FORMAT"],
  ["--session-ttl-hours <hours>", "SESSION_TTL_HOURS"],
  ["--jobs-interval-ms <ms>", "JOBS_INTERVAL_MS"],
  ["--snapshot-interval-ms <ms>", "SNAPSHOT_INTERVAL_MS"],
  ["--stream-max-buffer-bytes <bytes>", "STREAM_MAX_BUFFER_BYTES"],
  ["--stream-max-per-credential <count>", "STREAM_MAX_PER_CREDENTIAL"],
  ["--stream-max-per-address <count>", "STREAM_MAX_PER_ADDRESS"],
  ["--secure-cookies <on|off>", "SECURE_COOKIES"],
  ["--secret-key <hex>", "SECRET_KEY"],
  ["--seller-fee-percent <percent>", "SELLER_FEE_PERCENT"],
  ["--max-listing-price <yuan>", "MAX_LISTING_PRICE"],
  ["--event-retention-days <days>", "EVENT_RETENTION_DAYS"],
  ["--trade-protection-hours <hours>", "TRADE_PROTECTION_HOURS"],
  ["--support-credit-limit <yuan>", "SUPPORT_CREDIT_LIMIT"],
  ["--finance-adjust-limit <yuan>", "FINANCE_ADJUST_LIMIT"],
  ["--limits <on|off>", "LIMITS"],
  ["--redis-url <url>", "REDIS_URL"],
  ["--redis-key-prefix <prefix>", "REDIS_KEY_PREFIX"],
  ["--rate-limit-default <rate>", "RATE_LIMIT_DEFAULT"],
  ["--rate-limits <list>", "RATE_LIMITS"],
  ["--demo <auto|on|off>", "DEMO"],
  ["--cors-origins <list>", "CORS_ORIGINS"],
  ["--webhook-allow-private-urls <true|false>", "WEBHOOK_ALLOW_PRIVATE_URLS"],
  ["--image-base-url <url>", "IMAGE_BASE_URL"],
  ["--trust-proxy <value>", "TRUST_PROXY"],
  ["--steam-face-port <port>", "STEAM_FACE_PORT"],
  ["--steam-openid-endpoint <url>", "STEAM_OPENID_ENDPOINT"],
  ["--smtp-url <url>", "SMTP_URL"],
  ["--mail-from <address>", "MAIL_FROM"],
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
  .version(version, "-V, --version", "print the version");

withConfigFlags(
  program.command("serve", { isDefault: true }).description("run the marketplace HTTP service"),
).action(async function (this: Command) {
  const config = configFrom(this);
  const { createLogger, startServer } = await import("../server.ts");
  await checkPortFree(config.host, config.port);
  if (config.steamFacePort) await checkPortFree(config.host, config.steamFacePort);
  const log = createLogger(config);
  if (envFile) log.info({ path: envFile }, `variables read from ${envFile}`);
  const server = await startServer(config, log).catch((error: unknown) => {
    throw portFailure(error, config.host, config.port) ?? error;
  });
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
      () => removeServerFile(config.dataDir).finally(() => process.exit(0)),
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
  const { createLogger, openConfiguredDatabase } = await import("../server.ts");
  // The command's answer is its one line (or JSON report); the log says only what went wrong.
  const log = createLogger({ logLevel: this.opts<{ json?: boolean }>().json ? "silent" : "warn" });
  const database = await openConfiguredDatabase(config, log);
  await database.close();
  const applied = database.migrationsApplied;
  if (this.opts<{ json?: boolean }>().json) {
    process.stdout.write(`${JSON.stringify({ database: database.description, migrated: true, applied })}\n`);
  } else if (applied.length === 0) {
    process.stdout.write(`${database.description}: schema was already up to date\n`);
  } else {
    const names = applied.length === 1 ? applied[0] : `${applied[0]} to ${applied.at(-1)}`;
    const count = applied.length === 1 ? "1 migration" : `${applied.length} migrations`;
    process.stdout.write(`${database.description}: applied ${count} (${names}); schema is up to date\n`);
  }
});

program.addCommand(adminCommand());
program.addCommand(simulateCommand());
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

program.addCommand(listenCommand());
program.addCommand(
  steamCommand((command) => withConfigFlags(command, ["DATA_DIR", "HOST", "STEAM_FACE_PORT"]), configFrom),
);

program.addCommand(
  staffCommand((command) => withConfigFlags(command, ["DATA_DIR", "DATABASE_URL", "LOG_LEVEL"]), configFrom),
);

applyConventions(program);
try {
  refuseUnknownCommand(program, process.argv.slice(2));
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = reportError(error, json);
}

/**
 * Every command, including those built in their own files: usage errors exit 2 (through
 * reportError) and are JSON under --json, and --help shows the options inherited from above.
 */
function applyConventions(command: Command): void {
  command
    .exitOverride()
    .showHelpAfterError(json ? false : `(add --help for usage)`)
    .showSuggestionAfterError()
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      outputError: (text) => writeError({ code: "usage", message: commanderMessage(text) }, json),
    });
  for (const subcommand of command.commands) applyConventions(subcommand);
}

/**
 * `serve` is the default command, so commander hands it any word it does not know and reports
 * "too many arguments for 'serve'": a first word that is no command is refused by name instead.
 */
function refuseUnknownCommand(root: Command, args: string[]): void {
  const first = args[0];
  if (first === undefined || first.startsWith("-") || first === "help") return;
  if (root.commands.some((command) => command.name() === first || command.aliases().includes(first))) return;
  // Commander's own refusal, with its "(Did you mean ...?)": a method of every Command that its
  // typings leave out (pinned version; the CLI test checks the message).
  root.args = [first];
  (root as Command & { unknownCommand(): never }).unknownCommand();
}
