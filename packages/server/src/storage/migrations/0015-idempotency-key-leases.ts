import { sql, type Kysely } from "kysely";

/**
 * A pending idempotency key is held by its running request under a lease (docs/design/recovery.md#an-idempotency-keys-life-when-its-request-dies): `owner` names the request holding it,
 * `lease_expires_at` is when a retry may take it over unless the request renews it, and `effects`
 * counts the transactions its request committed, each in that transaction. A key whose request
 * died with no effect is taken over by a retry; one with effects gets an answer saying so.
 *
 * Keys left pending by the earlier code counted no effects, so nobody can tell whether their
 * request changed anything: they are answered as possibly having done so.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE idempotency_keys
      ADD COLUMN owner text,
      ADD COLUMN lease_expires_at timestamptz,
      ADD COLUMN effects integer NOT NULL DEFAULT 0 CHECK (effects >= 0)
  `.execute(db);
  await sql`
    UPDATE idempotency_keys SET state = 'done', status_code = 409, response_body = ${JSON.stringify({
      code: "Invalid State",
      msg: "a request with this Idempotency-Key stopped before its answer was stored, and may have changed something: read the state before sending a new key",
    })}
    WHERE state = 'pending'
  `.execute(db);
  await sql`
    ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_pending_held
      CHECK (state = 'done' OR (owner IS NOT NULL AND lease_expires_at IS NOT NULL))
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE idempotency_keys
      DROP CONSTRAINT idempotency_keys_pending_held,
      DROP COLUMN owner,
      DROP COLUMN lease_expires_at,
      DROP COLUMN effects
  `.execute(db);
}
