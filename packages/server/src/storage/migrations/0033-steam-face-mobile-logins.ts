import { sql, type Kysely } from "kysely";

/**
 * The Steam face's QR login and mobile confirmations (docs/design/steam-face.md#login):
 * - `sandbox_steam_auth_sessions.platformid` may be null: a QR login (BeginAuthSessionViaQR)
 *   belongs to no account until the account's mobile authenticator approves it.
 * - `guard_passed_by`: how the session passed, `code` (a Steam Guard code) or `mobile` (the
 *   authenticator's confirmation, which the poll reports as `had_remote_interaction`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sandbox_steam_auth_sessions ALTER COLUMN platformid DROP NOT NULL`.execute(db);
  await sql`ALTER TABLE sandbox_steam_auth_sessions
    ADD COLUMN guard_passed_by text CHECK (guard_passed_by IN ('code', 'mobile'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sandbox_steam_auth_sessions DROP COLUMN guard_passed_by`.execute(db);
  await sql`DELETE FROM sandbox_steam_auth_sessions WHERE platformid IS NULL`.execute(db);
  await sql`ALTER TABLE sandbox_steam_auth_sessions ALTER COLUMN platformid SET NOT NULL`.execute(db);
}
