import type { Kysely } from "kysely";
import type { Database } from "../storage/schema.ts";
import type { GamePlatform } from "./platform/game-platform.ts";
import type { Clock } from "./clock.ts";
import type { MailSender } from "./mail-sender.ts";
import type { SecretBox } from "./secret-box.ts";
import type { TokenCache } from "./token-cache.ts";
import type { SavedReads } from "./saved-reads.ts";
import type { WebhookSender } from "./webhook-sender.ts";

/**
 * What a change touched: the ids of the goods whose listings or buy orders it wrote, `"ranks"`
 * for the liquidity ranks (recomputed for every goods at once, no listing or buy order written),
 * or `"all"` when it may have touched anything (a reset, a demo build, a new catalog, a write that
 * names nothing).
 */
export type ChangedGoods = readonly number[] | "ranks" | "all";

/** A key held by a running request: `owner` tells its request from a retry that took it over. */
export interface HeldKey {
  userId: number;
  key: string;
  owner: string;
}

/** Who is acting: recorded in the audit log and used to scope every read and write. */
export type Actor =
  | { kind: "user"; userId: number }
  | { kind: "admin" }
  | { kind: "system" }
  | { kind: "anonymous" }
  | { kind: "staff"; staffId: number; role: "support" | "finance" | "risk" | "admin" };

export interface MarketRules {
  /** The seller's fee in basis points (250 = 2.5 %), rounded up to the fen, at least 0.01. */
  sellerFeeBasisPoints: number;
  /** The highest price a listing may ask, in fen. */
  maxListingPriceFen: number;
  /** How long the event log keeps events, in days (`EVENT_RETENTION_DAYS`). */
  eventRetentionDays: number;
  /**
   * The sandbox platform's trade protection: hours a delivered trade stays reversible
   * (`TRADE_PROTECTION_HOURS`; docs/design/trade-protection.md#the-platforms-window).
   */
  tradeProtectionHours: number;
  /** The largest goodwill credit support gives by hand, in fen (`SUPPORT_CREDIT_LIMIT`). */
  supportCreditLimitFen: number;
  /** The largest adjustment finance makes by hand, in fen (`FINANCE_ADJUST_LIMIT`); admins have none. */
  financeAdjustLimitFen: number;
}

export const DEFAULT_MARKET_RULES: MarketRules = {
  sellerFeeBasisPoints: 250,
  maxListingPriceFen: 100_000_000,
  eventRetentionDays: 30,
  tradeProtectionHours: 7 * 24,
  supportCreditLimitFen: 5_000,
  financeAdjustLimitFen: 1_000_000,
};

export interface DomainLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * What every verb receives. `db` is the query layer (a Kysely instance or an open transaction);
 * the driver behind it is chosen in `storage/` and never seen here.
 */
export interface DomainContext {
  db: Kysely<Database>;
  clock: Clock;
  actor: Actor;
  log: DomainLogger;
  /** The game platform: the sandbox platform, or a real one behind the same port. */
  platform: GamePlatform;
  /** Seals secrets kept at rest (uploaded cookies, API keys). */
  secretBox: SecretBox;
  /** The marketplace's configurable rules (fees, limits). */
  rules: MarketRules;
  requestId?: string;
  /**
   * Counts the transactions a request has committed (so a failed request knows if it changed
   * anything); with `key`, each is also counted on the request's idempotency key inside the
   * transaction, which rolls back if a retry has taken the key over.
   */
  effects?: { committed: number; key?: HeldKey };
  /**
   * Told after each committed transaction, with the goods it wrote (`noteChangedGoods`; "all"
   * when it named none), and once more with "ranks" when it recomputed the liquidity ranks
   * (`noteRanksChanged`): the market snapshots learn of changes this way.
   */
  afterCommit?: (goods: ChangedGoods) => void;
  /**
   * The goods the open transaction wrote listings or buy orders of (`noteChangedGoods`), and
   * whether it wrote the liquidity ranks (`noteRanksChanged`).
   */
  changedGoods?: { goods: Set<number>; noted: boolean; ranks?: boolean };
  /** Tokens recently found valid: requests skip reading them again (docs/design/security.md#api-tokens-in-memory). */
  tokenCache?: TokenCache;
  /** Sends webhook deliveries (docs/design/webhooks-and-tools.md#a-slow-receiver-delays-only-its-own-deliveries); without one, none are sent. */
  webhookSender?: WebhookSender;
  /** The mail port (docs/design/back-office.md#the-mail-port); without one, sign-up is refused. */
  mail?: MailSender;
  /** Costly reads saved for the next process (the catalog's goods); without it, each reads anew. */
  savedReads?: SavedReads;
}

export function actorLabel(actor: Actor): string {
  if (actor.kind === "user") return `user:${actor.userId}`;
  return actor.kind === "staff" ? `staff:${actor.staffId}` : actor.kind;
}
