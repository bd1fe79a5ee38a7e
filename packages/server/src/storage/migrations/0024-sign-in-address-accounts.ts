import { sql, type Kysely } from "kysely";

/**
 * The accounts that failed to sign in from each client address (docs/design/security.md#security): an
 * address's budget counts the distinct accounts tried from it in the last day, not every failure,
 * so that one person mistyping (or one attacker hammering one account, which the account's own
 * throttle stops) does not close sign-in for everyone behind a shared address. Keys are those of
 * `sign_in_failures` (the account's nickname only as a SHA-256 digest).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE sign_in_address_accounts (
    address_key text NOT NULL CHECK (length(address_key) <= 100),
    account_key text NOT NULL CHECK (length(account_key) <= 100),
    failed_at timestamptz NOT NULL,
    PRIMARY KEY (address_key, account_key)
  )`.execute(db);
  await sql`CREATE INDEX sign_in_address_accounts_failed_at_idx ON sign_in_address_accounts (failed_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE sign_in_address_accounts`.execute(db);
}
