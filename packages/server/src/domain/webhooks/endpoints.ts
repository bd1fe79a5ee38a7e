import { EVENT_TYPES, MARKET_EVENT_TYPES, unknownEventTypePattern } from "@skinmarket/contract";
import { recordAudit } from "../audit.ts";
import { toUnixSeconds } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import type { WebhookEndpointsTable } from "../../storage/schema.ts";
import type { Selectable } from "kysely";
import { checkWebhookUrl, generateWebhookSecret } from "./signing.ts";

/** Endpoints a user may have at once. */
export const MAX_ENDPOINTS_PER_USER = 20;

type EndpointRow = Selectable<WebhookEndpointsTable>;

export interface EndpointInput {
  url: string;
  types: readonly string[];
  description?: string | undefined;
}

/** The endpoint as its owner sees it: never the secret. */
export function toEndpointRecord(row: EndpointRow) {
  return {
    id: String(row.endpoint_id),
    url: row.url,
    types: row.types,
    description: row.description,
    enabled: row.enabled,
    created_at: toUnixSeconds(row.created_at),
    updated_at: toUnixSeconds(row.updated_at),
  };
}

/** The secret box's associated data for an endpoint's secret: a sealed secret copied elsewhere does not open. */
export function secretRecordId(endpointId: number): string {
  return `webhook:${endpointId}`;
}

/** Whether private receivers are allowed here (the sender's policy; none: refused). */
function allowPrivate(ctx: DomainContext): boolean {
  return ctx.webhookSender?.allowPrivate ?? false;
}

/**
 * Checks event type patterns: known types, families or `*`. Webhooks carry account events only
 * (a market event concerns everyone; the stream carries those), so market types are refused.
 */
export function checkWebhookTypes(types: readonly string[], field = "types"): Result<string[]> {
  const seen = new Set<string>();
  for (const [index, raw] of types.entries()) {
    const pattern = raw.trim();
    if (unknownEventTypePattern([pattern]) !== undefined)
      return invalidArgument(`${field}[${index}]`, `${JSON.stringify(raw)} is not an event type`);
    const market =
      (MARKET_EVENT_TYPES as readonly string[]).includes(pattern) ||
      (pattern.endsWith(".*") &&
        EVENT_TYPES.every((type) => !type.startsWith(pattern.slice(0, -1)) || type.startsWith("market.")));
    if (market)
      return invalidArgument(
        `${field}[${index}]`,
        `${JSON.stringify(raw)} is a market event; webhooks carry account events (market events are on the stream)`,
      );
    seen.add(pattern);
  }
  return ok([...seen]);
}

/** Registers an endpoint for `userId` and answers it with its secret, the only time it is shown. */
export async function createWebhookEndpoint(ctx: DomainContext, userId: number, input: EndpointInput) {
  const url = checkWebhookUrl(input.url, allowPrivate(ctx));
  if (!url.ok) return url;
  const types = checkWebhookTypes(input.types);
  if (!types.ok) return types;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const user = await tx.db
      .selectFrom("users")
      .select("user_id")
      .where("user_id", "=", userId)
      .forUpdate()
      .executeTakeFirst();
    if (!user) return fail("Not Found", `user ${userId} does not exist`);
    const count = await tx.db
      .selectFrom("webhook_endpoints")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .where("deleted_at", "is", null)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_ENDPOINTS_PER_USER)
      return fail(
        "Invalid State",
        `at most ${MAX_ENDPOINTS_PER_USER} webhook endpoints per user; delete one first`,
      );
    const now = tx.clock.now();
    const secret = generateWebhookSecret();
    const row = await tx.db
      .insertInto("webhook_endpoints")
      .values({
        user_id: userId,
        url: url.value,
        types: JSON.stringify(types.value),
        secret_sealed: "",
        description: input.description ?? "",
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await tx.db
      .updateTable("webhook_endpoints")
      .set({ secret_sealed: tx.secretBox.seal(secret, secretRecordId(row.endpoint_id)) })
      .where("endpoint_id", "=", row.endpoint_id)
      .execute();
    await recordAudit(tx, {
      action: "webhook.endpoint.create",
      subject: String(row.endpoint_id),
      details: { user_id: userId, url: url.value, types: types.value },
    });
    return ok({ ...toEndpointRecord(row), secret });
  });
}

