import { existsSync } from "node:fs";
import { isIP } from "node:net";
import { join, resolve } from "node:path";
import { OPERATIONS } from "@skinmarket/contract";
import { STEAM_OPENID_ENDPOINT } from "./domain/sessions/steam-openid-assertion.ts";

/**
 * Configuration from environment variables (each also a `skinmarket serve` flag, which wins),
 * validated once at start. An invalid value stops the start with a message naming the variable.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** The user's scenario files, which run by name in the sandbox (docs/sandbox.md, "Scenarios"). */
  scenariosDir: string;
  databaseUrl: string | undefined;
  sandbox: boolean;
  sandboxAdminToken: string | undefined;
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** Origins a browser may call the API from (`CORS_ORIGINS`); empty: CORS is off. */
  corsOrigins: string[];
  sessionTtlSeconds: number;
  jobsIntervalMs: number;
  snapshotIntervalMs: number;
  /** Bytes a stream may have waiting to be sent before it is dropped as a slow consumer. */
  streamMaxBufferBytes: number;
  /** Event streams one API token or website session may have open at once on this instance. */
  streamMaxPerCredential: number;
  /** Event streams one client address may have open at once on this instance. */
  streamMaxPerAddress: number;
  secureCookies: boolean;
  secretKey: Buffer | undefined;
  sellerFeeBasisPoints: number;
  maxListingPriceFen: number;
  /** How long the event log keeps events, in days (docs/design/events.md#events). */
  eventRetentionDays: number;
  /** Hours a delivered trade stays reversible on the sandbox platform (docs/design/trade-protection.md#the-platforms-window). */
  tradeProtectionHours: number;
  /** The largest goodwill credit support may give by hand, in fen (docs/design/back-office-money.md). */
  supportCreditLimitFen: number;
  /** The largest adjustment finance may make by hand, in fen. */
  financeAdjustLimitFen: number;
  /** Off only for local development (`LIMITS=off`); never off by default. */
  limits: boolean;
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  defaultRate: Rate;
  rateOverrides: Record<string, Rate>;
  /** When the server builds the demo market at start (docs/sandbox.md). */
  demo: DemoMode;
  /** Webhook receivers on loopback and private addresses are allowed (the only switch, sandbox or not). */
  webhookAllowPrivateUrls: boolean;
  /** Where the website reads item images from (`IMAGE_BASE_URL`); unset: drawn placeholders. */
  imageBaseUrl: string | undefined;
  /**
   * Which peers' `X-Forwarded-For` names the client (`TRUST_PROXY`), as Fastify's `trustProxy`
   * takes it: `false` (the peer is the client), `true` (any peer), or the proxies' addresses and
   * CIDRs.
   */
  trustProxy: TrustProxy;
  /**
   * The port of the sandbox's Steam face (`STEAM_FACE_PORT`: Steam's hosts over TLS, and a proxy
   * to them; docs/design/steam-face.md#one-port-two-ways-in); undefined: the face is off.
   */
  steamFacePort: number | undefined;
  /** Steam's OpenID endpoint for "Sign in through Steam" (`STEAM_OPENID_ENDPOINT`). */
  steamOpenIdEndpoint: string;
  /** The SMTP server of the mail port and the sender's address (docs/design/back-office.md#the-mail-port). */
  smtp: { url: string; from: string } | undefined;
}

/** Fastify's `trustProxy` values the configuration gives (docs/design/security.md#security). */
export type TrustProxy = boolean | string[];

export const DEMO_MODES = ["auto", "on", "off"] as const;
export type DemoMode = (typeof DEMO_MODES)[number];

export interface Rate {
  points: number;
  seconds: number;
}

export const LOG_FORMATS = ["json", "pretty"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`${variable}: ${problem}`);
    this.variable = variable;
  }
}

