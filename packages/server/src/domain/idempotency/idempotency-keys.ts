import type { DomainContext } from "../context.ts";

/** How long the first answer to a write is kept and replayed (docs/design.md section 7). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

export type Claim =
  | { kind: "claimed" }
  | { kind: "replay"; statusCode: number; body: string }
  | { kind: "in progress" }
  | { kind: "reused" };

/**
 * Claims a key for a request, atomically: the first request with it inserts a `pending` row and
 * runs; a later one with the same request replays the stored answer, or learns that the first is
 * still running; one with another request has reused the key. An expired row is taken over.
 */
export async function claimIdempotencyKey(
  ctx: DomainContext,
  input: { userId: number; key: string; operationId: string; requestHash: string },
): Promise<Claim> {
  const now = ctx.clock.now();
  for (let attempt = 0; attempt < 2; attempt++) {
    const inserted = await ctx.db
      .insertInto("idempotency_keys")
      .values({
        user_id: input.userId,
        key: input.key,
        operation_id: input.operationId,
        request_hash: input.requestHash,
        state: "pending",
        created_at: now,
        expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      })
      .onConflict((conflict) => conflict.columns(["user_id", "key"]).doNothing())
      .returning("key")
      .executeTakeFirst();
    if (inserted) return { kind: "claimed" };
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
    if (existing.state === "pending") return { kind: "in progress" };
    return { kind: "replay", statusCode: existing.status_code!, body: existing.response_body! };
  }
  return { kind: "in progress" };
}

/** Stores the answer of a claimed request, to be replayed. */
export async function completeIdempotencyKey(
  ctx: DomainContext,
  input: { userId: number; key: string; statusCode: number; body: string },
): Promise<void> {
  await ctx.db
    .updateTable("idempotency_keys")
    .set({ state: "done", status_code: input.statusCode, response_body: input.body })
    .where("user_id", "=", input.userId)
    .where("key", "=", input.key)
    .where("state", "=", "pending")
    .execute();
}

/** Frees a claimed key whose request failed inside the service, so that it may be retried. */
export async function releaseIdempotencyKey(ctx: DomainContext, input: { userId: number; key: string }) {
  await ctx.db
    .deleteFrom("idempotency_keys")
    .where("user_id", "=", input.userId)
    .where("key", "=", input.key)
    .where("state", "=", "pending")
    .execute();
}

/** The job that forgets answers older than 24 hours. */
export async function purgeIdempotencyKeys(ctx: DomainContext): Promise<number> {
  const deleted = await ctx.db
    .deleteFrom("idempotency_keys")
    .where("expires_at", "<=", ctx.clock.now())
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
