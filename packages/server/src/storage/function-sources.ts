import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { sql, type Kysely } from "kysely";

/** The checked-in function files: `functions/<name>.sql`, one database function each. */
export const FUNCTIONS_DIR = join(import.meta.dirname, "functions");

export interface FunctionSource {
  /** The function's name, which is the file's name. */
  name: string;
  /** One `CREATE OR REPLACE FUNCTION` statement: the function's current definition. */
  sql: string;
  sha256: string;
}

export async function readFunctionSources(dir: string): Promise<FunctionSource[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith(".sql")).sort();
  return Promise.all(
    files.map(async (file) => {
      const name = file.slice(0, -".sql".length);
      if (!/^[a-z][a-z0-9_]*$/.test(name))
        throw new Error(`function file ${file}: name it <function_name>.sql`);
      const text = await readFile(join(dir, file), "utf8");
      return { name, sql: text, sha256: createHash("sha256").update(text).digest("hex") };
    }),
  );
}

/**
 * Applies each source whose hash differs from the one recorded in `database_functions` (or that
 * has none), in name order, in the caller's transaction, and records its hash; answers the names
 * applied. The caller holds the migration lock, so two instances never apply the same file.
 */
export async function applyFunctionSources(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- runs before the typed schema is known to hold this table
  trx: Kysely<any>,
  sources: readonly FunctionSource[],
): Promise<string[]> {
  await sql`CREATE TABLE IF NOT EXISTS database_functions (
    name text PRIMARY KEY,
    sha256 text NOT NULL,
    applied_at timestamptz NOT NULL
  )`.execute(trx);
  const recorded = new Map(
    (await trx.selectFrom("database_functions").select(["name", "sha256"]).execute()).map(
      (row: { name: string; sha256: string }) => [row.name, row.sha256],
    ),
  );
  const applied: string[] = [];
  for (const source of sources) {
    if (recorded.get(source.name) === source.sha256) continue;
    await replaceFunction(trx, source);
    await trx
      .insertInto("database_functions")
      .values({ name: source.name, sha256: source.sha256, applied_at: new Date() })
      .onConflict((conflict) =>
        conflict.column("name").doUpdateSet((eb) => ({
          sha256: eb.ref("excluded.sha256"),
          applied_at: eb.ref("excluded.applied_at"),
        })),
      )
      .execute();
    applied.push(source.name);
  }
  return applied;
}

/**
 * `CREATE OR REPLACE` keeps a function's identity, so what depends on it (triggers) stays. Where
 * the file changed the function's result (PostgreSQL refuses to replace that: 42P13), the old
 * function is dropped first; where it changed the arguments, the statement made a second function
 * of the same name, and the old one is dropped after: a name has one definition, the file's.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see applyFunctionSources
async function replaceFunction(trx: Kysely<any>, source: FunctionSource): Promise<void> {
  const before = await overloads(trx, source.name);
  await sql`SAVEPOINT replace_function`.execute(trx);
  try {
    await sql.raw(source.sql).execute(trx);
  } catch (error) {
    if ((error as { code?: string }).code !== "42P13") throw withFile(source, error);
    await sql`ROLLBACK TO SAVEPOINT replace_function`.execute(trx);
    await dropFunctions(trx, before);
    await sql
      .raw(source.sql)
      .execute(trx)
      .catch((retried: unknown) => {
        throw withFile(source, retried);
      });
  }
  await sql`RELEASE SAVEPOINT replace_function`.execute(trx);
  const after = await overloads(trx, source.name);
  const kept = new Set(before.map((function_) => function_.oid));
  if (after.length === 0)
    throw new Error(`function file ${source.name}.sql defines no function ${source.name}`);
  if (after.some((function_) => !kept.has(function_.oid)))
    await dropFunctions(
      trx,
      after.filter((function_) => kept.has(function_.oid)),
    );
}

interface Overload {
  oid: string;
  signature: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see applyFunctionSources
async function overloads(trx: Kysely<any>, name: string): Promise<Overload[]> {
  const { rows } = await sql<Overload>`SELECT oid::text AS oid, oid::regprocedure::text AS signature
    FROM pg_proc WHERE proname = ${name} AND pronamespace = current_schema()::regnamespace`.execute(trx);
  return rows;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see applyFunctionSources
async function dropFunctions(trx: Kysely<any>, functions: readonly Overload[]): Promise<void> {
  for (const function_ of functions) await sql.raw(`DROP FUNCTION ${function_.signature}`).execute(trx);
}

function withFile(source: FunctionSource, error: unknown): Error {
  return new Error(
    `function file ${source.name}.sql failed: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}
