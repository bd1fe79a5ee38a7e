import type { Kysely } from "kysely";
import type { Database } from "../../src/storage/schema.ts";

/** The highest event id the log holds (0 when it holds none): a test reads what came after it. */
export async function highestEventId(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("events")
    .select((eb) => eb.fn.max("event_id").as("id"))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}
