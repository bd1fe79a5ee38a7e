import { randomUUID } from "node:crypto";
import type { DomainContext, HeldKey } from "./context.ts";
import type { Failure } from "./result.ts";

/** How long the first answer to a write is kept and replayed (docs/design/wire-conventions.md#idempotent-writes). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/**
 * How long a pending key stays its request's without a sign of life (docs/design/recovery.md#an-idempotency-keys-life-when-its-request-dies):
 * every commit of the request and a heartbeat every third of it renew it, so only a request that
 * died (or stalled that long) loses its key to a retry, which then proceeds within this time.
 */
export const KEY_LEASE_MS = 30_000;

export type Claim =
  | { kind: "claimed"; held: HeldKey }
  | { kind: "replay"; statusCode: number; body: string }
  | { kind: "in progress" }
  | { kind: "reused" };

/**
 * The stored answer of a key whose request committed something and then failed or died: what it
 * did stands, and only its state can tell what that was. Never a 5xx, so never retried blindly.
 */
const STOPPED_FAILURE: Failure = {
  code: "Invalid State",
  message:
    "the request with this Idempotency-Key failed after committing changes, which stand: read the state (for a purchase, purchase/orders/list) before sending a new key",
};
export const STOPPED_AFTER_EFFECTS = {
  statusCode: 409,
  failure: STOPPED_FAILURE,
  /** Stored as the official failure; the route that replays it says it in its own envelope. */
  body: JSON.stringify({ code: STOPPED_FAILURE.code, msg: STOPPED_FAILURE.message }),
};

/**
 * Claims a key for a request, atomically: the first request with it inserts a `pending` row and
 * runs; a later one with the same request replays the stored answer, or learns that the first is
 * still running; one with another request has reused the key. An expired row is taken over, and
 * so is a pending one whose request stopped renewing its lease: afresh if that request committed
 * nothing, else by storing `STOPPED_AFTER_EFFECTS` as the key's answer. Each takeover is a
 * conditional update that an effect of the first request, counted on the same row, excludes.
 */
export async function claimIdempotencyKey(
  ctx: DomainContext,
  input: { userId: number; key: string; operationId: string; requestHash: string },
): Promise<Claim> {
  const now = ctx.clock.now();
  const held: HeldKey = { userId: input.userId, key: input.key, owner: randomUUID() };
  const lease = new Date(now.getTime() + KEY_LEASE_MS);
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await ctx.db
      .insertInto("idempotency_keys")
      .values({
        user_id: input.userId,
        key: input.key,
        operation_id: input.operationId,
        request_hash: input.requestHash,
        state: "pending",
        owner: held.owner,
        lease_expires_at: lease,
        created_at: now,
        expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      })
      .onConflict((conflict) => conflict.columns(["user_id", "key"]).doNothing())
      .returning("key")
      .executeTakeFirst();
    if (inserted) return { kind: "claimed", held };
    const existing = await ctx.db
      .selectFrom("idempotency_keys")
      .selectAll()
      .where("user_id", "=", input.userId)
      .where("key", "=", input.key)
      .executeTakeFirst();
    if (!existing) continue;
    if (existing.expires_at <= now) {
      await ctx.db
        .deleteFrom("idempotency_keys")
        .where("user_id", "=", input.userId)
        .where("key", "=", input.key)
        .where("expires_at", "<=", now)
        .execute();
      continue;
    }
    if (existing.request_hash !== input.requestHash || existing.operation_id !== input.operationId)
      return { kind: "reused" };
    if (existing.state === "done")
      return { kind: "replay", statusCode: existing.status_code!, body: existing.response_body! };
    if (existing.lease_expires_at! > now) return { kind: "in progress" };
    // The request holding the key stopped renewing it: it died, or stalled past its lease.
    const orphaned = ctx.db
      .updateTable("idempotency_keys")
      .where("user_id", "=", input.userId)
      .where("key", "=", input.key)
      .where("state", "=", "pending")
      .where("owner", "=", existing.owner)
      .where("lease_expires_at", "<=", now);
    if (existing.effects === 0) {
      const taken = await orphaned
        .set({ owner: held.owner, lease_expires_at: lease })
        .where("effects", "=", 0)
        .returning("key")
        .executeTakeFirst();
      if (taken) {
        ctx.log.warn(
          { key: input.key, userId: input.userId },
          "took over an idempotency key whose request stopped",
        );
        return { kind: "claimed", held };
      }
    } else {
      const answered = await orphaned
        .set({
          state: "done",
          owner: null,
          status_code: STOPPED_AFTER_EFFECTS.statusCode,
          response_body: STOPPED_AFTER_EFFECTS.body,
        })
        .returning("key")
        .executeTakeFirst();
      if (answered)
        return {
          kind: "replay",
          statusCode: STOPPED_AFTER_EFFECTS.statusCode,
          body: STOPPED_AFTER_EFFECTS.body,
        };
    }
    // Another retry, or the first request itself, changed the row meanwhile: read it again.
  }
  return { kind: "in progress" };
}

