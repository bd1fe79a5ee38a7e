import { sql, type Kysely } from "kysely";

/**
 * Money by hand (docs/design/back-office-money.md): the house account `adjustments`, the side of
 * every balance staff credit or debit by hand. Like `external` it may go below zero: its balance is
 * minus what the house has given by hand, so the ledger's balances still sum to zero. And the
 * freezes staff put on an account's trading or withdrawals: when each began, null while none.
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
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
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
