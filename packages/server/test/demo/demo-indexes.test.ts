import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sql, type Kysely } from "kysely";
import { buildDemoMarket } from "../../src/demo/build-demo-market.ts";
import { suspendSecondaryIndexes } from "../../src/demo/bulk-rows.ts";
import { assertLedgerInvariants } from "../../src/domain/wallet/check-ledger-invariants.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import type { Database } from "../../src/storage/schema.ts";
import { openTestDatabase } from "../support/test-database.ts";

const NOW = new Date("2026-06-01T12:00:00.000Z");

/** Every index of the schema: its table, name and definition. */
async function indexes(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ index: string }>`
    SELECT tablename || ' ' || indexname || ' ' || indexdef AS index
    FROM pg_indexes WHERE schemaname = current_schema()
    ORDER BY 1
  `.execute(db);
  return rows.map((row) => row.index);
}

describe("demo market: secondary indexes built once, at the end", () => {
  let built: DatabaseHandle;

  before(async () => {
    built = await openTestDatabase({ catalog: true });
    await buildDemoMarket(built.db, { listings: 300, traders: 6, days: 14, now: NOW, seed: 7 });
  });
  after(() => built.close());

  test("every index is back after the build, as the migrations made it", async () => {
    const fresh = await openTestDatabase();
    try {
      const after = await indexes(built.db);
      assert.ok(after.some((index) => index.includes("listings_market_idx")));
      assert.deepEqual(after, await indexes(fresh.db));
      await assertLedgerInvariants(built.db);
    } finally {
      await fresh.close();
    }
  });

  test("a unique index built at the end refuses a row that breaks it, and the build leaves the indexes as they were", async () => {
    const database = await openTestDatabase();
    try {
      const before = await indexes(database.db);
      await assert.rejects(
        database.db.transaction().execute(async (tx) => {
          const suspended = await suspendSecondaryIndexes(tx, ["users"]);
          assert.equal(suspended.count, 2, "the unique nickname and email address indexes");
          // Unchecked while the index is away: two nicknames equal but for their case.
          await sql`
            INSERT INTO users (nickname, password_hash, access_level, created_at, updated_at)
            VALUES ('twin', 'x', 'none', now(), now()), ('TWIN', 'x', 'none', now(), now())
          `.execute(tx);
          await suspended.restore();
        }),
        /could not create unique index/,
      );
      assert.deepEqual(await indexes(database.db), before);
    } finally {
      await database.close();
    }
  });
});
