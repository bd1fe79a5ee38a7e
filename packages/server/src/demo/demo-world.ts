import type { Transaction } from "kysely";
import type { MarketRules } from "../domain/context.ts";
import { sellerFee } from "../domain/market/seller-fee.ts";
import type { USER_ACCOUNT_KINDS } from "../domain/wallet/ledger.ts";
import type { AccessLevel, Database } from "../storage/schema.ts";
import type { DemoCatalog } from "./demo-catalog.ts";
import type { DemoJournal } from "./demo-journal.ts";
import type { TraderSecrets } from "./demo-trader-secrets.ts";

/**
 * What the phases of a demo build share (`buildDemoMarket`): the transaction, the settings, the
 * catalog as the build sees it, the traders planned so far, the journal being noted and the
 * cheapest listing of each goods. Each phase (`write-demo-*.ts`) reads it and adds its part.
 */

export type DemoPhase =
  | "traders"
  | "trades"
  | "listings"
  | "buy orders"
  | "steam market"
  | "ledger"
  | "indexes"
  | "foreign keys"
  | "liquidity"
  | "analyze";

export interface DemoProgress {
  /**
   * A phase, the credentialed traders' passwords (hashed in worker threads while the build
   * starts), or the first pass over the trades (drawn to be numbered oldest first).
   */
  phase: DemoPhase | "passwords" | "trade plans";
  done: number;
  total: number;
}

export interface DemoTrader {
  userId: number;
  nickname: string;
  password: string;
  token: string;
  accessLevel: AccessLevel;
  platformid: string;
  tradeUrl: string;
}

export const DAY_MS = 24 * 3600 * 1000;
export const HOUR_MS = 3600 * 1000;
export const MINUTE_MS = 60 * 1000;
/** Each trader's money beyond what their purchases cost: buy orders must be covered. */
export const CUSHION_FEN = 20_000_000;

export interface DemoSettings {
  seed: number;
  listings: number;
  traders: number;
  days: number;
  popularListings: { goods: number; listings: number };
}

export interface TraderPlan {
  userId: number;
  platformid: string;
  tradeUrl: string;
  /** Account ids by kind. */
  accounts: Record<(typeof USER_ACCOUNT_KINDS)[number], number>;
  deposit: number;
  balance: number;
  createdAt: Date;
}

export interface DemoWorld {
  readonly tx: Transaction<Database>;
  readonly settings: DemoSettings;
  /** Completed trades and buy orders to build. */
  readonly trades: number;
  readonly buyOrders: number;
  readonly now: Date;
  readonly rules: MarketRules;
  /** Rows per statement. */
  readonly batch: number;
  /** When the world begins: accounts open and money comes in a day before the first trade. */
  readonly start: Date;
  readonly secrets: TraderSecrets;
  readonly catalog: DemoCatalog;
  readonly traders: TraderPlan[];
  /** The system's fee and external accounts (found by the traders' phase). */
  systemAccounts: { fees: number; external: number };
  readonly journal: DemoJournal;
  /** Fees of the completed trades, the fee account's balance. */
  feesTotal: number;
  /** The cheapest listing on sale per goods: buy orders bid below it. */
  readonly cheapest: Map<number, number>;
  progress(phase: DemoProgress["phase"], done: number, total: number): void;
}

/** A price a listing may ask: the fee must leave the seller something. */
export function validPrice(rules: MarketRules, price: number): number {
  let valid = Math.min(rules.maxListingPriceFen, price);
  while (sellerFee(valid, rules) >= valid) valid += 1;
  return valid;
}
