import pg from "pg";

/**
 * Runs one statement on a connection of its own, outside any pool: for `CREATE DATABASE` and
 * `DROP DATABASE`, which cannot run inside a transaction, and for checks made behind the service.
 */
export async function runOnServer(url: string, statement: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}

/** The URL of another database on the same server. */
export function urlOfDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