/** The variables, their defaults and meaning: the README's configuration table is this list. */
export const CONFIG_VARIABLES = {
  PORT: "HTTP port (default 8080)",
  HOST: "address to listen on (default 127.0.0.1)",
  DATA_DIR: "directory for the embedded database and generated secrets (default ./data)",
  SCENARIOS_DIR:
    "folder of your own simulation scenarios (*.yaml, *.yml, *.json), run by name in the sandbox (default DATA_DIR/scenarios)",
  DATABASE_URL: "postgres:// URL of a PostgreSQL server; unset: embedded PGlite in DATA_DIR/pglite",
  SANDBOX:
    "on|off: the sandbox API and movable clock (default on with the embedded database, off with DATABASE_URL)",
  SANDBOX_ADMIN_TOKEN:
    "admin token of the sandbox API (default: generated into DATA_DIR/sandbox-admin-token)",
  LOG_LEVEL: "fatal|error|warn|info|debug|trace|silent (default info)",
  LOG_FORMAT:
    "json|pretty: JSON lines, or pino-pretty for a person (default pretty when stdout is a terminal, else json)",
  CORS_ORIGINS:
    "comma-separated origins a browser page may call the API from, or * for any (then without credentials) (default none: CORS off)",
  SESSION_TTL_HOURS: "lifetime of a web session (default 168)",
  JOBS_INTERVAL_MS: "how often due jobs run (default 5000)",
  SNAPSHOT_INTERVAL_MS:
    "how often at most the market snapshot is rebuilt after a change, and with DATABASE_URL how often a slice of the catalog is read again, every goods within a minute (default 1000)",
  STREAM_MAX_BUFFER_BYTES:
    "bytes an event stream may have waiting to be sent before it is dropped as a slow consumer (default 1048576)",
  STREAM_MAX_PER_CREDENTIAL:
    "event streams one API token or website session may have open at once on this instance (default 20)",
  STREAM_MAX_PER_ADDRESS:
    "event streams one client address may have open at once on this instance (default 100)",
  SECURE_COOKIES: "on|off: mark the session cookie Secure, for deployments behind HTTPS (default off)",
  SELLER_FEE_PERCENT: "the seller's fee per sale in percent, up to 2 decimals (default 2.5)",
  MAX_LISTING_PRICE: "the highest price a listing may ask, in yuan (default 1000000)",
  EVENT_RETENTION_DAYS: "how long the event log keeps events, in days, at least 7 (default 30)",
  TRADE_PROTECTION_HOURS:
    "hours of sandbox time a delivered trade stays reversible on the sandbox platform, Steam's trade protection (default 168)",
  SUPPORT_CREDIT_LIMIT: "the largest goodwill credit a support agent may give by hand, in yuan (default 50)",
  FINANCE_ADJUST_LIMIT: "the largest balance adjustment finance may make by hand, in yuan (default 10000)",
  LIMITS:
    "on|off: the reference's rate limits per token and operation (default on; off only for local development)",
  REDIS_URL: "redis:// URL: limit counters shared by every instance (unset: each instance counts in memory)",
  REDIS_KEY_PREFIX:
    "prefix of the limit counters' keys in Redis, for several services on one Redis (default skinmarket:limits)",
  RATE_LIMIT_DEFAULT:
    "rate of official operations the reference gives none, as N/s, N/m or N/h (default 20/s)",
  RATE_LIMITS:
    "per-operation rates replacing the reference's, e.g. listPurchaseOrders=50/s,getBalance=600/m (default none)",
  DEMO: "auto|on|off: build the demo market at start; auto: on the first start of a new embedded database with the sandbox on; on: whenever the market has no users (default auto)",
  IMAGE_BASE_URL:
    "http(s) URL the website reads item images from, the catalog's icon path appended (default none: drawn placeholders)",
  SECRET_KEY:
    "64 hex characters: the key that seals stored platform cookies and webhook secrets (default: generated into DATA_DIR/secret-key)",
  WEBHOOK_ALLOW_PRIVATE_URLS:
    "true|false: allow webhook receivers on loopback, private and link-local addresses, sandbox or not (default false)",
  TRUST_PROXY:
    "false, true, or comma-separated proxy addresses and CIDRs (also loopback, linklocal, uniquelocal): the peers whose X-Forwarded-For gives the client address (default false: the connection's peer is the client)",
  STEAM_FACE_PORT:
    "port of the sandbox's Steam face: Steam's hosts over TLS, and an HTTPS proxy to them (`skinmarket steam env` prints how a bot reaches it) (default none: the face is off)",
  STEAM_OPENID_ENDPOINT:
    'https URL of Steam\'s OpenID 2.0 endpoint that "Sign in through Steam" sends the browser to and asks (default https://steamcommunity.com/openid/login)',
  SMTP_URL:
    "smtp:// or smtps:// URL of the mail server that sends sign-up confirmations (default none: the sandbox keeps mails readable; with the sandbox off, sign-up is refused)",
  MAIL_FROM: "the From address of the mails the marketplace sends (default skinmarket@localhost)",
} as const;

export type ConfigVariable = keyof typeof CONFIG_VARIABLES;
export type ConfigSource = Partial<Record<ConfigVariable, string | undefined>>;

