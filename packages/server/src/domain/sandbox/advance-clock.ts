import { sql } from "kysely";
import { recordAudit } from "../audit.ts";
import type { OffsetClock } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";

const CLOCK_OFFSET_KEY = "sandbox_clock_offset_ms";
/** The clock may run up to a century ahead: far enough for any expiry, well inside PostgreSQL's dates. */
export const MAX_CLOCK_OFFSET_MS = 100 * 365 * 24 * 3600 * 1000;

/** Reads the persisted offset into the instance's clock (at start, and after a reset). */
export async function loadClockOffset(ctx: DomainContext, clock: OffsetClock): Promise<void> {
  const row = await ctx.db
    .selectFrom("system_settings")
    .select("value")
    .where("key", "=", CLOCK_OFFSET_KEY)
    .executeTakeFirst();
  clock.setOffset(typeof row?.value === "number" ? row.value : 0);
}

/**
 * Moves the sandbox clock forward. The offset lives in the database, so the move survives a
 * restart and the increment is atomic when two callers advance at once.
 */
export async function advanceClock(
  ctx: DomainContext,
  input: { clock: OffsetClock; seconds: number },
): Promise<Result<{ now: Date; offsetMs: number }>> {
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin moves the clock");
  const advanced = await inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const delta = input.seconds * 1000;
    const row = await tx.db
      .insertInto("system_settings")
      .values({ key: CLOCK_OFFSET_KEY, value: JSON.stringify(delta) })
      .onConflict((conflict) =>
        conflict
          .column("key")
          .doUpdateSet({ value: sql`to_jsonb(system_settings.value::bigint + ${delta}::bigint)` }),
      )
      .returning("value")
      .executeTakeFirstOrThrow();
    const offsetMs = Number(row.value);
    if (offsetMs > MAX_CLOCK_OFFSET_MS)
      return invalidArgument("seconds", "the clock may run at most 100 years ahead");
    await recordAudit(tx, { action: "sandbox.clock.advance", details: { seconds: input.seconds } });
    await announceClockChange(tx);
    return ok(offsetMs);
  });
  if (!advanced.ok) return advanced;
  // Only a committed offset reaches the instance's clock, so the clock never runs backwards.
  input.clock.setOffset(advanced.value);
  return ok({ now: input.clock.now(), offsetMs: advanced.value });
}

/**
 * Tells the other instances, once the transaction commits, to read the clock's offset again
 * (PostgreSQL `NOTIFY`; on the embedded database there is no other instance to tell).
 */
export async function announceClockChange(tx: DomainContext): Promise<void> {
  await sql`SELECT pg_notify('skinmarket_changes', '{"kind":"clock"}')`.execute(tx.db);
}
