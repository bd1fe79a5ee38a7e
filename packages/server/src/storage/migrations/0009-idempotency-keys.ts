import { sql, type Kysely } from "kysely";

/**
 * The first answer to an official write sent with an `Idempotency-Key` (docs/design/wire-conventions.md#idempotent-writes),
 * per user and key, kept for 24 hours. A row is `pending` while its request runs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE idempotency_keys (
      user_id bigint NOT NULL REFERENCES users (user_id),
      key text NOT NULL,
      operation_id text NOT NULL,
      request_hash text NOT NULL,
      state text NOT NULL CHECK (state IN ('pending', 'done')),
      status_code integer,
      response_body text,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, key)
    )
  `.execute(db);
  await sql`CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE idempotency_keys`.execute(db);
}
