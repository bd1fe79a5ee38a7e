import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { pino, type DestinationStream, type Logger } from "pino";
import { buildApp, LOG_REDACTIONS } from "./app.ts";
import type { Config } from "./config.ts";
import { prettyStream } from "./pretty-log.ts";
import { serializeRequest } from "./http/plugins/request-logging.ts";
import { loadCatalog } from "./domain/catalog/load-catalog.ts";
import { ADMIN_TOKEN_FILE, readOptionalFile, writeServerFile } from "./server-file.ts";
import { OffsetClock, systemClock, type Clock } from "./domain/clock.ts";
import type { DomainContext, MarketRules } from "./domain/context.ts";
import { loadClockOffset } from "./domain/sandbox/advance-clock.ts";
import { SecretBox } from "./domain/secret-box.ts";
import { generateSecret } from "./domain/secrets.ts";
import { closePasswordHashing } from "./domain/password-hash.ts";
import { SandboxPlatform } from "./platform/sandbox/sandbox-platform.ts";
import { SmtpMailSender } from "./mail/smtp-mail-sender.ts";
import { startJobScheduler } from "./jobs/run-due-jobs.ts";
import { crossStandingOrders } from "./domain/buy-orders/cross-standing-orders.ts";
import { openDatabase, type DatabaseHandle } from "./storage/database.ts";
import { migrateToLatest } from "./storage/migrator.ts";
import { announceMarketChange, marketChangeOf } from "./domain/change-notices.ts";
import { listenForChanges } from "./storage/change-notifications.ts";
import { savedReadFiles } from "./storage/saved-read-files.ts";
import { MarketChanges, batched } from "./domain/market/market-changes.ts";
import { EventLog } from "./domain/events/event-log.ts";
import { WebhookWorker } from "./domain/webhooks/delivery-worker.ts";
import { HttpWebhookSender } from "./webhooks/http-webhook-sender.ts";
import { PriceSnapshots } from "./domain/market/price-snapshots.ts";
import { TokenCache } from "./domain/token-cache.ts";
import { LimiterStore } from "./http/limits/limiter-store.ts";
import { buildDemoAtStart, demoWantedAtStart } from "./demo/demo-at-start.ts";
import { demoCredentialsPath } from "./demo/demo-credentials.ts";
import { buildDemoInChild } from "./build-demo-in-child.ts";
import { portFailure } from "./port-check.ts";
import { startSteamFace, type RunningSteamFace } from "./steam-face/start-steam-face.ts";
import type { SteamOpenIdSettings } from "./http/steam-openid/check-authentication.ts";
import { enqueueWebhookDeliveries } from "./domain/webhooks/enqueue.ts";

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** Stops taking requests, lets in-flight ones finish, stops the jobs, closes the database. */
  close(): Promise<void>;
}

/**
 * The service's logger: JSON lines (for pipes, files and log collectors), or pino-pretty's lines
 * for a person at a terminal (`LOG_FORMAT=pretty`, the default when stdout is one). Both go to
 * stdout (or `destination`) and carry the same redacted fields.
 */
export function createLogger(
  config: Pick<Config, "logLevel"> & Partial<Pick<Config, "logFormat">>,
  destination?: DestinationStream,
): Logger {
  const options = {
    level: config.logLevel,
    redact: { paths: LOG_REDACTIONS, censor: "[redacted]" },
    // Fastify's request fields, with credentials in a query string redacted.
    serializers: { req: serializeRequest },
  };
  return pino(options, config.logFormat === "pretty" ? prettyStream(destination) : destination);
}

/** The database the configuration names, migrated; with the names of the migrations this opening applied. */
export async function openConfiguredDatabase(
  config: Config,
  log: Logger,
): Promise<DatabaseHandle & { migrationsApplied: string[] }> {
  const database = await openDatabase(
    config.databaseUrl
      ? { kind: "postgres", url: config.databaseUrl }
      : { kind: "pglite", dataDir: join(config.dataDir, "pglite") },
  );
  log.info({ database: database.description }, "database open");
  const migrations = await migrateToLatest(database.db);
  if (migrations.applied.length > 0) log.info({ applied: migrations.applied }, "migrations applied");
  if (migrations.functionsApplied.length > 0)
    log.info({ functions: migrations.functionsApplied }, "database functions applied");
  return Object.assign(database, { migrationsApplied: migrations.applied });
}

/** Loads the catalog file into the database when it changed since the last start, and says which. */
export async function loadCatalogAtStart(ctx: DomainContext, log: Logger): Promise<void> {
  const catalog = await loadCatalog(ctx);
  if (!catalog.ok) throw new Error(`catalog: ${catalog.failure.message}`);
  log.info(
    {
      goods: catalog.value.goodsCount,
      loaded: catalog.value.loaded,
      ms: Math.round(catalog.value.milliseconds),
    },
    catalog.value.loaded ? "catalog loaded into the database" : "catalog already current",
  );
}

