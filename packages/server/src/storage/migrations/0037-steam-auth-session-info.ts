import { sql, type Kysely } from "kysely";

/**
 * What the mobile authenticator reads of a pending login before approving it
 * (`GetAuthSessionInfo`, docs/design/steam-face.md#login), kept on the auth session:
 * `requestor_ip`, the address that began it; `device_friendly_name`, the name the requesting
 * client gave its device; `remote_interaction_at`, when an authenticator first read it (its poll
 * answers `had_remote_interaction` from then on, as Steam's). Null on sessions begun before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sandbox_steam_auth_sessions
    ADD COLUMN requestor_ip text,
    ADD COLUMN device_friendly_name text,
    ADD COLUMN remote_interaction_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sandbox_steam_auth_sessions
    DROP COLUMN requestor_ip,
    DROP COLUMN device_friendly_name,
    DROP COLUMN remote_interaction_at`.execute(db);
}
