import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sql, type Kysely } from "kysely";
import type { Database } from "../../src/storage/schema.ts";
import { createReadyTrader, goodsIdOf, grantOne, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { usingPostgres } from "../support/test-database.ts";

const CASE = "Operation Phoenix Weapon Case";
/** Only a PostgreSQL server holds a row lock in one connection while another request runs. */
const SKIP = !usingPostgres && "needs PostgreSQL (TEST_DATABASE_URL)";

/**
 * A purchase skips listings other buyers' units hold; when every matching listing is held, it
 * waits for the holder instead of answering that there is none, since a holder may give the
 * listing up (its buyer cannot pay). Here another transaction holds the only listing, then ends
 * without buying it.
 */
describe("a listing held by a unit that gives it up", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let goodsId: number;

  before(async () => {
    if (SKIP) return;
    t = await createTestApp({ catalog: true });
    seller = await createReadyTrader(t, "seller");
    buyer = await createReadyTrader(t, "buyer");
    goodsId = await goodsIdOf(t, CASE);
    await t.fund(buyer.userId, "balance", 50);
  });
  after(async () => {
    if (!SKIP) await t.close();
  });

  test("is bought by the buyer who was waiting for it", { skip: SKIP }, async () => {
    const assetid = await grantOne(t, seller.platformid, { market_hash_name: CASE });
    const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price: 9 }],
    });
    assert.equal(listed.statusCode, 200, listed.body);
    const { answer } = await t.database.db.transaction().execute(async (holder) => {
      await sql`SELECT listing_id FROM listings WHERE assetid = ${Number(assetid)} AND state = 'ON_SALE'
        FOR UPDATE`.execute(holder);
      const answer = t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
        game: "cs2",
        trade_url: buyer.tradeUrl,
        items: [{ goods_id: goodsId, max_price: 9, quantity: 1 }],
      });
      let settled = false;
      void answer.finally(() => (settled = true));
      // The holder ends (writing nothing) once the purchase waits for its lock, or once the
      // purchase has answered without waiting, which is what this test must catch.
      while (!settled && !(await waitsForALock(holder)))
        await new Promise((resolve) => setTimeout(resolve, 20));
      // Wrapped: a promise returned as is would be awaited before the holder commits.
      return { answer };
    });
    const purchase = await answer;
    assert.equal(purchase.statusCode, 200, purchase.body);
    assert.equal(purchase.json().result[String(goodsId)].success_num, 1, purchase.body);
    await t.assertLedger();
  });
});

/** Asked on the holder's own connection: the pool may have no other one free while a request waits. */
async function waitsForALock(connection: Kysely<Database>): Promise<boolean> {
  // A transaction keeps one picture of pg_stat_activity until told to forget it.
  await sql`SELECT pg_stat_clear_snapshot()`.execute(connection);
  const waiting = await sql<{ n: number }>`
    SELECT count(*)::int AS n FROM pg_stat_activity
    WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(connection);
  return waiting.rows[0]!.n > 0;
}
