import { sql, type Kysely } from "kysely";

/**
 * The sign-in throttle (docs/design/security.md#security): failed sign-ins counted per account and per
 * client address, shared by every instance on the database. `throttle_key` is
 * `account:<SHA-256 of the nickname as looked up>` (tried nicknames are not kept in the clear: a
 * password typed into the nickname field would be) or `address:<client address>`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE sign_in_failures (
    throttle_key text PRIMARY KEY CHECK (length(throttle_key) <= 100),
    failures integer NOT NULL CHECK (failures >= 0),
    last_failure_at timestamptz NOT NULL,
    held_until timestamptz
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE sign_in_failures`.execute(db);
}
