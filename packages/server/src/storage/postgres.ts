import pg from "pg";
import { Kysely, PostgresDialect } from "kysely";
import type { Database } from "./schema.ts";
import { INT8_OID, NUMERIC_OID, parseInt8, parseNumeric } from "./type-parsers.ts";
import type { DatabaseHandle } from "./database-handle.ts";
import { preparingPool } from "./prepared-statements.ts";

export interface PostgresOptions {
  url: string;
  maxConnections?: number;
  /** An idle connection failed (server restart, terminated backend); the pool replaces it. */
  onConnectionError?: (error: Error) => void;
}

/** A PostgreSQL server reached through `pg`'s pool. */
export async function openPostgresDatabase(options: PostgresOptions): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") => {
        if (oid === INT8_OID) return parseInt8;
        if (oid === NUMERIC_OID) return parseNumeric;
        return pg.types.getTypeParser(oid, format);
      }) as typeof pg.types.getTypeParser,
    },
  });
  // Without a listener, an idle connection's error (e.g. the server restarting) would crash the
  // process; the pool drops that connection and opens a new one when needed.
  pool.on("error", (error) => options.onConnectionError?.(error));
  // Fail fast with the server's own message when the URL is wrong or the server is down.
  const client = await pool.connect();
  client.release();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparingPool(pool) }) });
  return {
    db,
    driver: "postgres",
    description: `PostgreSQL at ${redactUrl(options.url)}`,
    close: () => db.destroy(),
  };
}

export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparseable URL)";
  }
}
