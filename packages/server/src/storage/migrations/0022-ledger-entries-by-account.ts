import { sql, type Kysely } from "kysely";

/**
 * An account's ledger lines in entry order, with their amounts (docs/design/money-and-ledger.md#money-and-the-ledger): the
 * movements of one user's money, newest first, and each balance after a movement (the balance now
 * less the lines after it) read from the index alone. It serves every lookup of lines by account
 * the old single-column index did.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX journal_lines_account_entry_idx ON journal_lines (account_id, entry_id)
    INCLUDE (amount)`.execute(db);
  await sql`DROP INDEX journal_lines_account_idx`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX journal_lines_account_idx ON journal_lines (account_id)`.execute(db);
  await sql`DROP INDEX journal_lines_account_entry_idx`.execute(db);
}
