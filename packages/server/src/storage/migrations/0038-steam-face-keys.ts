import { sql, type Kysely } from "kysely";

/**
 * The Steam face's keys, one of each per database (docs/design/steam-face.md#keys-shared-by-every-instance):
 * `password_rsa`, the RSA key GetPasswordRSAPublicKey hands out, and `openid_hmac`, the secret
 * OpenID assertions are signed with, each sealed with the secret box; made by whichever instance
 * first needs it, so that a login or a sign-in begun on one instance finishes on any other.
 * `sandbox_steam_openid_vouched_nonces`: the nonces `check_authentication` has vouched for, once
 * on every instance; rows older than an hour are deleted as new ones come.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE sandbox_steam_face_keys (
    name text PRIMARY KEY CHECK (name IN ('password_rsa', 'openid_hmac')),
    sealed text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`CREATE TABLE sandbox_steam_openid_vouched_nonces (
    nonce text PRIMARY KEY CHECK (length(nonce) <= 255),
    vouched_at timestamptz NOT NULL
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE sandbox_steam_openid_vouched_nonces`.execute(db);
  await sql`DROP TABLE sandbox_steam_face_keys`.execute(db);
}