/**
 * Counts one committed transaction of the request holding a key, inside that transaction, and
 * renews its lease: false when the key is no longer this request's (a retry took it over, or it
 * was answered), and then the transaction must not commit.
 */
export async function recordKeyEffect(ctx: DomainContext, held: HeldKey): Promise<boolean> {
  const counted = await ctx.db
    .updateTable("idempotency_keys")
    .set((eb) => ({
      effects: eb("effects", "+", 1),
      lease_expires_at: new Date(ctx.clock.now().getTime() + KEY_LEASE_MS),
    }))
    .where("user_id", "=", held.userId)
    .where("key", "=", held.key)
    .where("owner", "=", held.owner)
    .where("state", "=", "pending")
    .returning("effects")
    .executeTakeFirst();
  return counted !== undefined;
}

/** Renews the lease of a held key while its request runs: false once the key is not held any more. */
export async function renewKeyLease(ctx: DomainContext, held: HeldKey): Promise<boolean> {
  const renewed = await ctx.db
    .updateTable("idempotency_keys")
    .set({ lease_expires_at: new Date(ctx.clock.now().getTime() + KEY_LEASE_MS) })
    .where("user_id", "=", held.userId)
    .where("key", "=", held.key)
    .where("owner", "=", held.owner)
    .where("state", "=", "pending")
    .returning("key")
    .executeTakeFirst();
  return renewed !== undefined;
}

/**
 * Stores the answer of a held key, to be replayed; nothing when the key is no longer this
 * request's (a retry took it over and answers for it).
 */
export async function completeIdempotencyKey(
  ctx: DomainContext,
  input: HeldKey & { statusCode: number; body: string },
): Promise<void> {
  await ctx.db
    .updateTable("idempotency_keys")
    .set({ state: "done", owner: null, status_code: input.statusCode, response_body: input.body })
    .where("user_id", "=", input.userId)
    .where("key", "=", input.key)
    .where("owner", "=", input.owner)
    .where("state", "=", "pending")
    .execute();
}

/**
 * Frees a held key whose request failed inside the service having committed nothing, so that it
 * may be retried; a key whose request committed something keeps `STOPPED_AFTER_EFFECTS` instead.
 * Both decided on the row, whose effect count is exact.
 */
export async function releaseIdempotencyKey(ctx: DomainContext, held: HeldKey): Promise<void> {
  const freed = await ctx.db
    .deleteFrom("idempotency_keys")
    .where("user_id", "=", held.userId)
    .where("key", "=", held.key)
    .where("owner", "=", held.owner)
    .where("state", "=", "pending")
    .where("effects", "=", 0)
    .returning("key")
    .executeTakeFirst();
  if (!freed)
    await completeIdempotencyKey(ctx, {
      ...held,
      statusCode: STOPPED_AFTER_EFFECTS.statusCode,
      body: STOPPED_AFTER_EFFECTS.body,
    });
}

/** The job that forgets answers older than 24 hours. */
export async function purgeIdempotencyKeys(ctx: DomainContext): Promise<number> {
  const deleted = await ctx.db
    .deleteFrom("idempotency_keys")
    .where("expires_at", "<=", ctx.clock.now())
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/** The error that rolls back a transaction of a request whose key a retry took over. */
export class IdempotencyKeyTakenOver extends Error {
  constructor() {
    super(
      "a retry took over this request's Idempotency-Key after its lease passed; the retry answers for it",
    );
  }
}
