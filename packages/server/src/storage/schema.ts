import type { ColumnType, Generated, Insertable, Selectable } from "kysely";
import type {
  OfferItemsFrom,
  SandboxCardsTable,
  SandboxPlatformAccountsTable,
  SandboxPlatformSessionsTable,
  SandboxSteamAuthSessionsTable,
  SandboxSteamFaceKeysTable,
  SandboxSteamOpenIdVouchedNoncesTable,
  SandboxSteamMarketHistoryTable,
  SandboxSteamMarketPricesTable,
  SandboxSteamRefreshTokensTable,
  SandboxTradeOffersTable,
  SteamAudience,
  TradeOfferState,
} from "./sandbox-schema.ts";
import type { BackOfficeTables } from "./schema-back-office.ts";

/**
 * The database as Kysely sees it. BIGINT columns arrive as JS numbers on both drivers (see
 * `type-parsers.ts`), NUMERIC as decimal strings, TIMESTAMPTZ as `Date`.
 */
export interface Database extends BackOfficeTables {
  goods: GoodsTable;
  catalog_state: CatalogStateTable;
  users: UsersTable;
  api_tokens: ApiTokensTable;
  web_sessions: WebSessionsTable;
  sign_in_failures: SignInFailuresTable;
  sign_in_address_accounts: SignInAddressAccountsTable;
  steam_openid_nonces: SteamOpenIdNoncesTable;
  ledger_accounts: LedgerAccountsTable;
  journal_entries: JournalEntriesTable;
  journal_lines: JournalLinesTable;
  audit_events: AuditEventsTable;
  system_settings: SystemSettingsTable;
  sandbox_platform_accounts: SandboxPlatformAccountsTable;
  sandbox_platform_sessions: SandboxPlatformSessionsTable;
  sandbox_steam_auth_sessions: SandboxSteamAuthSessionsTable;
  sandbox_steam_refresh_tokens: SandboxSteamRefreshTokensTable;
  sandbox_steam_face_keys: SandboxSteamFaceKeysTable;
  sandbox_steam_openid_vouched_nonces: SandboxSteamOpenIdVouchedNoncesTable;
  sandbox_assets: SandboxAssetsTable;
  sandbox_trade_offers: SandboxTradeOffersTable;
  sandbox_steam_market_prices: SandboxSteamMarketPricesTable;
  sandbox_steam_market_history: SandboxSteamMarketHistoryTable;
  bound_platform_accounts: BoundPlatformAccountsTable;
  platform_inventory_items: PlatformInventoryItemsTable;
  listings: ListingsTable;
  trades: TradesTable;
  buy_orders: BuyOrdersTable;
  idempotency_keys: IdempotencyKeysTable;
  sandbox_cards: SandboxCardsTable;
  liquidity_ranks: LiquidityRanksTable;
  liquidity_rank_state: LiquidityRankStateTable;
  bookmarks: BookmarksTable;
  event_outbox: EventOutboxTable;
  events: EventsTable;
  market_price_marks: MarketPriceMarksTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

export interface GoodsTable {
  goods_id: number;
  market_hash_name: string;
  name: string;
  short_name: string;
  type: string;
  quality: string;
  exterior: string | null;
  tags: ColumnType<GoodsTagRow[], string, string>;
  paintwear_min: string | null;
  paintwear_max: string | null;
  paint_index: number | null;
  icon_url: string;
  is_standard: boolean;
  source_id: number;
  rarity_color: string | null;
  /** The game's own kit id (sticker kit, keychain, music kit); `CatalogGoods.gameIndex`. */
  game_index: number | null;
}

export interface GoodsTagRow {
  id: number;
  category: string;
  internal_name: string;
  localized_name: string;
}

export interface CatalogStateTable {
  id: ColumnType<1, 1 | undefined, never>;
  checksum: string;
  goods_count: number;
  loaded_at: Date;
}

export type AccessLevel = "developer" | "enterprise" | "none";
export type BuyOrderStatus = "online" | "offline";

export interface UsersTable {
  user_id: Generated<number>;
  nickname: string;
  password_hash: string;
  access_level: AccessLevel;
  buy_order_status: ColumnType<BuyOrderStatus, BuyOrderStatus | undefined, BuyOrderStatus>;
  buy_order_auto_offline: ColumnType<boolean, boolean | undefined, boolean>;
  /** The seller asks buyers to send the offers of their sales (migration 0025). */
  force_buyer_send_offer: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
  /** A signed-up account's address and when it was confirmed; null for sandbox and Steam accounts (migration 0036). */
  email: ColumnType<string | null, string | null | undefined, string | null>;
  email_confirmed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  closed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Staff froze the account's trading or its withdrawals (migration 0041); null: not frozen. */
  trading_frozen_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  withdrawals_frozen_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}
export type UserRow = Selectable<UsersTable>;

export interface ApiTokensTable {
  token_id: Generated<number>;
  user_id: number;
  token_hash: string;
  prefix: string;
  created_at: ColumnType<Date, Date, never>;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface SignInFailuresTable {
  throttle_key: string;
  failures: number;
  last_failure_at: Date;
  held_until: Date | null;
}

/** A Steam OpenID response nonce that signed in (migration 0028); each signs in once. */
export interface SteamOpenIdNoncesTable {
  nonce: string;
  used_at: Date;
}

export interface SignInAddressAccountsTable {
  address_key: string;
  account_key: string;
  failed_at: Date;
}

export interface WebSessionsTable {
  session_id: Generated<number>;
  user_id: number;
  session_hash: string;
  created_at: ColumnType<Date, Date, never>;
  expires_at: Date;
  revoked_at: Date | null;
}

/** Per-user accounts and the system accounts of docs/design/money-and-ledger.md#money-and-the-ledger. */
export type UserAccountKind = "balance" | "margin" | "wallet" | "escrow";
/** `adjustments` is the house's side of money moved by hand (docs/design/back-office-money.md). */
export type SystemAccountKind = "fees" | "external" | "adjustments";
export type LedgerAccountKind = UserAccountKind | SystemAccountKind;

export interface LedgerAccountsTable {
  account_id: Generated<number>;
  user_id: number | null;
  kind: LedgerAccountKind;
  balance: ColumnType<number, number | undefined, number>;
}

export interface JournalEntriesTable {
  entry_id: Generated<number>;
  kind: string;
  created_at: ColumnType<Date, Date, never>;
  reference: string | null;
  memo: ColumnType<Record<string, unknown>, string, never>;
}

export interface JournalLinesTable {
  line_id: Generated<number>;
  entry_id: number;
  account_id: number;
  amount: number;
}

export interface AuditEventsTable {
  event_id: Generated<number>;
  created_at: ColumnType<Date, Date, never>;
  actor: string;
  action: string;
  subject: string | null;
  details: ColumnType<Record<string, unknown>, string, never>;
  request_id: string | null;
}
export type NewAuditEvent = Insertable<AuditEventsTable>;

export interface SystemSettingsTable {
  key: string;
  value: ColumnType<unknown, string, string>;
}

/** A sticker on a weapon, as the reference's sticker entry. */
export interface StickerRow {
  sticker_id: number;
  slot: number;
  wear: number;
  category: string;
  market_hash_name: string;
  offset_x: number;
  offset_y: number;
  rotation: number;
}

export interface KeychainRow {
  keychain_id: number;
  slot: number;
  pattern: number;
  market_hash_name: string;
  offset_x: number;
  offset_y: number;
  offset_z: number;
}

export interface SandboxAssetsTable {
  assetid: number;
  platformid: string;
  goods_id: number;
  classid: string;
  instanceid: string;
  paintwear: string | null;
  paintseed: number | null;
  paintindex: number | null;
  stickers: ColumnType<StickerRow[], string, string>;
  keychains: ColumnType<KeychainRow[], string, string>;
  nametag: string | null;
  tradable_after: Date | null;
  acquired_at: Date;
  traded_to_assetid: number | null;
  traded_from_assetid: number | null;
}

export type CookieState = "valid" | "invalid" | "expired";

export interface BoundPlatformAccountsTable {
  platformid: string;
  user_id: number;
  bound_at: Date;
  trade_url: string | null;
  cookies_sealed: string | null;
  cookie_state: CookieState | null;
  cookies_checked_at: Date | null;
  api_key_sealed: string | null;
  inventory_refreshed_at: Date | null;
}

export interface PlatformInventoryItemsTable {
  platformid: string;
  assetid: number;
  goods_id: number;
  paintwear: string | null;
  has_nametag: boolean;
  tradable_after: Date | null;
  acquired_at: Date;
  asset: ColumnType<unknown, string, string>;
}

export type ListingState = "ON_SALE" | "SOLD" | "CANCELLED";

export interface ListingsTable {
  listing_id: Generated<number>;
  user_id: number;
  platformid: string;
  assetid: number;
  goods_id: number;
  price: number;
  fee: number;
  state: ListingState;
  allow_bargain: boolean;
  allow_wallet_zft: boolean;
  allow_epay: boolean;
  allow_pending_divide_balance: boolean;
  force_buyer_send_offer: boolean;
  description: string;
  paintwear: string | null;
  paintseed: number | null;
  paintindex: number | null;
  tradable_after: Date | null;
  asset: ColumnType<unknown, string, string>;
  /** A sold listing whose trade ended: it no longer commits its item (set by a trigger on trades). */
  trade_ended: Generated<boolean>;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

export type TradeState = "PAYING" | "SELLER_TO_SEND_OFFER" | "TRADING" | "SUCCESS" | "FAIL";
export type PayMethod = "balance" | "margin" | "wallet" | "bankcard";
/** Who sends a trade's offer (migration 0025). */
export type OfferSender = "seller" | "buyer";

export interface TradesTable {
  trade_id: Generated<number>;
  listing_id: number;
  buyer_id: number;
  seller_id: number;
  goods_id: number;
  assetid: number;
  seller_platformid: string;
  buyer_platformid: string;
  buyer_trade_url: string;
  price: number;
  fee: number;
  pay_method: PayMethod;
  /** Which of the buyer's accounts paid how much; `bankcard` is money from outside (a card). */
  paid_from: ColumnType<Partial<Record<UserAccountKind | "bankcard", number>>, string, string>;
  state: TradeState;
  offer_sender: ColumnType<OfferSender, OfferSender | undefined, OfferSender>;
  tradeofferid: number | null;
  rollback_by: string | null;
  received_assetid: number | null;
  asset: ColumnType<unknown, string, string>;
  deliver_by: Date | null;
  buy_order_id: ColumnType<number | null, number | null | undefined, never>;
  /** End of the platform's trade protection of a delivered trade (migration 0028). */
  protected_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** When the seller's income left their escrow for their balance; null while held. */
  released_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** How much of the price staff have refunded to the buyer (migration 0041). */
  refunded: ColumnType<number, number | undefined, number>;
  /** The part of `refunded` the seller's balance paid; the house paid the rest. */
  refunded_by_seller: ColumnType<number, number | undefined, number>;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

export type BuyOrderState = "progressing" | "success" | "failed" | "waiting";
export type BuyOrderPayMethod = "balance" | "margin";

/** One constraint of a buy order on the items it accepts (docs/design/buy-orders.md#placing-supplying-and-cancelling). */
export interface SpecificRow {
  type: "paintwear" | "paintseed" | "fade" | "phase";
  values: string[];
}

export interface BuyOrdersTable {
  buy_order_id: Generated<number>;
  user_id: number;
  goods_id: number;
  price: number;
  num: number;
  real_num: Generated<number>;
  frozen_num: Generated<number>;
  frozen_amount: Generated<number>;
  pay_method: BuyOrderPayMethod | null;
  specific: ColumnType<SpecificRow[], string, string>;
  allow_tradable_cooldown: boolean;
  platformid: string;
  trade_url: string;
  state: BuyOrderState;
  fail_reason: string | null;
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
}

/** A goods' liquidity percentile of the last 30 days, in hundredths of a percent (docs/design/market-data.md#the-market-figures-and-the-other-price-operations). */
export interface LiquidityRanksTable {
  goods_id: number;
  rank_hundredths: number;
  traded_amount: number;
  traded_quantity: number;
}

export interface LiquidityRankStateTable {
  id: ColumnType<1, 1, never>;
  computed_at: Date;
}

export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  operation_id: string;
  request_hash: string;
  state: "pending" | "done";
  status_code: number | null;
  response_body: string | null;
  created_at: Date;
  expires_at: Date;
  /** The request holding a pending key (a random claim token); null once answered. */
  owner: string | null;
  /** A pending key whose lease has passed may be taken over by a retry. */
  lease_expires_at: Date | null;
  /** Transactions committed by the key's request, each counted in its own transaction. */
  effects: Generated<number>;
}

/** What a website user bookmarked: a goods or a listing (docs/design/website-buying-routes.md#the-accounts-own-data-for-the-website-without-an-api-token). */
export type BookmarkTarget = "goods" | "sell_order";

export interface BookmarksTable {
  user_id: number;
  target_type: BookmarkTarget;
  target_id: number;
  created_at: ColumnType<Date, Date, never>;
  /** Price alerts (migration 0034): targets in fen, whether each condition held when last read. */
  alert_sell_at: Generated<number | null>;
  alert_buy_at: Generated<number | null>;
  alert_sell_reached: Generated<boolean>;
  alert_buy_reached: Generated<boolean>;
  alert_fired_at: Generated<Date | null>;
  alert_fired_price: Generated<number | null>;
}

/**
 * A change not yet in the event log: written by the triggers of migration 0020 in the transaction
 * of the change, given its event id by the sequencer (docs/design/events.md#written-by-the-changes-own-transaction).
 */
export interface EventOutboxTable {
  seq: Generated<number>;
  /** The writing transaction's id (`xid8`, as text). */
  txid: Generated<string>;
  type: string;
  user_id: number | null;
  goods_id: number | null;
  /** The changed row as the change left it (for balances: the user's balance per account kind). */
  subject: ColumnType<Record<string, unknown>, string, never>;
}

/** The event log: an account's events (`user_id`) and the market's public ones (no `user_id`). */
export interface EventsTable {
  event_id: number;
  type: string;
  user_id: number | null;
  goods_id: number | null;
  created_at: Date;
  data: ColumnType<unknown, string, never>;
}

/** The lowest ask and highest bid last announced per goods (`market.price_changed`). */
export interface MarketPriceMarksTable {
  goods_id: number;
  sell_min: number;
  buy_max: number;
}

/** A user's webhook receiver (docs/design/webhooks-and-tools.md#webhooks). */
export interface WebhookEndpointsTable {
  endpoint_id: Generated<number>;
  user_id: number;
  url: string;
  /** The event type patterns it wants (`trade.*`, `balance.changed`, `*`). */
  types: ColumnType<string[], string, string>;
  /** The signing secret, sealed with the secret box (associated data: `webhook:<endpoint_id>`). */
  secret_sealed: string;
  description: Generated<string>;
  enabled: Generated<boolean>;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  /** Until when an instance is delivering to it (the database's time). */
  lease_until: Date | null;
}

export type WebhookDeliveryState = "pending" | "delivered" | "failed";

/** One event owed to one endpoint. */
export interface WebhookDeliveriesTable {
  delivery_id: Generated<number>;
  endpoint_id: number;
  event_id: number;
  event_type: string;
  state: Generated<WebhookDeliveryState>;
  attempts: Generated<number>;
  created_at: Date;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  delivered_at: Date | null;
}

/** The sandbox platform's tables, read through this module as every other table. */
export type {
  OfferItemsFrom,
  SandboxCardsTable,
  SandboxPlatformAccountsTable,
  SandboxPlatformSessionsTable,
  SandboxSteamAuthSessionsTable,
  SandboxSteamMarketHistoryTable,
  SandboxSteamMarketPricesTable,
  SandboxSteamRefreshTokensTable,
  SandboxTradeOffersTable,
  SteamAudience,
  TradeOfferState,
};
export type { SignInMethod, StaffRole } from "./schema-back-office.ts";
