import { sql } from "kysely";
import { recordAudit } from "../audit.ts";
import type { OffsetClock } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { inTransaction } from "../transaction.ts";
import { announceClockChange } from "./advance-clock.ts";
import { tokensChanged } from "../tokens/tokens-changed.ts";

/**
 * What a reset keeps: the catalog, the migration bookkeeping (the numbered migrations run, the
 * function files applied) and the Steam face's keys, which every running instance has read once
 * and keeps using (emptied, the next instance to start would make others). Every other table is
 * the world.
 */
const KEPT_TABLES = new Set([
  "goods",
  "catalog_state",
  "kysely_migration",
  "kysely_migration_lock",
  "database_functions",
  "sandbox_steam_face_keys",
]);

/**
 * Empties the world in one transaction: users, tokens, sessions, money, audit, settings (so the
 * clock returns to real time), and whatever tables later features add, without naming them here.
 */
export async function resetWorld(
  ctx: DomainContext,
  input: { clock: OffsetClock },
): Promise<Result<{ tables: string[] }>> {
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin resets the world");
  // The transaction names no goods: a reset is a change to everything, and the market's snapshots
  // are read whole again.
  const result = await inTransaction(ctx, async (tx) => {
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
      ORDER BY table_name
    `.execute(tx.db);
    const world = tables.rows.map((row) => row.table_name).filter((name) => !KEPT_TABLES.has(name));
    await sql`TRUNCATE ${sql.join(world.map((name) => sql.table(name)))} RESTART IDENTITY CASCADE`.execute(
      tx.db,
    );
    // Free-standing sequences (such as the platform's asset ids) start again too.
    const sequences = await sql<{ sequence_name: string }>`
      SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = current_schema()
    `.execute(tx.db);
    for (const { sequence_name: name } of sequences.rows) {
      // Event ids go on growing: a client resuming after an id it saw must not miss what follows.
      if (name === "event_ids") continue;
      await sql`ALTER SEQUENCE ${sql.table(name)} RESTART`.execute(tx.db);
    }
    // Subscribers learn that the world they knew is gone (docs/design/events.md#the-sandboxs-reset).
    await tx.db
      .insertInto("event_outbox")
      .values({
        type: "market.reset",
        user_id: null,
        goods_id: null,
        subject: JSON.stringify({ tables: world }),
      })
      .execute();
    await tx.db
      .insertInto("ledger_accounts")
      .values([
        { user_id: null, kind: "fees" },
        { user_id: null, kind: "external" },
        { user_id: null, kind: "adjustments" },
      ])
      .execute();
    await recordAudit(tx, { action: "sandbox.reset", details: { tables: world } });
    await announceClockChange(tx);
    await tokensChanged(tx);
    return ok({ tables: world });
  });
  if (result.ok) {
    input.clock.setOffset(0);
    ctx.tokenCache?.forget();
  }
  return result;
}
