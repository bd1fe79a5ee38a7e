import type { Clock, OffsetClock } from "./domain/clock.ts";
import {
  DEFAULT_MARKET_RULES,
  type ChangedGoods,
  type DomainContext,
  type DomainLogger,
  type MarketRules,
} from "./domain/context.ts";
import { EventLog } from "./domain/events/event-log.ts";
import { CatalogIndexes } from "./domain/goods/catalog-index.ts";
import { MarketChanges } from "./domain/market/market-changes.ts";
import { PriceSnapshots } from "./domain/market/price-snapshots.ts";
import { SimulationRunner } from "./domain/simulation/simulation-runner.ts";
import { TokenCache } from "./domain/token-cache.ts";
import type { GamePlatform } from "./domain/platform/game-platform.ts";
import type { SavedReads } from "./domain/saved-reads.ts";
import type { SecretBox } from "./domain/secret-box.ts";
import { enqueueWebhookDeliveries } from "./domain/webhooks/enqueue.ts";
import type { WebhookSender } from "./domain/webhook-sender.ts";
import type { MailSender } from "./domain/mail-sender.ts";
import { SandboxMailbox } from "./mail/sandbox-mailbox.ts";
import type { LimiterStore } from "./http/limits/limiter-store.ts";
import { RefusedCredentialLimit } from "./http/limits/refused-credentials.ts";
import { VisitorSearchLimit } from "./http/limits/visitor-searches.ts";
import { PriceAnswers } from "./http/routes/market/price-answers.ts";
import { sandboxHands } from "./platform/sandbox/simulation-hands.ts";
import type { DatabaseHandle } from "./storage/database.ts";
import { HttpWebhookSender } from "./webhooks/http-webhook-sender.ts";

/** What the runtime is made from; `AppDeps` adds what only the HTTP app needs. */
export interface RuntimeDeps {
  database: DatabaseHandle;
  clock: Clock;
  platform: GamePlatform;
  secretBox: SecretBox;
  rules?: MarketRules;
  /**
   * Where commits are counted for the market snapshots; the server shares it with its jobs and
   * the other instances. Without one the app counts only its own requests' commits.
   */
  marketChanges?: MarketChanges;
  /** Tokens recently found valid; the server shares it with the listener that empties it. */
  tokenCache?: TokenCache;
  /** How often at most the market snapshot is rebuilt after a change (default 1000 ms). */
  snapshotIntervalMs?: number;
  /**
   * While a snapshot is rebuilt, answer from the one there is instead of waiting (the server turns
   * it on; off by default, so that an answer right after a change shows it).
   */
  snapshotServeStale?: boolean;
  /** The price snapshots, when the caller builds them (the server warms them up at start). */
  priceSnapshots?: PriceSnapshots;
  /**
   * The event log's view of this instance, when the caller runs it (the server: it also hears the
   * other instances); otherwise the app runs one of its own, closed with the app.
   */
  eventLog?: EventLog;
  /**
   * Sends webhook deliveries; by default over HTTP, receivers on private addresses allowed only
   * with `webhookAllowPrivateUrls` (docs/design/security.md#webhook-receivers-and-secrets).
   */
  webhookSender?: WebhookSender;
  /**
   * `WEBHOOK_ALLOW_PRIVATE_URLS`: webhook receivers on loopback, private and link-local addresses
   * (default false, sandbox or not), for the default sender.
   */
  webhookAllowPrivateUrls?: boolean;
  /** With the sandbox on: its movable clock, which the simulated traders' steps move. */
  sandbox?: { clock: OffsetClock };
  /** The limit counters; absent only with `LIMITS=off`. */
  limits?: { store: LimiterStore };
  /**
   * The mail port: the server's SMTP sender when `SMTP_URL` is set; otherwise the sandbox's
   * mailbox with the sandbox on, and none with it off (docs/design/back-office.md#the-mail-port).
   */
  mail?: MailSender;
  /** Where costly reads are saved for the next process (the server's: in its data directory). */
  savedReads?: SavedReads;
}

