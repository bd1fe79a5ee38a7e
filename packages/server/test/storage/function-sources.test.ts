import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { sql, type Kysely } from "kysely";
import { openDatabase, type DatabaseHandle } from "../../src/storage/database.ts";
import { FUNCTIONS_DIR, readFunctionSources } from "../../src/storage/function-sources.ts";
import { migrateToLatest } from "../../src/storage/migrator.ts";
import { runOnServer, urlOfDatabase } from "../../src/storage/postgres-admin.ts";
import { openTestDatabase, usingPostgres } from "../support/test-database.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- catalog reads, outside the typed schema
type AnyDb = Kysely<any>;

/** The definition of every function of the database's schema, by name (docs/design/architecture.md#layout-and-the-rules-between-parts). */
async function functionDefinitions(db: AnyDb): Promise<Map<string, string>> {
  const { rows } = await sql<{ name: string; definition: string }>`
    SELECT proc.proname AS name, pg_get_functiondef(proc.oid) AS definition
    FROM pg_proc AS proc
    WHERE proc.pronamespace = current_schema()::regnamespace
      AND NOT EXISTS (SELECT 1 FROM pg_depend AS dep WHERE dep.objid = proc.oid AND dep.deptype = 'e')
    ORDER BY proc.proname, proc.oid`.execute(db);
  return new Map(rows.map((row) => [row.name, row.definition]));
}

