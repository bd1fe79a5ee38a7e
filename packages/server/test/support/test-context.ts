import { OffsetClock } from "../../src/domain/clock.ts";
import type { Actor, DomainContext } from "../../src/domain/context.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import { openTestDatabase } from "./test-database.ts";

export const silentLog = { info() {}, warn() {}, error() {} };

/** A fresh test database and a domain context on it, for tests of verbs below the HTTP layer. */
export async function openTestContext(
  actor: Actor = { kind: "admin" },
): Promise<{ database: DatabaseHandle; ctx: DomainContext }> {
  const database = await openTestDatabase();
  return { database, ctx: { db: database.db, clock: new OffsetClock(), actor, log: silentLog } };
}
