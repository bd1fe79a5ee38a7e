import { sql } from "kysely";
import type { DomainContext } from "../context.ts";

/**
 * Leases of webhook endpoints (docs/design/webhooks-and-tools.md#webhooks): an instance holds an
 * endpoint while it sends to it (`lease_until`, by the database's own time), so any number of
 * instances never POST to one endpoint at once and never send one delivery twice.
 */

/** How long an instance holds an endpoint between renewals (the database's time). */
const LEASE_SECONDS = 30;

export interface LeasedEndpoint {
  endpoint_id: number;
  user_id: number;
  url: string;
  secret_sealed: string;
  lease_until: Date;
}

/**
 * Takes up to `limit` endpoints for this instance: endpoints not held by another instance, or
 * `endpointId` alone; with `due`, only those whose oldest pending delivery is due by the
 * marketplace clock, the least recently served first (a lease ends by setting `lease_until` to
 * its end, and one never leased has none), so an endpoint that used its whole time budget goes
 * behind the others waiting. The rows are read `FOR UPDATE SKIP LOCKED`: instances taking at
 * once never take the same endpoint.
 */
export async function leaseEndpoints(
  ctx: DomainContext,
  options: { due: Date; limit: number } | { endpointId: number },
): Promise<LeasedEndpoint[]> {
  const which =
    "endpointId" in options
      ? sql`e.endpoint_id = ${options.endpointId}`
      : sql`e.enabled AND (
          SELECT d.next_attempt_at FROM webhook_deliveries d
          WHERE d.endpoint_id = e.endpoint_id AND d.state = 'pending'
          ORDER BY d.delivery_id LIMIT 1) <= ${options.due}`;
  const limit = "endpointId" in options ? 1 : options.limit;
  const leased = await sql<LeasedEndpoint>`
    UPDATE webhook_endpoints SET lease_until = date_trunc('milliseconds', now() + make_interval(secs => ${LEASE_SECONDS}))
    WHERE endpoint_id IN (
      SELECT e.endpoint_id FROM webhook_endpoints e
      WHERE e.deleted_at IS NULL AND (e.lease_until IS NULL OR e.lease_until <= now()) AND ${which}
      ORDER BY e.lease_until NULLS FIRST, e.endpoint_id LIMIT ${limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING endpoint_id, user_id, url, secret_sealed, lease_until`.execute(ctx.db);
  return leased.rows;
}

/**
 * Holds the endpoint for another lease period before an attempt, and reads its URL and secret
 * again (an update or a roll applies from the next attempt); undefined when the lease was lost or
 * the endpoint was disabled or deleted meanwhile.
 */
export async function renewLease(
  ctx: DomainContext,
  endpoint: LeasedEndpoint,
): Promise<LeasedEndpoint | undefined> {
  const renewed = await sql<LeasedEndpoint>`
    UPDATE webhook_endpoints SET lease_until = date_trunc('milliseconds', now() + make_interval(secs => ${LEASE_SECONDS}))
    WHERE endpoint_id = ${endpoint.endpoint_id} AND lease_until = ${endpoint.lease_until}
      AND enabled AND deleted_at IS NULL
    RETURNING endpoint_id, user_id, url, secret_sealed, lease_until`.execute(ctx.db);
  return renewed.rows[0];
}

/** Ends the lease now: the endpoint is free, and marked as served last. */
export async function releaseEndpoint(ctx: DomainContext, endpoint: LeasedEndpoint): Promise<void> {
  await sql`
    UPDATE webhook_endpoints SET lease_until = date_trunc('milliseconds', now())
    WHERE endpoint_id = ${endpoint.endpoint_id} AND lease_until = ${endpoint.lease_until}`.execute(ctx.db);
}
