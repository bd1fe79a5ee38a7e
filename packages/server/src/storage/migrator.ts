import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { sql, type Kysely } from "kysely";
import { Migrator, type Migration, type MigrationProvider, type MigrationResult } from "kysely/migration";
import { applyFunctionSources, FUNCTIONS_DIR, readFunctionSources } from "./function-sources.ts";

const MIGRATIONS_DIR = join(import.meta.dirname, "migrations");

/**
 * The session-level advisory lock a migrating instance holds from its first numbered migration to
 * its last function file, so that instances started together take turns: the second finds the
 * migrations run and the function files' hashes recorded, and does nothing. (Kysely's migrator
 * takes a lock of its own for the numbered migrations only; on PGlite it takes none, and one
 * process owns the data directory.)
 */
const MIGRATION_LOCK = 7_360_517_240_113_092_157n;

/** Migrations are the checked-in `migrations/NNNN-name.ts` files, applied in name order. */
class CheckedInMigrations implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(MIGRATIONS_DIR))
      .filter((file) => /^\d{4}-[a-z0-9-]+\.ts$/.test(file))
      .sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      const module = (await import(pathToFileURL(join(MIGRATIONS_DIR, file)).href)) as Migration;
      migrations[file.replace(/\.ts$/, "")] = module;
    }
    return migrations;
  }
}

export interface MigrationReport {
  applied: string[];
  alreadyApplied: number;
  /** The database functions whose source file changed (or was new) and was applied. */
  functionsApplied: string[];
}

/**
 * Brings a database to the latest version (docs/design/architecture.md#where-the-databases-functions-live): the numbered migrations not yet run, then each function file of
 * `functionsDir` whose text differs from the one last applied. `functionsDir` is the checked-in
 * `functions/` folder; tests give another to change a file.
 */
export async function migrateToLatest(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
  db: Kysely<any>,
  functionsDir: string = FUNCTIONS_DIR,
): Promise<MigrationReport> {
  const sources = await readFunctionSources(functionsDir);
  return db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${sql.lit(MIGRATION_LOCK)})`.execute(connection);
    try {
      const numbered = await runNumberedMigrations(connection);
      const functionsApplied = await connection
        .transaction()
        .execute((trx) => applyFunctionSources(trx, sources));
      return { ...numbered, functionsApplied };
    } finally {
      await sql`SELECT pg_advisory_unlock(${sql.lit(MIGRATION_LOCK)})`.execute(connection);
    }
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
async function runNumberedMigrations(db: Kysely<any>): Promise<Omit<MigrationReport, "functionsApplied">> {
  const migrator = new Migrator({ db, provider: new CheckedInMigrations() });
  const before = (await migrator.getMigrations()).filter((migration) => migration.executedAt).length;
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result: MigrationResult) => result.status === "Error");
  if (error || failed) {
    const name = failed ? ` ${failed.migrationName}` : "";
    throw new Error(`migration${name} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  return {
    applied: (results ?? [])
      .filter((result) => result.status === "Success")
      .map((result) => result.migrationName),
    alreadyApplied: before,
  };
}
