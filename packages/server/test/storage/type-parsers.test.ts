import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import { openTestDatabase } from "../support/test-database.ts";

describe(`column types on ${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"}`, () => {
  let database: DatabaseHandle;
  before(async () => {
    database = await openTestDatabase();
  });
  after(() => database.close());

  test("BIGINT arrives as a safe integer number, NUMERIC as its exact decimal string", async () => {
    const { rows } = await sql<{ big: unknown; small: unknown; exact: unknown; wear: unknown; at: unknown }>`
      SELECT 9007199254740991::int8 AS big, -42::int8 AS small, 1.50::numeric AS exact,
             0.071234567890123456789::numeric AS wear, '2026-01-01T00:00:00Z'::timestamptz AS at
    `.execute(database.db);
    const row = rows[0]!;
    assert.equal(row.big, 9007199254740991);
    assert.equal(row.small, -42);
    assert.equal(row.exact, "1.50");
    assert.equal(row.wear, "0.071234567890123456789");
    assert.ok(row.at instanceof Date);
    assert.equal((row.at as Date).toISOString(), "2026-01-01T00:00:00.000Z");
  });

  test("a BIGINT beyond 2^53 is refused loudly instead of losing precision", async () => {
    await assert.rejects(
      sql`SELECT 9007199254740993::int8 AS big`.execute(database.db),
      /outside the safe integer range/,
    );
  });

  test("ledger balances come back as numbers on this driver", async () => {
    const account = await database.db
      .selectFrom("ledger_accounts")
      .select(["account_id", "balance"])
      .executeTakeFirstOrThrow();
    assert.equal(typeof account.account_id, "number");
    assert.equal(typeof account.balance, "number");
  });
});
