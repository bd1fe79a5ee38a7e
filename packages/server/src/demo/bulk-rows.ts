import { sql, type Kysely } from "kysely";
import type { Database } from "../storage/schema.ts";

/**
 * Set-based writes for the demo market: a batch of rows travels as one JSON parameter and lands
 * with one `INSERT ... SELECT FROM jsonb_to_recordset`, which both PostgreSQL and PGlite take in
 * one round trip whatever the batch size (no limit on bind parameters).
 */

/** Column name to SQL type, in the order the rows are written. */
export type Columns = Readonly<Record<string, string>>;

export async function insertRows(
  db: Kysely<Database>,
  table: string,
  columns: Columns,
  rows: readonly object[],
): Promise<void> {
  if (rows.length === 0) return;
  const names = Object.keys(columns).join(", ");
  const types = Object.entries(columns)
    .map(([name, type]) => `${name} ${type}`)
    .join(", ");
  await sql`
    INSERT INTO ${sql.table(table)} (${sql.raw(names)})
    SELECT ${sql.raw(names)} FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(${sql.raw(types)})
  `.execute(db);
}

/**
 * Takes `count` consecutive values of a sequence (a table's identity or a free-standing sequence)
 * and answers the first: the rows written with them are numbered as the verbs would have numbered
 * them one at a time, and later inserts continue after them.
 */
export async function reserveIds(
  db: Kysely<Database>,
  sequence: { table: string; column: string } | { name: string },
  count: number,
): Promise<number> {
  const name =
    "name" in sequence
      ? sql`${sequence.name}::regclass`
      : sql`pg_get_serial_sequence(${sequence.table}, ${sequence.column})::regclass`;
  const first = await sql<{ first: number }>`SELECT nextval(${name}) AS first`.execute(db);
  const start = Number(first.rows[0]!.first);
  if (count > 1) await sql`SELECT setval(${name}, ${start + count - 1})`.execute(db);
  return start;
}

/**
 * Drops the foreign keys of `tables` until `restore()` adds them again: each is then checked once
 * over the whole table (PostgreSQL validates a new foreign key with one join) instead of once per
 * row written. PostgreSQL's guide to populating a database recommends it; a demo build of millions
 * spent half its time in the per-row checks (docs/design/performance.md#a-demo-of-ten-million-listings). Both run in the caller's
 * transaction: a row that breaks a key fails the whole build, as a per-row check would, and a
 * build that fails leaves every key as it was. Dropping a foreign key locks its table and the
 * table it names until the transaction ends.
 */
export async function suspendForeignKeys(
  db: Kysely<Database>,
  tables: readonly string[],
): Promise<{ count: number; restore(onKey?: (done: number) => void): Promise<void> }> {
  const { rows: keys } = await sql<{ relation: string; name: string; definition: string }>`
    SELECT conrelid::regclass::text AS relation, conname AS name, pg_get_constraintdef(oid) AS definition
    FROM pg_constraint
    WHERE contype = 'f' AND conrelid = ANY (${[...tables]}::regclass[])
    ORDER BY conrelid::regclass::text, conname
  `.execute(db);
  for (const key of keys)
    await sql`ALTER TABLE ${sql.raw(key.relation)} DROP CONSTRAINT ${sql.id(key.name)}`.execute(db);
  return {
    count: keys.length,
    async restore(onKey = () => {}) {
      for (const [index, key] of keys.entries()) {
        await sql`
          ALTER TABLE ${sql.raw(key.relation)} ADD CONSTRAINT ${sql.id(key.name)} ${sql.raw(key.definition)}
        `.execute(db);
        onKey(index + 1);
      }
    },
  };
}

/**
 * Drops the indexes of `tables` that back no constraint (the primary keys and unique constraints
 * stay, and so does every lookup they serve) until `restore()` builds them again, each with one
 * sort over the whole table instead of one insertion per row written: the demo's listings carry a
 * dozen covering indexes, whose upkeep row by row was most of the build. A unique index among them
 * (one live trade per listing, one commitment per asset) is checked over every row when it is
 * built again, so a row that breaks it fails the whole build as its insert would have. Both run
 * in the caller's transaction: a failed build leaves every index as it was.
 */
export async function suspendSecondaryIndexes(
  db: Kysely<Database>,
  tables: readonly string[],
): Promise<{ count: number; restore(onIndex?: (done: number) => void): Promise<void> }> {
  const { rows: indexes } = await sql<{ name: string; definition: string }>`
    SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
    FROM pg_index i
    WHERE i.indrelid = ANY (${[...tables]}::regclass[])
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
    ORDER BY 1
  `.execute(db);
  for (const index of indexes) await sql`DROP INDEX ${sql.raw(index.name)}`.execute(db);
  return {
    count: indexes.length,
    async restore(onIndex = () => {}) {
      for (const [done, index] of indexes.entries()) {
        await sql.raw(index.definition).execute(db);
        onIndex(done + 1);
      }
    },
  };
}
