import { sql, type Kysely } from "kysely";

/**
 * Webhooks (docs/design/webhooks-and-tools.md#webhooks). An endpoint is a user's receiver URL with the
 * event types it wants and a signing secret, sealed at rest like the platform cookies. A delivery
 * is one event owed to one endpoint: the sequencer writes it in the transaction that gives the
 * event its id, so every committed event of a user is a delivery owed to each matching endpoint.
 * Deliveries of an endpoint go out in id order; `lease_until` marks the endpoint an instance is
 * delivering to (by the database's own time), so no two deliver to it at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE webhook_endpoints (
    endpoint_id bigserial PRIMARY KEY,
    user_id integer NOT NULL REFERENCES users (user_id),
    url text NOT NULL,
    types jsonb NOT NULL,
    secret_sealed text NOT NULL,
    description text NOT NULL DEFAULT '',
    enabled boolean NOT NULL DEFAULT true,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    deleted_at timestamptz,
    lease_until timestamptz
  )`.execute(db);
  await sql`CREATE INDEX webhook_endpoints_of_user ON webhook_endpoints (user_id, endpoint_id)
    WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE TABLE webhook_deliveries (
    delivery_id bigserial PRIMARY KEY,
    endpoint_id bigint NOT NULL REFERENCES webhook_endpoints (endpoint_id),
    event_id bigint NOT NULL,
    event_type text NOT NULL,
    state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL,
    next_attempt_at timestamptz,
    last_attempt_at timestamptz,
    last_status integer,
    last_error text,
    last_duration_ms integer,
    delivered_at timestamptz
  )`.execute(db);
  // An endpoint's deliveries newest first (the listing), and its pending ones oldest first (the head).
  await sql`CREATE INDEX webhook_deliveries_of_endpoint ON webhook_deliveries (endpoint_id, delivery_id)`.execute(
    db,
  );
  await sql`CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, delivery_id)
    WHERE state = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE webhook_deliveries, webhook_endpoints`.execute(db);
}