/** What one app runs on: made once from its dependencies, handed to the plugins and routes. */
export interface Runtime {
  /** Every request's context but its actor and log (the auth plugin adds them). */
  baseContext: Omit<DomainContext, "actor" | "log">;
  /** Where commits are counted for the market snapshots. */
  marketChanges: MarketChanges;
  /** The event log: polling reads it, the stream listens to it, webhooks hear its rounds. */
  eventLog: EventLog;
  /** One snapshot of the market serves every price operation and the catalog's sorts. */
  priceSnapshots: PriceSnapshots;
  catalogs: CatalogIndexes;
  prices: PriceAnswers;
  /** The limit counters; absent with `LIMITS=off`. */
  limiterStore: LimiterStore | undefined;
  /** The budget of refused credentials per client address; absent with `LIMITS=off`. */
  refusedCredentials: RefusedCredentialLimit | undefined;
  /** Visitors' catalog pages and suggestions per client address; absent with `LIMITS=off`. */
  visitorSearches: VisitorSearchLimit | undefined;
  /** The sandbox's movable clock when the sandbox is on. */
  sandboxClock: OffsetClock | undefined;
  /** The simulated traders' runner, with the sandbox on (docs/design/simulation.md#the-living-sandbox). */
  simulation: SimulationRunner | undefined;
  /** Closes what the runtime made (not what the caller passed in), the last made first. */
  close(): Promise<void>;
}

/**
 * Makes the runtime of one app from its dependencies: what the caller passes (the server shares
 * its market changes, token cache, price snapshots and event log with its jobs and the other
 * instances) is used as given, the rest is made here. `log` is the app's logger.
 */
export function createRuntime(deps: RuntimeDeps, log: DomainLogger): Runtime {
  const owned: { close(): Promise<void> }[] = [];
  const core = {
    db: deps.database.db,
    clock: deps.clock,
    platform: deps.platform,
    secretBox: deps.secretBox,
    rules: deps.rules ?? DEFAULT_MARKET_RULES,
    ...(deps.savedReads ? { savedReads: deps.savedReads } : {}),
  };
  const marketChanges = deps.marketChanges ?? new MarketChanges();
  const eventLog = deps.eventLog ?? ownEventLog(core, log);
  if (!deps.eventLog) owned.push(eventLog);
  // Every commit here reaches the market snapshots and the event log, the simulated traders' too.
  const afterCommit = (goods: ChangedGoods) => {
    marketChanges.committed(goods);
    eventLog.poke();
  };
  const simulation = deps.sandbox
    ? new SimulationRunner({
        // The simulated traders act as the sandbox admin and as their users, with the context a
        // request has.
        ctx: { ...core, actor: { kind: "admin" }, log, afterCommit },
        clock: deps.sandbox.clock,
        hands: sandboxHands,
      })
    : undefined;
  if (simulation) owned.push(simulation);
  const serveStale = { serveStale: deps.snapshotServeStale ?? false };
  const snapshotIntervalMs = deps.snapshotIntervalMs ?? 1000;
  const priceSnapshots =
    deps.priceSnapshots ?? new PriceSnapshots(marketChanges, snapshotIntervalMs, serveStale);
  return {
    baseContext: {
      ...core,
      afterCommit,
      tokenCache: deps.tokenCache ?? new TokenCache(),
      webhookSender:
        deps.webhookSender ?? new HttpWebhookSender({ allowPrivate: deps.webhookAllowPrivateUrls ?? false }),
      ...mailOf(deps),
    },
    marketChanges,
    eventLog,
    priceSnapshots,
    catalogs: new CatalogIndexes(priceSnapshots, marketChanges, snapshotIntervalMs, serveStale),
    prices: new PriceAnswers(priceSnapshots),
    limiterStore: deps.limits?.store,
    refusedCredentials: deps.limits ? new RefusedCredentialLimit(deps.limits.store) : undefined,
    visitorSearches: deps.limits ? new VisitorSearchLimit(deps.limits.store) : undefined,
    sandboxClock: deps.sandbox?.clock,
    simulation,
    async close() {
      for (const part of [...owned].reverse()) await part.close();
    },
  };
}

/**
 * An event log for an app built without one (tests): poked by its own commits, no sweeps; it reads
 * the log only once something committed. Its rounds owe the webhook deliveries of their events.
 */
function ownEventLog(core: Omit<DomainContext, "actor" | "log">, log: DomainLogger): EventLog {
  return new EventLog({ ...core, actor: { kind: "system" }, log }, [enqueueWebhookDeliveries]);
}

function mailOf(deps: RuntimeDeps): { mail?: MailSender } {
  if (deps.mail) return { mail: deps.mail };
  return deps.sandbox ? { mail: new SandboxMailbox(deps.database.db) } : {};
}