/**
 * On the embedded database, a demo market wanted at start is built by a process of its own, which
 * has exited before the server opens the database: the build grows PGlite's WebAssembly memory and
 * the C heap, which a process never gives back, and the server would hold them for as long as it
 * runs (docs/design/performance.md#a-quiet-server-and-its-memory).
 */
async function buildDemoApart(config: Config, log: Logger, newEmbeddedDatabase: boolean): Promise<boolean> {
  if (config.databaseUrl || !demoWantedAtStart(config, newEmbeddedDatabase)) return false;
  return buildDemoInChild(config, newEmbeddedDatabase, log);
}

/** The marketplace's configurable rules, as the configuration sets them. */
export function marketRules(config: Config): MarketRules {
  return {
    sellerFeeBasisPoints: config.sellerFeeBasisPoints,
    maxListingPriceFen: config.maxListingPriceFen,
    eventRetentionDays: config.eventRetentionDays,
    tradeProtectionHours: config.tradeProtectionHours,
    supportCreditLimitFen: config.supportCreditLimitFen,
    financeAdjustLimitFen: config.financeAdjustLimitFen,
  };
}

/** Opens the database, migrates, loads the catalog, listens, and starts the jobs. */
export async function startServer(
  config: Config,
  log: Logger = createLogger(config),
): Promise<RunningServer> {
  const newEmbeddedDatabase =
    !config.databaseUrl && !existsSync(join(config.dataDir, "pglite", "PG_VERSION"));
  const demoBuiltApart = await buildDemoApart(config, log, newEmbeddedDatabase);
  const database = await openConfiguredDatabase(config, log);
  try {
    const sandboxClock = config.sandbox ? new OffsetClock() : undefined;
    const clock: Clock = sandboxClock ?? systemClock;
    const platform = new SandboxPlatform();
    const secretBox = new SecretBox(await secretKey(config, log));
    const rules = marketRules(config);
    // Commits here (requests and jobs) count as market changes; with a PostgreSQL server the
    // other instances hear of them, at most every ANNOUNCE_INTERVAL_MS.
    const instanceId = randomUUID();
    const tokenCache = new TokenCache();
    // The catalog's goods as read, for the next start (docs/design/architecture.md#the-catalogs-read-is-saved).
    const savedReads = savedReadFiles(join(config.dataDir, "saved-reads"));
    const marketChanges = new MarketChanges(
      config.databaseUrl
        ? batched(
            (goods) =>
              announceMarketChange(database.db, instanceId, goods).catch((error: unknown) =>
                log.warn({ err: error }, "could not announce a market change to the other instances"),
              ),
            ANNOUNCE_INTERVAL_MS,
          )
        : undefined,
    );
    const systemContext: DomainContext = {
      db: database.db,
      clock,
      actor: { kind: "system" },
      log,
      platform,
      secretBox,
      rules,
      afterCommit: (goods) => {
        marketChanges.committed(goods);
        eventLog.poke();
      },
      tokenCache,
      // Receivers on private addresses only when the operator allows them, sandbox or not: a
      // sandbox user's token must not probe the internal network (docs/design/security.md#webhook-receivers-and-secrets).
      webhookSender: new HttpWebhookSender({ allowPrivate: config.webhookAllowPrivateUrls }),
      savedReads,
    };
    // Every commit here may have written events (the triggers of migration 0020): the sequencer
    // runs after each, after other instances' notices, and once a second (docs/design/webhooks-and-tools.md#owed-in-the-sequencers-transaction).
    const eventLog = new EventLog(systemContext, [enqueueWebhookDeliveries]);
    if (sandboxClock) await loadClockOffset(systemContext, sandboxClock);

    await loadCatalogAtStart(systemContext, log);
    // Recovery at start: crossings a crash interrupted are finished before the first request.
    const recovered = await crossStandingOrders(systemContext);
    if (recovered > 0) log.info({ trades: recovered }, "finished crossings left standing");
    const demoBaseUrl = `http://${config.host}:${config.port}`;
    if (
      demoBuiltApart ||
      (await buildDemoAtStart(config, systemContext, { newEmbeddedDatabase, baseUrl: demoBaseUrl }, log))
    )
      marketChanges.committed();
    else logDemoCredentials(config, log);

    // Other instances on the same server announce clock moves (this one reads the offset again)
    // and market changes (this one's snapshots are rebuilt); after a lost connection, both.
    const changes = config.databaseUrl
      ? await listenForChanges({
          url: config.databaseUrl,
          onChange: (message) => {
            if (message.kind === "clock" && sandboxClock) void reloadClock(systemContext, sandboxClock, log);
            const change = marketChangeOf(message);
            if (change && message.from !== instanceId) marketChanges.heard(change);
            if (message.kind === "tokens") tokenCache.forget();
            if (message.kind === "events") eventLog.heard(message.last ?? Number.MAX_SAFE_INTEGER);
          },
          onReconnect: () => {
            if (sandboxClock) void reloadClock(systemContext, sandboxClock, log);
            marketChanges.heard();
            tokenCache.forget();
            eventLog.heard(Number.MAX_SAFE_INTEGER);
          },
          log,
        })
      : undefined;
    const limiterStore = config.limits
      ? new LimiterStore({
          ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
          keyPrefix: config.redisKeyPrefix,
          log,
        })
      : undefined;
    if (!config.limits) log.warn("LIMITS=off: no rate limits; for local development only");
    const priceSnapshots = new PriceSnapshots(marketChanges, config.snapshotIntervalMs, {
      serveStale: true,
      // With a PostgreSQL server, every goods is read again within a minute, a sixtieth of the
      // catalog each interval (the rolling recheck), for writes made behind the service's back.
      // Only this process writes the embedded database (its lock), and it counts every commit:
      // nothing can change behind its back, so the recheck would only take the event loop's time
      // (the embedded database runs on it) to find nothing.
      ...(config.databaseUrl ? {} : { maxAgeMs: Infinity }),
      // A PostgreSQL server runs the build's statements off the event loop: larger chunks, fewer
      // round trips (the embedded database keeps small ones, as it runs them in this thread).
      ...(config.databaseUrl ? { listingsPerChunk: SERVER_LISTINGS_PER_CHUNK } : {}),
      // An update of the goods changed costs tens of milliseconds where a whole rebuild costs
      // seconds: updates run four times as often, so a change is in the whole market well
      // within a second (docs/design/market-snapshots.md#updates-per-changed-goods).
      updateIntervalMs: config.snapshotIntervalMs / 4,
    });
    // With the Steam face on, Steam's names are the face's: "Sign in through Steam" asks it, once
    // it listens (below), through its proxy and trusting its CA.
    const faceReach: { face?: RunningSteamFace } = {};
    const steamOpenId: SteamOpenIdSettings = {
      endpoint: config.steamOpenIdEndpoint,
      agent: () => faceReach.face?.agent,
    };
    const app = await buildApp({
      steamOpenId,
      database,
      clock,
      platform,
      secretBox,
      rules,
      ...(sandboxClock
        ? {
            sandbox: {
              clock: sandboxClock,
              adminToken: await sandboxAdminToken(config, log),
              resumeSimulation: true,
              scenariosFolder: config.scenariosDir,
            },
          }
        : {}),
      sessionTtlSeconds: config.sessionTtlSeconds,
      secureCookies: config.secureCookies,
      corsOrigins: config.corsOrigins,
      trustProxy: config.trustProxy,
      website: { imageBaseUrl: config.imageBaseUrl },
      stream: {
        maxBufferBytes: config.streamMaxBufferBytes,
        maxPerCredential: config.streamMaxPerCredential,
        maxPerAddress: config.streamMaxPerAddress,
      },
      logger: log,
      marketChanges,
      tokenCache,
      snapshotIntervalMs: config.snapshotIntervalMs,
      snapshotServeStale: true,
      priceSnapshots,
      eventLog,
      savedReads,
      ...(systemContext.webhookSender ? { webhookSender: systemContext.webhookSender } : {}),
      ...(config.smtp ? { mail: new SmtpMailSender(config.smtp) } : {}),
      ...(limiterStore
        ? {
            limits: {
              store: limiterStore,
              settings: { defaultRate: config.defaultRate, overrides: config.rateOverrides },
            },
          }
        : {}),
    });
    // The first snapshot is built before listening, so that "serving" is true when it is logged
    // and no price request waits for it; with nobody to serve yet, in the large chunks a
    // PostgreSQL server gets (docs/design/market-snapshots.md#chunked-builds). A failure is logged
    // by the snapshots, and the first price request tries again, in the usual chunks. From then on
    // it is rebuilt as soon as a change makes it out of date, not when a request finds it so.
    const started = performance.now();
    await priceSnapshots.first(systemContext, SERVER_LISTINGS_PER_CHUNK).then(
      (snapshot) =>
        log.info(
          { goods: snapshot.entries.size, ms: Math.round(performance.now() - started) },
          "price snapshot built",
        ),
      () => undefined,
    );
    const stopSnapshots = priceSnapshots.keepFresh(systemContext, (snapshot, ms) =>
      log.debug({ goods: snapshot.entries.size, ms: Math.round(ms) }, "price snapshot rebuilt"),
    );
    await eventLog.start();
    // Webhook deliveries: woken by new events, and every few seconds for retries.
    const webhooks = new WebhookWorker(systemContext);
    webhooks.start(eventLog);
    const steamFace =
      config.steamFacePort === undefined
        ? undefined
        : await startSteamFace({
            ctx: systemContext,
            dataDir: config.dataDir,
            host: config.host,
            port: config.steamFacePort,
            logger: log,
          }).catch((error: unknown) => {
            throw portFailure(error, config.host, config.steamFacePort ?? 0) ?? error;
          });
    const url = await app.listen({ port: config.port, host: config.host }).catch(async (error: unknown) => {
      await steamFace?.close();
      throw error;
    });
    faceReach.face = steamFace;
    if (steamFace)
      log.info(
        { port: steamFace.port, ca: steamFace.caFile },
        `Steam face on port ${steamFace.port} (skinmarket steam env prints how a bot reaches it)`,
      );
    const jobs = startJobScheduler(systemContext, config.jobsIntervalMs);
    // Recorded before "serving" is logged, so that a client started on that line finds it. Only a
    // convenience for client commands: a data dir this process cannot write costs them the
    // discovery (they still find the server through PORT or --url), not the server its start.
    await writeServerFile(config.dataDir, url, steamFace?.port).catch((error: unknown) =>
      log.warn({ err: error }, "could not record the server's URL in the data dir"),
    );
    log.info({ url, sandbox: config.sandbox }, "skinmarket is serving");
    return {
      app,
      url,
      async close() {
        await steamFace?.close();
        await app.close();
        stopSnapshots();
        await jobs.stop();
        // No request is left to sign in: the hashing threads end now rather than at their idle time.
        await closePasswordHashing();
        await webhooks.close();
        await eventLog.close();
        await limiterStore?.close();
        await changes?.close();
        await database.close();
        log.info("stopped cleanly");
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Listings a snapshot build reads at a time with a PostgreSQL server (docs/design/market-snapshots.md#when-a-snapshot-is-rebuilt). */
export const SERVER_LISTINGS_PER_CHUNK = 20_000;

/** How often at most an instance tells the others that its commits changed the market. */
const ANNOUNCE_INTERVAL_MS = 200;

export const SECRET_KEY_FILE = "secret-key";

/**
 * The key that seals stored secrets: SECRET_KEY if set, else DATA_DIR/secret-key, generated on
 * first start. Losing it makes stored platform cookies unreadable (users upload them again).
 */
export async function secretKey(config: Config, log: Logger): Promise<Buffer> {
  if (config.secretKey) return config.secretKey;
  const path = join(config.dataDir, SECRET_KEY_FILE);
  const existing = await readOptionalFile(path);
  if (existing) {
    if (!/^[0-9a-f]{64}$/.test(existing)) throw new Error(`${path} does not hold 64 hexadecimal characters`);
    return Buffer.from(existing, "hex");
  }
  const key = SecretBox.generateKey();
  await mkdir(config.dataDir, { recursive: true });
  await writeFile(path, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  log.info({ path }, "secret key generated");
  return key;
}

/**
 * The sandbox admin token: SANDBOX_ADMIN_TOKEN if set, else the one in the data directory,
 * generated (and printed, this once) on first start.
 */
async function sandboxAdminToken(config: Config, log: Logger): Promise<string> {
  if (config.sandboxAdminToken) return config.sandboxAdminToken;
  const path = join(config.dataDir, ADMIN_TOKEN_FILE);
  const existing = await readOptionalFile(path);
  if (existing) {
    // Said at every start, so that a restarted server still tells where its admin token is.
    log.info({ path }, `sandbox admin token in ${path}`);
    return existing;
  }
  const token = `sma_${generateSecret()}`;
  await mkdir(config.dataDir, { recursive: true });
  await writeFile(path, `${token}\n`, { mode: 0o600, flag: "wx" });
  await chmod(path, 0o600);
  // Shown once to the person who started the server, on stderr: never in the log (which is
  // redacted, kept and shipped), and stdout carries only log lines.
  process.stderr.write(`\nSandbox admin token (saved in ${path}; shown only now):\n  ${token}\n\n`);
  log.info({ path }, `sandbox admin token generated into ${path}`);
  return token;
}

/** Said at every start that finds them, so that a restarted server tells where they are. */
function logDemoCredentials(config: Config, log: Logger): void {
  const path = demoCredentialsPath(config.dataDir);
  if (existsSync(path)) log.info({ path }, `demo traders' credentials in ${path}`);
}

async function reloadClock(ctx: DomainContext, clock: OffsetClock, log: Logger): Promise<void> {
  try {
    await loadClockOffset(ctx, clock);
  } catch (error) {
    log.warn({ err: error }, "could not read the sandbox clock after another instance moved it");
  }
}
