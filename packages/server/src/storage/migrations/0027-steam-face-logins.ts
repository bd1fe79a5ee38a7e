import { sql, type Kysely } from "kysely";

/**
 * The Steam face's logins (docs/design/steam-face.md#login):
 * - `sandbox_platform_accounts.steam_secrets`: the secrets a real bot holds for the account
 *   (password, `shared_secret`, `identity_secret`), sealed as one JSON value with the secret box
 *   (associated data: platformid + `:steam`); null until the sandbox admin first asks for them.
 * - `sandbox_steam_auth_sessions`: credential logins under way (BeginAuthSessionViaCredentials
 *   to PollAuthSessionStatus): the password was right; `guard_passed_at` once the Steam Guard
 *   code was.
 * - `sandbox_steam_refresh_tokens`: refresh tokens issued (their digests), which derive access
 *   tokens and web cookies until they expire. Access tokens are sessions of
 *   `sandbox_platform_sessions`, so the cookie built from one is a session the marketplace accepts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sandbox_platform_accounts ADD COLUMN steam_secrets text`.execute(db);
  await sql`CREATE TABLE sandbox_steam_auth_sessions (
      client_id text PRIMARY KEY,
      request_id text NOT NULL,
      platformid text NOT NULL REFERENCES sandbox_platform_accounts (platformid),
      audience text NOT NULL CHECK (audience IN ('web', 'mobile', 'client')),
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      guard_passed_at timestamptz,
      refresh_token_issued_at timestamptz
    )`.execute(db);
  await sql`CREATE TABLE sandbox_steam_refresh_tokens (
      token_hash text PRIMARY KEY,
      platformid text NOT NULL REFERENCES sandbox_platform_accounts (platformid),
      audience text NOT NULL CHECK (audience IN ('web', 'mobile', 'client')),
      issued_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE sandbox_steam_refresh_tokens`.execute(db);
  await sql`DROP TABLE sandbox_steam_auth_sessions`.execute(db);
  await sql`ALTER TABLE sandbox_platform_accounts DROP COLUMN steam_secrets`.execute(db);
}
