import type { ColumnType, Generated, Insertable, Selectable } from "kysely";

/**
 * The database as Kysely sees it. BIGINT columns arrive as JS numbers on both drivers (see
 * `type-parsers.ts`), NUMERIC as decimal strings, TIMESTAMPTZ as `Date`.
 */
export interface Database {
  goods: GoodsTable;
  catalog_state: CatalogStateTable;
  users: UsersTable;
  api_tokens: ApiTokensTable;
  web_sessions: WebSessionsTable;
  ledger_accounts: LedgerAccountsTable;
  journal_entries: JournalEntriesTable;
  journal_lines: JournalLinesTable;
  audit_events: AuditEventsTable;
  system_settings: SystemSettingsTable;
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
  created_at: ColumnType<Date, Date, never>;
  updated_at: Date;
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

export interface WebSessionsTable {
  session_id: Generated<number>;
  user_id: number;
  session_hash: string;
  created_at: ColumnType<Date, Date, never>;
  expires_at: Date;
  revoked_at: Date | null;
}

/** Per-user accounts and the system accounts of docs/design.md section 5. */
export type UserAccountKind = "balance" | "margin" | "wallet" | "escrow";
export type SystemAccountKind = "fees" | "external";
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