/** A new database on which nothing has run: in memory on PGlite, a new database on the server. */
async function emptyDatabase(): Promise<{ open(): Promise<DatabaseHandle>; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { open: () => openDatabase({ kind: "pglite" }), drop: async () => {} };
  const name = `skinmarket_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await runOnServer(serverUrl, `CREATE DATABASE ${name}`);
  return {
    open: () => openDatabase({ kind: "postgres", url: urlOfDatabase(serverUrl, name) }),
    drop: async () => {
      await runOnServer(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** A folder of function files for one test; gone after it. */
async function functionsFolder(files: Record<string, string>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), "skinmarket-functions-"));
  for (const [name, text] of Object.entries(files)) await writeFile(join(folder, name), text);
  return folder;
}

describe("database functions live in storage/functions", () => {
  let fresh: DatabaseHandle;
  before(async () => {
    fresh = await openTestDatabase();
  });
  after(() => fresh.close());

  test("every function of a migrated database has its file, applied as it reads now", async () => {
    const sources = await readFunctionSources(FUNCTIONS_DIR);
    const files = new Set(sources.map((source) => source.name));
    const withoutFile = [...(await functionDefinitions(fresh.db)).keys()].filter((name) => !files.has(name));
    assert.deepEqual(
      withoutFile,
      [],
      "a function defined by a migration needs its file storage/functions/<name>.sql (the current definition)",
    );
    const recorded = await sql<{ name: string; sha256: string }>`
      SELECT name, sha256 FROM database_functions ORDER BY name`.execute(fresh.db);
    assert.deepEqual(
      recorded.rows,
      sources.map((source) => ({ name: source.name, sha256: source.sha256 })),
    );
  });

  test("a database migrated by the numbered migrations alone comes out of the migrator as a fresh one", async () => {
    const empty = await emptyDatabase();
    const noFunctions = await functionsFolder({});
    const upgraded = await empty.open();
    try {
      // What the migrator did before function files: the numbered migrations, nothing more.
      const before = await migrateToLatest(upgraded.db, noFunctions);
      assert.deepEqual(before.functionsApplied, []);
      const old = await functionDefinitions(upgraded.db);
      assert.doesNotMatch(old.get("purchase_goods_unit")!, /listing_takeable/);

      const upgrade = await migrateToLatest(upgraded.db);
      assert.deepEqual(upgrade.applied, []);
      assert.ok(upgrade.functionsApplied.includes("purchase_goods_unit"), upgrade.functionsApplied.join());
      assert.deepEqual(await functionDefinitions(upgraded.db), await functionDefinitions(fresh.db));
    } finally {
      await upgraded.close();
      await empty.drop();
      await rm(noFunctions, { recursive: true });
    }
  });

  test("a function whose arguments or result change is replaced, not doubled", async () => {
    const probe = (signature: string, body: string) =>
      functionsFolder({
        "probe_total.sql": `CREATE OR REPLACE FUNCTION probe_total${signature} AS $$ ${body} $$`,
      });
    const versions = [
      await probe("(p_a integer) RETURNS integer LANGUAGE sql", "SELECT p_a"),
      // New arguments: CREATE OR REPLACE makes a second function of the name.
      await probe("(p_a integer, p_b integer) RETURNS integer LANGUAGE sql", "SELECT p_a + p_b"),
      // A new result: PostgreSQL refuses to replace, so the old one is dropped first.
      await probe(
        "(p_a integer, p_b integer) RETURNS bigint LANGUAGE sql",
        "SELECT (p_a + p_b)::bigint * 10",
      ),
    ];
    const database = await openTestDatabase();
    try {
      for (const folder of versions) {
        assert.deepEqual((await migrateToLatest(database.db, folder)).functionsApplied, ["probe_total"]);
        assert.deepEqual((await migrateToLatest(database.db, folder)).functionsApplied, []);
      }
      const { rows } = await sql<{ signature: string; total: string }>`
        SELECT oid::regprocedure::text AS signature, probe_total(2, 3)::text AS total
        FROM pg_proc WHERE proname = 'probe_total'`.execute(database.db);
      assert.deepEqual(rows, [{ signature: "probe_total(integer,integer)", total: "50" }]);
    } finally {
      await database.close();
      for (const folder of versions) await rm(folder, { recursive: true });
    }
  });

  test("the eligibility rule is inlined: a purchase's pick reads the index of listings on sale by price", async () => {
    await sql`SET enable_seqscan = off`.execute(fresh.db);
    const { rows } = await sql<{ "QUERY PLAN": string }>`EXPLAIN
      SELECT listing.listing_id FROM listings AS listing
      WHERE listing.goods_id = 1 AND listing_takeable(listing, 2, 500, now(), false)
      ORDER BY listing.price, listing.listing_id LIMIT 1 FOR UPDATE SKIP LOCKED`.execute(fresh.db);
    await sql`RESET enable_seqscan`.execute(fresh.db);
    const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
    assert.match(plan, /Index Scan using listings_market_idx/, plan);
    assert.match(plan, /Index Cond: \(\(goods_id = 1\) AND \(price <= /, plan);
    assert.doesNotMatch(plan, /listing_takeable/, plan);
  });
});

describe("two instances starting at once (PostgreSQL)", { skip: !usingPostgres }, () => {
  test("run each migration and apply each function file once, a changed file once again", async () => {
    const empty = await emptyDatabase();
    const original = await readFile(join(FUNCTIONS_DIR, "purchase_unit.sql"), "utf8");
    const changed = original.replace("o_withdrawn := 0;", "o_withdrawn := 0; -- changed");
    assert.notEqual(changed, original);
    const folder = await functionsFolder({ "purchase_unit.sql": changed });
    const [first, second] = [await empty.open(), await empty.open()];
    try {
      const starts = await Promise.all([migrateToLatest(first.db), migrateToLatest(second.db)]);
      const migrations = starts.flatMap((report) => report.applied);
      assert.equal(new Set(migrations).size, migrations.length, migrations.join());
      assert.deepEqual(
        starts.flatMap((report) => report.functionsApplied).sort(),
        (await readFunctionSources(FUNCTIONS_DIR)).map((source) => source.name),
      );

      const restarts = await Promise.all([
        migrateToLatest(first.db, folder),
        migrateToLatest(second.db, folder),
      ]);
      assert.deepEqual(
        restarts.flatMap((report) => report.functionsApplied),
        ["purchase_unit"],
      );
      assert.match((await functionDefinitions(second.db)).get("purchase_unit")!, /-- changed/);
    } finally {
      await first.close();
      await second.close();
      await empty.drop();
      await rm(folder, { recursive: true });
    }
  });
});
