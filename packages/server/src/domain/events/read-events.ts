import { unknownEventTypePattern, type EventType, type MarketplaceEvent } from "@skinmarket/contract";
import { sql, type SelectQueryBuilder } from "kysely";
import type { DomainContext } from "../context.ts";
import { toUnixSeconds } from "../clock.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import type { Database } from "../../storage/schema.ts";
import { requireUser } from "../users/require-user.ts";
import type { EventLog } from "./event-log.ts";
import type { StoredEvent } from "./sequence-events.ts";

/** An event as every channel delivers it. */
export function toWireEvent(event: StoredEvent): MarketplaceEvent {
  return {
    id: String(event.event_id),
    type: event.type as EventType,
    created_at: toUnixSeconds(event.created_at),
    goods_id: event.goods_id,
    data: event.data,
  };
}

/** Splits and checks a comma-separated type filter; the failure names `field`. */
export function parseEventTypes(text: string | undefined, field: string): Result<string[] | undefined> {
  if (text === undefined) return ok(undefined);
  const patterns = text
    .split(",")
    .map((pattern) => pattern.trim())
    .filter((pattern) => pattern.length > 0);
  const unknown = unknownEventTypePattern(patterns);
  if (unknown !== undefined) return invalidArgument(field, `${JSON.stringify(unknown)} is not an event type`);
  return ok(patterns.length > 0 ? patterns : undefined);
}

/** Keeps the events whose type matches `patterns` (exact types, `family.*`, `*`), in SQL. */
export function whereTypes<Output>(
  query: SelectQueryBuilder<Database, "events", Output>,
  patterns: readonly string[] | undefined,
): SelectQueryBuilder<Database, "events", Output> {
  if (!patterns || patterns.includes("*")) return query;
  const exact = patterns.filter((pattern) => !pattern.endsWith(".*"));
  const prefixes = patterns
    .filter((pattern) => pattern.endsWith(".*"))
    .map((pattern) => pattern.slice(0, -1));
  return query.where((eb) =>
    eb.or([
      ...(exact.length > 0 ? [eb("type", "in", exact)] : []),
      ...prefixes.map((prefix) => eb("type", "like", `${prefix.replace(/[\\%_]/g, "\\$&")}%`)),
    ]),
  );
}

/**
 * The caller's account events after `after`, oldest first (GET /api/market/developer/events).
 * What committed before the request is in the answer: the sequencer runs first.
 */
export async function listEvents(
  ctx: DomainContext,
  query: { after?: string; types?: string; limit: number },
  eventLog: EventLog | undefined,
) {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  return eventsPage(ctx, ctx.actor.userId, query, eventLog);
}

/**
 * A user's account events read by the sandbox admin (the console's event log), the same page
 * `listEvents` answers the user: the console reads them without an API token of the user's, so
 * looking never creates one (docs/design/website-console.md#the-consoles-events-and-webhooks).
 */
export async function listUserEvents(
  ctx: DomainContext,
  userId: number,
  query: { after?: string; types?: string; limit: number },
  eventLog: EventLog | undefined,
) {
  if (ctx.actor.kind !== "admin")
    return fail("Access Denied", "only the sandbox admin reads a user's events");
  const user = await requireUser(ctx, userId);
  if (!user.ok) return user;
  return eventsPage(ctx, userId, query, eventLog);
}

async function eventsPage(
  ctx: DomainContext,
  userId: number,
  query: { after?: string; types?: string; limit: number },
  eventLog: EventLog | undefined,
) {
  const types = parseEventTypes(query.types, "types");
  if (!types.ok) return types;
  await eventLog?.catchUp();
  const rows = await readEventsAfter(ctx, {
    userId,
    after: Number(query.after ?? 0),
    types: types.value,
    limit: query.limit + 1,
  });
  return ok({ items: rows.slice(0, query.limit).map(toWireEvent), has_more: rows.length > query.limit });
}

/**
 * Events after an id, oldest first: an account's (`userId`), or the market's (`userId` null, of
 * `goodsIds` when given). Index-backed by `events_of_user`, `events_public` and `events_public_goods`.
 */
export async function readEventsAfter(
  ctx: DomainContext,
  options: {
    userId: number | null;
    after: number;
    types?: readonly string[] | undefined;
    goodsIds?: readonly number[] | undefined;
    limit: number;
  },
): Promise<StoredEvent[]> {
  let query = ctx.db
    .selectFrom("events")
    .selectAll()
    .where("event_id", ">", options.after)
    .orderBy("event_id")
    .limit(options.limit);
  query =
    options.userId === null
      ? query.where("user_id", "is", null)
      : query.where("user_id", "=", options.userId);
  // A set to join, not `= ANY(array)`, as elsewhere (`get-on-sale.ts`).
  if (options.goodsIds)
    query = query.where(sql<boolean>`goods_id IN (SELECT unnest(${[...options.goodsIds]}::integer[]))`);
  return (await whereTypes(query, options.types).execute()) as StoredEvent[];
}

/**
 * Deletes events older than `EVENT_RETENTION_DAYS` by the marketplace clock, and finished webhook
 * deliveries as old, a batch at a time (a job, under its lock): the log is a window, not an archive
 * (docs/design/webhooks-and-tools.md#webhook-signature).
 */
export async function purgeOldEvents(ctx: DomainContext): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - ctx.rules.eventRetentionDays * 24 * 3600 * 1000);
  const purged = await sql<{ event_id: number }>`
    DELETE FROM events WHERE event_id IN (
      SELECT event_id FROM events WHERE created_at < ${before} ORDER BY event_id LIMIT 10000)
    RETURNING event_id`.execute(ctx.db);
  // Finished webhook deliveries go with the window too (pending ones stay: they fail on their own).
  await sql`
    DELETE FROM webhook_deliveries WHERE delivery_id IN (
      SELECT delivery_id FROM webhook_deliveries
      WHERE created_at < ${before} AND state <> 'pending' ORDER BY delivery_id LIMIT 10000)`.execute(ctx.db);
  return purged.rows.length;
}