/** A user's endpoints, oldest first. */
export async function listWebhookEndpoints(ctx: DomainContext, userId: number) {
  const rows = await ctx.db
    .selectFrom("webhook_endpoints")
    .selectAll()
    .where("user_id", "=", userId)
    .where("deleted_at", "is", null)
    .orderBy("endpoint_id")
    .execute();
  return ok({ items: rows.map(toEndpointRecord) });
}

/** One endpoint of `userId`; another user's, a deleted or an unknown one are the same `Not Found`. */
export async function findEndpoint(
  ctx: DomainContext,
  userId: number,
  endpointId: number,
  options: { forUpdate?: boolean } = {},
): Promise<Result<EndpointRow>> {
  let query = ctx.db
    .selectFrom("webhook_endpoints")
    .selectAll()
    .where("endpoint_id", "=", endpointId)
    .where("user_id", "=", userId)
    .where("deleted_at", "is", null);
  if (options.forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? ok(row) : fail("Not Found", `no webhook endpoint of yours with id ${endpointId}`);
}

export async function getWebhookEndpoint(ctx: DomainContext, userId: number, endpointId: number) {
  const row = await findEndpoint(ctx, userId, endpointId);
  return row.ok ? ok(toEndpointRecord(row.value)) : row;
}

export async function updateWebhookEndpoint(
  ctx: DomainContext,
  userId: number,
  endpointId: number,
  input: { url?: string; types?: readonly string[]; description?: string; enabled?: boolean },
) {
  const url = input.url === undefined ? undefined : checkWebhookUrl(input.url, allowPrivate(ctx));
  if (url && !url.ok) return url;
  const types = input.types === undefined ? undefined : checkWebhookTypes(input.types);
  if (types && !types.ok) return types;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const found = await findEndpoint(tx, userId, endpointId, { forUpdate: true });
    if (!found.ok) return found;
    const row = await tx.db
      .updateTable("webhook_endpoints")
      .set({
        ...(url ? { url: url.value } : {}),
        ...(types ? { types: JSON.stringify(types.value) } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
        updated_at: tx.clock.now(),
      })
      .where("endpoint_id", "=", endpointId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(tx, {
      action: "webhook.endpoint.update",
      subject: String(endpointId),
      details: { url: row.url, types: row.types, enabled: row.enabled },
    });
    return ok(toEndpointRecord(row));
  });
}

/** Deletes an endpoint; its pending deliveries end as failed (`endpoint deleted`). */
export async function deleteWebhookEndpoint(ctx: DomainContext, userId: number, endpointId: number) {
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const found = await findEndpoint(tx, userId, endpointId, { forUpdate: true });
    if (!found.ok) return found;
    const now = tx.clock.now();
    await tx.db
      .updateTable("webhook_endpoints")
      .set({ deleted_at: now, enabled: false, updated_at: now })
      .where("endpoint_id", "=", endpointId)
      .execute();
    await tx.db
      .updateTable("webhook_deliveries")
      .set({ state: "failed", next_attempt_at: null, last_error: "endpoint deleted" })
      .where("endpoint_id", "=", endpointId)
      .where("state", "=", "pending")
      .execute();
    await recordAudit(tx, { action: "webhook.endpoint.delete", subject: String(endpointId) });
    return ok({ id: String(endpointId), deleted: true as const });
  });
}

/** Replaces the signing secret; the new one signs every delivery from the commit on. */
export async function rollWebhookSecret(ctx: DomainContext, userId: number, endpointId: number) {
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const found = await findEndpoint(tx, userId, endpointId, { forUpdate: true });
    if (!found.ok) return found;
    const secret = generateWebhookSecret();
    const row = await tx.db
      .updateTable("webhook_endpoints")
      .set({
        secret_sealed: tx.secretBox.seal(secret, secretRecordId(endpointId)),
        updated_at: tx.clock.now(),
      })
      .where("endpoint_id", "=", endpointId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(tx, { action: "webhook.secret.roll", subject: String(endpointId) });
    return ok({ ...toEndpointRecord(row), secret });
  });
}
