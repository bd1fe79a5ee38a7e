import { randomBytes } from "node:crypto";
import { openDatabase, type DatabaseHandle } from "../../src/storage/database.ts";
import { migrateToLatest } from "../../src/storage/migrator.ts";
import { runOnServer, urlOfDatabase } from "../../src/storage/postgres-admin.ts";

/**
 * A fresh, migrated database owned by one test file: PGlite in memory by default, or a new
 * database on the PostgreSQL server named by TEST_DATABASE_URL, dropped again on close. Tests
 * never depend on what an earlier run left.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const handle = await openDatabase({ kind: "pglite" });
    await migrateToLatest(handle.db);
    return handle;
  }
  const name = `skinmarket_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await runOnServer(serverUrl, `CREATE DATABASE ${name}`);
  const handle = await openDatabase({ kind: "postgres", url: urlOfDatabase(serverUrl, name) });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    async close() {
      await handle.close();
      await runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

export const usingPostgres = process.env.TEST_DATABASE_URL !== undefined;
