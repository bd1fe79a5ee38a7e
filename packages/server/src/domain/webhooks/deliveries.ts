import { toUnixSeconds } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import { toWireEvent } from "../events/read-events.ts";
import type { StoredEvent } from "../events/sequence-events.ts";
import { fail, ok, type Result } from "../result.ts";
import type { Selectable } from "kysely";
import type { WebhookDeliveriesTable, WebhookDeliveryState } from "../../storage/schema.ts";
import { leaseEndpoints, releaseEndpoint, renewLease, type LeasedEndpoint } from "./endpoint-leases.ts";
import { findEndpoint, secretRecordId } from "./endpoints.ts";
import { EVENT_ID_HEADER, SIGNATURE_HEADER, signatureHeader, TEST_HEADER } from "./signing.ts";
import type { AttemptOutcome, WebhookSender } from "../webhook-sender.ts";

type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** Deliveries are retried for at least this long (marketplace clock) before they are failed. */
export const RETRY_PERIOD_MS = 3 * 24 * 3600 * 1000;
/** The first retry waits a minute, each next one twice as long, at most 6 hours, give or take a fifth. */
const FIRST_RETRY_MS = 60_000;
const MAX_RETRY_MS = 6 * 3600 * 1000;

/** The wait before the retry after `attempts` failed attempts, with ±20 % jitter. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
  return Math.round(base * (0.8 + 0.4 * random()));
}

export function toDeliveryRecord(row: DeliveryRow) {
  const seconds = (date: Date | null) => (date === null ? null : toUnixSeconds(date));
  return {
    id: String(row.delivery_id),
    endpoint_id: String(row.endpoint_id),
    event_id: String(row.event_id),
    event_type: row.event_type,
    state: row.state,
    attempts: row.attempts,
    created_at: toUnixSeconds(row.created_at),
    next_attempt_at: row.state === "pending" ? seconds(row.next_attempt_at) : null,
    last_attempt_at: seconds(row.last_attempt_at),
    last_status: row.last_status,
    last_error: row.last_error,
    last_duration_ms: row.last_duration_ms,
    delivered_at: seconds(row.delivered_at),
  };
}

/** A page of an endpoint's deliveries, newest first. */
export async function listWebhookDeliveries(
  ctx: DomainContext,
  userId: number,
  endpointId: number,
  query: { page_num: number; page_size: number; state?: WebhookDeliveryState | undefined },
) {
  const endpoint = await findEndpoint(ctx, userId, endpointId);
  if (!endpoint.ok) return endpoint;
  let base = ctx.db.selectFrom("webhook_deliveries").where("endpoint_id", "=", endpointId);
  if (query.state) base = base.where("state", "=", query.state);
  const [rows, total] = await Promise.all([
    base
      .selectAll()
      .orderBy("delivery_id", "desc")
      .limit(query.page_size)
      .offset((query.page_num - 1) * query.page_size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return ok({
    items: rows.map(toDeliveryRecord),
    page_num: query.page_num,
    page_size: query.page_size,
    total_count: Number(total.n),
  });
}

/** Sends one event, signed with the endpoint's secret (`test`: marked as a test event). */
async function attempt(
  ctx: DomainContext,
  sender: WebhookSender,
  endpoint: LeasedEndpoint,
  body: string,
  eventId: string,
  extraHeaders: Record<string, string> = {},
): Promise<AttemptOutcome> {
  const secret = ctx.secretBox.open(endpoint.secret_sealed, secretRecordId(endpoint.endpoint_id));
  if (secret === undefined)
    return {
      delivered: false,
      status: null,
      error: "the signing secret cannot be opened with this server's SECRET_KEY; roll the secret",
      durationMs: 0,
    };
  // The receiver checks `t` against its own clock: real time, not the marketplace's (which the
  // sandbox moves).
  const timestamp = Math.floor(Date.now() / 1000);
  return sender.send({
    url: endpoint.url,
    body,
    headers: {
      "content-type": "application/json",
      "user-agent": "skinmarket-webhooks/1",
      [EVENT_ID_HEADER]: eventId,
      [SIGNATURE_HEADER]: signatureHeader(secret, body, timestamp),
      ...extraHeaders,
    },
  });
}

async function readEvent(ctx: DomainContext, eventId: number): Promise<StoredEvent | undefined> {
  return (await ctx.db
    .selectFrom("events")
    .selectAll()
    .where("event_id", "=", eventId)
    .executeTakeFirst()) as StoredEvent | undefined;
}

/** Records an attempt on a delivery; `schedule`: a failure retries later, or fails it once the retry period is over. */
async function recordAttempt(
  ctx: DomainContext,
  delivery: DeliveryRow,
  outcome: AttemptOutcome,
  schedule: boolean,
): Promise<DeliveryRow | undefined> {
  const now = ctx.clock.now();
  const attempts = delivery.attempts + 1;
  const retryOver = now.getTime() - delivery.created_at.getTime() >= RETRY_PERIOD_MS;
  const next = outcome.delivered
    ? { state: "delivered" as const, delivered_at: now, next_attempt_at: null }
    : !schedule
      ? {}
      : retryOver
        ? { state: "failed" as const, next_attempt_at: null }
        : { next_attempt_at: new Date(now.getTime() + retryDelayMs(attempts)) };
  return ctx.db
    .updateTable("webhook_deliveries")
    .set((eb) => ({
      ...next,
      attempts: eb("attempts", "+", 1),
      last_attempt_at: now,
      last_status: outcome.status,
      last_error: outcome.error === null ? null : outcome.error.slice(0, 500),
      last_duration_ms: Math.round(outcome.durationMs),
    }))
    .where("delivery_id", "=", delivery.delivery_id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Sends a leased endpoint's due deliveries in order, for one lease of the delivery pool: its
 * oldest pending delivery, and the next ones while they succeed, until `budgetMs` is spent (each
 * lease makes at least one attempt; an attempt under way is finished); the rest wait for the
 * endpoint's next lease, behind the other endpoints waiting. A failure leaves the later
 * deliveries waiting behind it until it is delivered or failed. Releases the lease; answers the
 * number of attempts made.
 */
export async function drainEndpoint(
  ctx: DomainContext,
  sender: WebhookSender,
  leased: LeasedEndpoint,
  options: { budgetMs: number; stopped: () => boolean },
): Promise<number> {
  const started = performance.now();
  let made = 0;
  let endpoint = leased;
  try {
    // A stopping server finishes the attempt under way, not the endpoint's whole queue.
    while (!options.stopped() && (made === 0 || performance.now() - started < options.budgetMs)) {
      const head = await ctx.db
        .selectFrom("webhook_deliveries")
        .selectAll()
        .where("endpoint_id", "=", endpoint.endpoint_id)
        .where("state", "=", "pending")
        .orderBy("delivery_id")
        .limit(1)
        .executeTakeFirst();
      if (!head || head.next_attempt_at === null || head.next_attempt_at > ctx.clock.now()) return made;
      const event = await readEvent(ctx, head.event_id);
      if (!event) {
        await ctx.db
          .updateTable("webhook_deliveries")
          .set({ state: "failed", next_attempt_at: null, last_error: "the event is no longer kept" })
          .where("delivery_id", "=", head.delivery_id)
          .execute();
        continue;
      }
      const renewed = await renewLease(ctx, endpoint);
      if (!renewed) return made;
      endpoint = renewed;
      const outcome = await attempt(
        ctx,
        sender,
        endpoint,
        JSON.stringify(toWireEvent(event)),
        String(event.event_id),
      );
      made += 1;
      const recorded = await recordAttempt(ctx, head, outcome, true);
      if (!outcome.delivered) {
        ctx.log.warn(
          {
            endpoint_id: endpoint.endpoint_id,
            delivery_id: head.delivery_id,
            event_id: head.event_id,
            status: outcome.status,
            error: outcome.error,
            attempts: recorded?.attempts,
            state: recorded?.state,
          },
          "webhook delivery failed",
        );
        if (recorded?.state !== "failed") return made;
      }
    }
    return made;
  } finally {
    await releaseEndpoint(ctx, endpoint);
  }
}

/**
 * Sends a delivery's event again now, whatever its state (POST .../redeliver). A success marks it
 * delivered; a failure leaves its state and schedule alone. `Invalid State` while another attempt
 * to the endpoint is under way.
 */
export async function redeliverWebhook(
  ctx: DomainContext,
  userId: number,
  endpointId: number,
  deliveryId: number,
): Promise<Result<{ attempt: AttemptRecord; delivery: ReturnType<typeof toDeliveryRecord> }>> {
  const sender = ctx.webhookSender;
  if (!sender) return fail("Invalid State", "webhook deliveries are not sent by this server");
  const found = await findEndpoint(ctx, userId, endpointId);
  if (!found.ok) return found;
  const delivery = await ctx.db
    .selectFrom("webhook_deliveries")
    .selectAll()
    .where("delivery_id", "=", deliveryId)
    .where("endpoint_id", "=", endpointId)
    .executeTakeFirst();
  if (!delivery) return fail("Not Found", `no delivery with id ${deliveryId} to this endpoint`);
  const event = await readEvent(ctx, delivery.event_id);
  if (!event) return fail("Invalid State", `event ${delivery.event_id} is no longer kept`);
  const [endpoint] = await leaseEndpoints(ctx, { endpointId });
  if (!endpoint)
    return fail("Invalid State", "another attempt to this endpoint is under way; try again shortly");
  try {
    const outcome = await attempt(
      ctx,
      sender,
      endpoint,
      JSON.stringify(toWireEvent(event)),
      String(event.event_id),
    );
    if (!outcome.delivered)
      ctx.log.warn(
        { endpoint_id: endpointId, delivery_id: deliveryId, status: outcome.status, error: outcome.error },
        "webhook redelivery failed",
      );
    const recorded = (await recordAttempt(ctx, delivery, outcome, false)) ?? delivery;
    return ok({ attempt: toAttemptRecord(outcome), delivery: toDeliveryRecord(recorded) });
  } finally {
    await releaseEndpoint(ctx, endpoint);
  }
}

export interface AttemptRecord {
  delivered: boolean;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export function toAttemptRecord(outcome: AttemptOutcome): AttemptRecord {
  return {
    delivered: outcome.delivered,
    status: outcome.status,
    error: outcome.error,
    duration_ms: Math.round(outcome.durationMs),
  };
}

/**
 * Sends a synthetic event to an endpoint now (the sandbox's test event): signed as every
 * delivery, marked with `Skinmarket-Test: true` and id `0`, not recorded.
 */
export async function sendTestWebhook(
  ctx: DomainContext,
  endpointId: number,
  event: ReturnType<typeof toWireEvent>,
): Promise<Result<{ attempt: AttemptRecord }>> {
  const sender = ctx.webhookSender;
  if (!sender) return fail("Invalid State", "webhook deliveries are not sent by this server");
  const row = await ctx.db
    .selectFrom("webhook_endpoints")
    .select("endpoint_id")
    .where("endpoint_id", "=", endpointId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  if (!row) return fail("Not Found", `no webhook endpoint with id ${endpointId}`);
  const [endpoint] = await leaseEndpoints(ctx, { endpointId });
  if (!endpoint)
    return fail("Invalid State", "another attempt to this endpoint is under way; try again shortly");
  try {
    const outcome = await attempt(ctx, sender, endpoint, JSON.stringify(event), event.id, {
      [TEST_HEADER]: "true",
    });
    return ok({ attempt: toAttemptRecord(outcome) });
  } finally {
    await releaseEndpoint(ctx, endpoint);
  }
}
