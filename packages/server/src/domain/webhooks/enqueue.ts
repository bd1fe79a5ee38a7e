import { eventTypeMatches } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import type { StoredEvent } from "../events/sequence-events.ts";

/**
 * Writes the deliveries the new `events` owe: for each account event, one per enabled endpoint of
 * its user whose types match. Runs in the sequencer's transaction, after the events got their ids
 * (docs/design/webhooks-and-tools.md#webhooks): an event that commits is a delivery owed, and one that
 * rolls back owes none. Market events are not delivered by webhooks.
 */
export async function enqueueWebhookDeliveries(
  tx: DomainContext,
  events: readonly StoredEvent[],
): Promise<number> {
  const userIds = [...new Set(events.flatMap((event) => (event.user_id === null ? [] : [event.user_id])))];
  if (userIds.length === 0) return 0;
  const endpoints = await tx.db
    .selectFrom("webhook_endpoints")
    .select(["endpoint_id", "user_id", "types"])
    .where("user_id", "in", userIds)
    .where("deleted_at", "is", null)
    .where("enabled", "=", true)
    .orderBy("endpoint_id")
    .execute();
  if (endpoints.length === 0) return 0;
  const now = tx.clock.now();
  // In event order, so that an endpoint's deliveries are numbered in the order of its events.
  const rows = events.flatMap((event) =>
    endpoints
      .filter(
        (endpoint) => endpoint.user_id === event.user_id && eventTypeMatches(event.type, endpoint.types),
      )
      .map((endpoint) => ({
        endpoint_id: endpoint.endpoint_id,
        event_id: event.event_id,
        event_type: event.type,
        created_at: now,
        next_attempt_at: now,
      })),
  );
  // Five parameters a row: thousands of rows stay under the 65,535 of one statement.
  for (let start = 0; start < rows.length; start += 5000)
    await tx.db
      .insertInto("webhook_deliveries")
      .values(rows.slice(start, start + 5000))
      .execute();
  return rows.length;
}