/**
 * Reads `.env` from the working directory into the environment, when there is one, as users of
 * a Fastify service expect: a variable already set in the environment wins over the file's, and a
 * flag over both. Answers the file's path when it was read.
 */
export function loadEnvFile(path = resolve(".env")): string | undefined {
  // Commands started by the test suite (Node's test runner marks its processes and their children
  // with NODE_TEST_CONTEXT) get exactly the configuration the test gives them: a developer's
  // `LIMITS=off` in `.env` must not change what the tests check.
  if (process.env.NODE_TEST_CONTEXT !== undefined) return undefined;
  if (!existsSync(path)) return undefined;
  process.loadEnvFile(path);
  return path;
}

/**
 * The configuration from the variables (or flags); `terminal` says whether stdout is a terminal,
 * which picks the default log format.
 */
export function loadConfig(
  source: ConfigSource,
  terminal: { stdoutIsTTY: boolean } = { stdoutIsTTY: process.stdout.isTTY === true },
): Config {
  const databaseUrl = optional(source, "DATABASE_URL");
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError("DATABASE_URL", "must be a postgres:// or postgresql:// URL");
  }
  const adminToken = optional(source, "SANDBOX_ADMIN_TOKEN");
  if (adminToken !== undefined && !/^[\x21-\x7e]{16,256}$/.test(adminToken)) {
    throw new ConfigError("SANDBOX_ADMIN_TOKEN", "must be 16 to 256 printable characters without spaces");
  }
  const logLevel = optional(source, "LOG_LEVEL") ?? "info";
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError("LOG_LEVEL", `must be one of ${LOG_LEVELS.join(", ")}`);
  }
  const dataDir = resolve(optional(source, "DATA_DIR") ?? "./data");
  return {
    port: integer(source, "PORT", 8080, 0, 65_535),
    host: optional(source, "HOST") ?? "127.0.0.1",
    dataDir,
    scenariosDir: resolve(optional(source, "SCENARIOS_DIR") ?? join(dataDir, "scenarios")),
    databaseUrl,
    sandbox: onOff(source, "SANDBOX", databaseUrl === undefined),
    sandboxAdminToken: adminToken,
    logLevel: logLevel as LogLevel,
    logFormat: logFormat(source, terminal.stdoutIsTTY),
    corsOrigins: corsOrigins(source),
    sessionTtlSeconds: integer(source, "SESSION_TTL_HOURS", 168, 1, 24 * 365) * 3600,
    jobsIntervalMs: integer(source, "JOBS_INTERVAL_MS", 5000, 100, 3_600_000),
    snapshotIntervalMs: integer(source, "SNAPSHOT_INTERVAL_MS", 1000, 100, 60_000),
    streamMaxBufferBytes: integer(
      source,
      "STREAM_MAX_BUFFER_BYTES",
      1024 * 1024,
      16 * 1024,
      1024 * 1024 * 1024,
    ),
    streamMaxPerCredential: integer(source, "STREAM_MAX_PER_CREDENTIAL", 20, 1, 10_000),
    streamMaxPerAddress: integer(source, "STREAM_MAX_PER_ADDRESS", 100, 1, 100_000),
    secureCookies: onOff(source, "SECURE_COOKIES", false),
    secretKey: secretKey(source),
    sellerFeeBasisPoints: decimal(source, "SELLER_FEE_PERCENT", 250, 0, 5000),
    maxListingPriceFen: decimal(source, "MAX_LISTING_PRICE", 100_000_000, 1, 10_000_000_000),
    eventRetentionDays: integer(source, "EVENT_RETENTION_DAYS", 30, 7, 3650),
    tradeProtectionHours: integer(source, "TRADE_PROTECTION_HOURS", 168, 0, 24 * 90),
    supportCreditLimitFen: decimal(source, "SUPPORT_CREDIT_LIMIT", 5_000, 0, 10_000_000_000),
    financeAdjustLimitFen: decimal(source, "FINANCE_ADJUST_LIMIT", 1_000_000, 0, 10_000_000_000),
    limits: onOff(source, "LIMITS", true),
    redisUrl: redisUrl(source),
    redisKeyPrefix: keyPrefix(source),
    defaultRate: rate("RATE_LIMIT_DEFAULT", optional(source, "RATE_LIMIT_DEFAULT") ?? "20/s"),
    rateOverrides: rateOverrides(source),
    demo: demoMode(source),
    webhookAllowPrivateUrls: trueFalse(source, "WEBHOOK_ALLOW_PRIVATE_URLS", false),
    imageBaseUrl: imageBaseUrl(source),
    trustProxy: trustProxy(source),
    steamFacePort: steamFacePort(source, databaseUrl),
    steamOpenIdEndpoint: steamOpenIdEndpoint(source),
    smtp: smtp(source),
  };
}

