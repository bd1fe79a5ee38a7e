import { sql, type Kysely } from "kysely";

/**
 * "Sign in through Steam" (docs/design/security.md#sign-in-through-steam): each OpenID response
 * nonce signs in once, on every instance sharing the database. Rows older than the nonce's
 * allowed skew are useless (such a nonce is refused by its time) and are deleted as new ones come.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE steam_openid_nonces (
    nonce text PRIMARY KEY CHECK (length(nonce) <= 255),
    used_at timestamptz NOT NULL
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE steam_openid_nonces`.execute(db);
}
