import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Kysely } from "kysely";
import { Migrator, type Migration, type MigrationProvider, type MigrationResult } from "kysely/migration";

const MIGRATIONS_DIR = join(import.meta.dirname, "migrations");

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
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function migrateToLatest(db: Kysely<any>): Promise<MigrationReport> {
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