function smtp(source: ConfigSource): { url: string; from: string } | undefined {
  const url = optional(source, "SMTP_URL");
  if (url === undefined) return undefined;
  if (!URL.canParse(url) || !/^smtps?:$/.test(new URL(url).protocol))
    throw new ConfigError(
      "SMTP_URL",
      `must be an smtp:// or smtps:// URL, got a value of ${url.length} characters`,
    );
  return { url, from: optional(source, "MAIL_FROM") ?? "skinmarket@localhost" };
}

/** An https URL: the assertion's `op_endpoint` is compared with it as written. */
function steamOpenIdEndpoint(source: ConfigSource): string {
  const endpoint = optional(source, "STEAM_OPENID_ENDPOINT") ?? STEAM_OPENID_ENDPOINT;
  if (!URL.canParse(endpoint) || new URL(endpoint).protocol !== "https:")
    throw new ConfigError("STEAM_OPENID_ENDPOINT", `must be an https URL, got "${endpoint}"`);
  return endpoint;
}

/** The Steam face plays Steam for the sandbox's own world, so it runs only beside the sandbox. */
function steamFacePort(source: ConfigSource, databaseUrl: string | undefined): number | undefined {
  if (optional(source, "STEAM_FACE_PORT") === undefined) return undefined;
  const port = integer(source, "STEAM_FACE_PORT", 0, 0, 65_535);
  if (!onOff(source, "SANDBOX", databaseUrl === undefined))
    throw new ConfigError(
      "STEAM_FACE_PORT",
      "the Steam face serves the sandbox's world: set SANDBOX=on or unset it",
    );
  return port;
}

/** The names proxy-addr (Fastify's `trustProxy`) gives to address ranges. */
const PROXY_RANGE_NAMES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * `TRUST_PROXY`: checked here, so that a mistyped address stops the start naming the variable
 * rather than failing inside Fastify (or, worse, trusting nothing silently).
 */
function trustProxy(source: ConfigSource): TrustProxy {
  const text = optional(source, "TRUST_PROXY");
  if (text === undefined || text === "false") return false;
  if (text === "true") return true;
  const entries = text.split(",").map((entry) => entry.trim());
  for (const entry of entries) {
    if (!PROXY_RANGE_NAMES.has(entry) && !isAddressOrCidr(entry))
      throw new ConfigError(
        "TRUST_PROXY",
        `"${entry}" is not an IP address, a CIDR (10.0.0.0/8) or one of loopback, linklocal, uniquelocal; give true, false or a comma-separated list of them`,
      );
  }
  return entries;
}

function isAddressOrCidr(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

function logFormat(source: ConfigSource, stdoutIsTTY: boolean): LogFormat {
  const format = optional(source, "LOG_FORMAT") ?? (stdoutIsTTY ? "pretty" : "json");
  if (!(LOG_FORMATS as readonly string[]).includes(format))
    throw new ConfigError("LOG_FORMAT", `must be one of ${LOG_FORMATS.join(", ")}, got "${format}"`);
  return format as LogFormat;
}

/** `*`, or origins as a browser sends them (`https://dash.example:8443`: scheme, host, port). */
function corsOrigins(source: ConfigSource): string[] {
  const text = optional(source, "CORS_ORIGINS");
  if (text === undefined) return [];
  const origins = text.split(",").map((entry) => entry.trim());
  if (origins.includes("*")) {
    if (origins.length > 1) throw new ConfigError("CORS_ORIGINS", "* allows any origin: give it alone");
    return ["*"];
  }
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin.replace(/\/$/, ""))
      throw new ConfigError(
        "CORS_ORIGINS",
        `"${origin}" is not an origin: give scheme, host and port only, e.g. http://localhost:5173`,
      );
  }
  return origins.map((origin) => origin.replace(/\/$/, ""));
}

/** An http(s) URL without a query or fragment, kept without its trailing slash. */
function imageBaseUrl(source: ConfigSource): string | undefined {
  const text = optional(source, "IMAGE_BASE_URL");
  if (text === undefined) return undefined;
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.search !== "" || parsed.hash !== "")
    throw new ConfigError(
      "IMAGE_BASE_URL",
      `"${text}" is not an http(s) URL without a query, e.g. https://cdn.example`,
    );
  return text.replace(/\/+$/, "");
}

