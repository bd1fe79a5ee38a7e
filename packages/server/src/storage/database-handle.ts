import type { Kysely } from "kysely";
import type { Database } from "./schema.ts";

/** An open database, whichever driver `openDatabase` chose. */
export interface DatabaseHandle {
  db: Kysely<Database>;
  driver: "pglite" | "postgres";
  /** Where the data lives, safe to log (no password). */
  description: string;
  close(): Promise<void>;
}
