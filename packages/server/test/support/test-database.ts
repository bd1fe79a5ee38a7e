import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { loadCatalog } from "../../src/domain/catalog/load-catalog.ts";
import { openDatabase, type DatabaseHandle } from "../../src/storage/database.ts";
import { migrateToLatest } from "../../src/storage/migrator.ts";
import { runOnServer, urlOfDatabase } from "../../src/storage/postgres-admin.ts";
import { silentLog, testPlatform } from "./test-context.ts";
import { templates } from "./test-templates.ts";

export interface TestDatabaseOptions {
  /** The committed catalog loaded (as `loadCatalog` loads it at a server's start). */
  catalog?: boolean;
}

/** Each image is read once per test process, however many databases the file opens. */
const images = new Map<string, Promise<Blob>>();

function imageAt(path: string): Promise<Blob> {
  let image = images.get(path);
  if (!image) {
    image = readFile(path).then((bytes) => new Blob([bytes]));
    images.set(path, image);
  }
  return image;
}

/**
 * A fresh, migrated database owned by one test file: PGlite in memory by default, or a new
 * database on the PostgreSQL server named by TEST_DATABASE_URL, dropped again on close. Tests
 * never depend on what an earlier run left: a run's templates are made by its own global setup
 * and dropped at its end; a file run on its own (no global setup) migrates its database itself.
 */
export async function openTestDatabase(options: TestDatabaseOptions = {}): Promise<DatabaseHandle> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const template = templates();
  if (!serverUrl) {
    const imagePath = options.catalog ? template.pglite?.catalog : template.pglite?.migrated;
    if (imagePath) return openDatabase({ kind: "pglite", image: await imageAt(imagePath) });
    return prepared(await openDatabase({ kind: "pglite" }), options);
  }
  const name = `skinmarket_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const templateName = options.catalog ? template.postgres?.catalog : template.postgres?.migrated;
  await runOnServer(serverUrl, `CREATE DATABASE ${name}${templateName ? ` TEMPLATE ${templateName}` : ""}`);
  const handle = await openDatabase({ kind: "postgres", url: urlOfDatabase(serverUrl, name) });
  if (!templateName) await prepared(handle, options);
  return {
    ...handle,
    async close() {
      await handle.close();
      await runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Migrates a new database and, when asked, loads the catalog into it. */
export async function prepared(
  handle: DatabaseHandle,
  options: TestDatabaseOptions,
): Promise<DatabaseHandle> {
  await migrateToLatest(handle.db);
  if (options.catalog) {
    const loaded = await loadCatalog({
      db: handle.db,
      clock: { now: () => new Date() },
      actor: { kind: "system" },
      log: silentLog,
      ...testPlatform(),
    });
    if (!loaded.ok) throw new Error(loaded.failure.message);
  }
  return handle;
}

export const usingPostgres = process.env.TEST_DATABASE_URL !== undefined;