function demoMode(source: ConfigSource): DemoMode {
  const mode = optional(source, "DEMO") ?? "auto";
  if (!(DEMO_MODES as readonly string[]).includes(mode))
    throw new ConfigError("DEMO", `must be one of ${DEMO_MODES.join(", ")}, got "${mode}"`);
  return mode as DemoMode;
}

function redisUrl(source: ConfigSource): string | undefined {
  const url = optional(source, "REDIS_URL");
  if (url !== undefined && !/^rediss?:\/\/\S+$/.test(url))
    throw new ConfigError("REDIS_URL", "must be a redis:// or rediss:// URL");
  return url;
}

function keyPrefix(source: ConfigSource): string {
  const prefix = optional(source, "REDIS_KEY_PREFIX") ?? "skinmarket:limits";
  if (!/^[\x21-\x7e]{1,100}$/.test(prefix))
    throw new ConfigError("REDIS_KEY_PREFIX", "must be 1 to 100 printable characters without spaces");
  return prefix;
}

const RATE_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600 };

function rate(variable: ConfigVariable, text: string): Rate {
  const match = /^(\d{1,6})\/([smh])$/.exec(text.trim());
  if (!match || Number(match[1]) < 1)
    throw new ConfigError(variable, `"${text}" is not a rate: give N/s, N/m or N/h with N at least 1`);
  return { points: Number(match[1]), seconds: RATE_UNITS[match[2]!]! };
}

function rateOverrides(source: ConfigSource): Record<string, Rate> {
  const text = optional(source, "RATE_LIMITS");
  if (text === undefined) return {};
  const overrides: Record<string, Rate> = {};
  for (const entry of text.split(",")) {
    const match = /^\s*([A-Za-z]+)\s*=\s*(\S+)\s*$/.exec(entry);
    if (!match) throw new ConfigError("RATE_LIMITS", `"${entry}" is not operationId=N/s`);
    const known = OPERATIONS.some(
      (operation) => operation.id === match[1] && operation.envelope === "official",
    );
    if (!known) throw new ConfigError("RATE_LIMITS", `"${match[1]}" is not the id of an official operation`);
    overrides[match[1]!] = rate("RATE_LIMITS", match[2]!);
  }
  return overrides;
}

/** A decimal with at most 2 decimals, as hundredths (2.5 -> 250), within [min, max] hundredths. */
function decimal(
  source: ConfigSource,
  variable: ConfigVariable,
  fallback: number,
  min: number,
  max: number,
): number {
  const text = optional(source, variable);
  if (text === undefined) return fallback;
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  const value = match ? Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0")) : NaN;
  if (!(value >= min && value <= max)) {
    throw new ConfigError(
      variable,
      `must be a number with at most 2 decimals from ${min / 100} to ${max / 100}, got "${text}"`,
    );
  }
  return value;
}

function secretKey(source: ConfigSource): Buffer | undefined {
  const text = optional(source, "SECRET_KEY");
  if (text === undefined) return undefined;
  if (!/^[0-9a-fA-F]{64}$/.test(text))
    throw new ConfigError("SECRET_KEY", "must be 64 hexadecimal characters (32 bytes)");
  return Buffer.from(text, "hex");
}

function optional(source: ConfigSource, variable: ConfigVariable): string | undefined {
  const value = source[variable]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

function integer(
  source: ConfigSource,
  variable: ConfigVariable,
  fallback: number,
  min: number,
  max: number,
): number {
  const text = optional(source, variable);
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new ConfigError(variable, `must be a whole number from ${min} to ${max}, got "${text}"`);
  }
  return value;
}

function trueFalse(source: ConfigSource, variable: ConfigVariable, fallback: boolean): boolean {
  const text = optional(source, variable);
  if (text === undefined) return fallback;
  if (text === "true" || text === "on") return true;
  if (text === "false" || text === "off") return false;
  throw new ConfigError(variable, `must be true or false, got "${text}"`);
}

function onOff(source: ConfigSource, variable: ConfigVariable, fallback: boolean): boolean {
  const text = optional(source, variable);
  if (text === undefined) return fallback;
  if (text === "on") return true;
  if (text === "off") return false;
  throw new ConfigError(variable, `must be on or off, got "${text}"`);
}
