import type { ColumnType, Generated } from "kysely";

/**
 * The sandbox platform's own tables (its accounts, their Steam logins and sessions, trade offers,
 * test cards), part of the `Database` of `schema.ts`, which the rest of the server reads them from.
 */
export interface SandboxPlatformAccountsTable {
  platformid: string;
  trade_token: string;
  inventory_public: ColumnType<boolean, boolean | undefined, boolean>;
  limited: ColumnType<boolean, boolean | undefined, boolean>;
  api_key: string | null;
  /** The domain a key was registered for on the Steam face (migration 0032); null otherwise. */
  api_key_domain: ColumnType<string | null, string | null | undefined, string | null>;
  auto_accept: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date, never>;
  /** The Steam face's secrets of the account, sealed JSON (migration 0027); null until first shown. */
  steam_secrets: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Which kind of Steam client a login is for: a token's audience (`web`, `mobile`, `client`). */
export type SteamAudience = "web" | "mobile" | "client";

export interface SandboxSteamAuthSessionsTable {
  client_id: string;
  request_id: string;
  /** Null for a QR login until an account's authenticator approves it (migration 0033). */
  platformid: string | null;
  audience: SteamAudience;
  created_at: Date;
  expires_at: Date;
  guard_passed_at: Date | null;
  /** How the guard was passed: a Steam Guard code or the mobile authenticator (migration 0033). */
  guard_passed_by: "code" | "mobile" | null;
  refresh_token_issued_at: Date | null;
  /** The address that began the login (migration 0037); null on older sessions. */
  requestor_ip: ColumnType<string | null, string | null | undefined, string | null>;
  /** The name the requesting client gave its device (migration 0037). */
  device_friendly_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** When an authenticator first read the session (`GetAuthSessionInfo`, migration 0037). */
  remote_interaction_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** The Steam face's keys, one of each per database, sealed (migration 0038). */
export interface SandboxSteamFaceKeysTable {
  name: "password_rsa" | "openid_hmac";
  sealed: string;
  /** When the key was made (or replaced, sealed under a new `SECRET_KEY`). */
  created_at: ColumnType<Date, Date | undefined, Date>;
}

/** The nonces the face's OpenID `check_authentication` has vouched for (migration 0038). */
export interface SandboxSteamOpenIdVouchedNoncesTable {
  nonce: string;
  vouched_at: Date;
}

export interface SandboxSteamRefreshTokensTable {
  token_hash: string;
  platformid: string;
  audience: SteamAudience;
  issued_at: Date;
  expires_at: Date;
}

export interface SandboxPlatformSessionsTable {
  session_id: Generated<number>;
  platformid: string;
  secret_hash: string;
  issued_at: Date;
  expires_at: Date;
}

export type TradeOfferState = "active" | "accepted" | "declined" | "cancelled" | "expired" | "reverted";

export interface SandboxTradeOffersTable {
  tradeofferid: number;
  sender: string;
  receiver: string;
  assetids: ColumnType<number[], string, string>;
  message: ColumnType<string, string | undefined, string>;
  state: TradeOfferState;
  /** Whose items `assetids` are: the sender's (given) or the receiver's (asked for). */
  items_from: ColumnType<OfferItemsFrom, OfferItemsFrom | undefined, OfferItemsFrom>;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
  expires_at: Date;
  /** End of an accepted offer's trade protection (migration 0028); null until accepted. */
  reversible_until: ColumnType<Date | null, Date | string | null | undefined, Date | null>;
  /** The key of the mobile confirmation the offer waits for (migration 0030); null when none. */
  confirmation_nonce: ColumnType<string | null, string | null | undefined, string | null>;
  /** The offer that countered this one (migration 0032); null when none. Such an offer is `declined`. */
  countered_by: ColumnType<number | null, number | null | undefined, number | null>;
  /**
   * The key of the mobile confirmation the receiver's acceptance waits for (migration 0036); kept on
   * an offer declined by cancelling that confirmation (Steam's CanceledBySecondFactor), else null.
   */
  acceptance_nonce: ColumnType<string | null, string | null | undefined, string | null>;
}

export type OfferItemsFrom = "sender" | "receiver";

export interface SandboxCardsTable {
  user_id: number;
  declines: boolean;
}

/** The sandbox Steam market's reference price of a goods (migration 0031), in fen. */
export interface SandboxSteamMarketPricesTable {
  goods_id: number;
  price: number;
  /** Units sold on the platform's market in the last 24 hours. */
  volume: number;
  updated_at: Date;
  /** The demo's seeded history, made when read (docs/design/steam-face.md#market-prices): its seed, */
  history_seed: number | null;
  /** its last day, */
  history_until: string | null;
  /** its length in days, */
  history_days: number | null;
  /** and the price and volume it walks back from; all five null when nothing was seeded. */
  history_price: number | null;
  history_volume: number | null;
}

/** One day of the sandbox Steam market's history of a goods (migration 0031): median price, units sold. */
export interface SandboxSteamMarketHistoryTable {
  goods_id: number;
  day: ColumnType<string, string, string>;
  price: number;
  volume: number;
}
