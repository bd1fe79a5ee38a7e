import { sql, type Kysely } from "kysely";

/**
 * Money by hand (docs/design/back-office-money.md): the house account `adjustments`, the side of
 * every balance staff credit or debit by hand. Like `external` it may go below zero: its balance is
 * minus what the house has given by hand, so the ledger's balances still sum to zero. And the
 * freezes staff put on an account's trading or withdrawals: when each began, null while none. And
 * how much of each trade's price staff have refunded, and how much of that the seller paid.
 */
const STATEMENTS = [
  `ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check`,
  `ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_balance_not_negative`,
  `ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_owner`,
  `ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
     CHECK (kind IN ('balance', 'margin', 'wallet', 'escrow', 'fees', 'external', 'adjustments'))`,
  `ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_balance_not_negative
     CHECK (kind IN ('external', 'adjustments') OR balance >= 0)`,
  `ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_owner
     CHECK ((user_id IS NULL) = (kind IN ('fees', 'external', 'adjustments')))`,
  `INSERT INTO ledger_accounts (user_id, kind) VALUES (NULL, 'adjustments')`,
  `ALTER TABLE users ADD COLUMN trading_frozen_at timestamptz, ADD COLUMN withdrawals_frozen_at timestamptz`,
  `ALTER TABLE trades ADD COLUMN refunded bigint NOT NULL DEFAULT 0,
     ADD COLUMN refunded_by_seller bigint NOT NULL DEFAULT 0,
     ADD CONSTRAINT trades_refunded_within_price
       CHECK (refunded_by_seller >= 0 AND refunded_by_seller <= refunded AND refunded <= price)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE trades DROP COLUMN refunded, DROP COLUMN refunded_by_seller`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN trading_frozen_at, DROP COLUMN withdrawals_frozen_at`.execute(db);
  await sql`DELETE FROM ledger_accounts WHERE kind = 'adjustments'`.execute(db);
  await sql`ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_owner`.execute(db);
  await sql`ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_balance_not_negative`.execute(db);
  await sql`ALTER TABLE ledger_accounts DROP CONSTRAINT ledger_accounts_kind_check`.execute(db);
  await sql`ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_kind_check
    CHECK (kind IN ('balance', 'margin', 'wallet', 'escrow', 'fees', 'external'))`.execute(db);
  await sql`ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_balance_not_negative
    CHECK (kind = 'external' OR balance >= 0)`.execute(db);
  await sql`ALTER TABLE ledger_accounts ADD CONSTRAINT ledger_accounts_owner
    CHECK ((user_id IS NULL) = (kind IN ('fees', 'external')))`.execute(db);
}
