import assert from "node:assert/strict";
import { sql } from "kysely";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";

/**
 * A crossing that stopped half-way (the process died between an order's commit and its fills,
 * here a fault inside the database) is finished by the crossing sweep, which runs at start and
 * with the jobs (docs/design/recovery.md#recovery-at-start).
 */
describe("crossings left standing are finished", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let stickerId: number;

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createReadyTrader(t, "seller");
    stickerId = await goodsIdOf(t, STICKER);
  });
  after(() => t.close());

  const api = (token: string, method: "GET" | "POST", path: string, body?: unknown) =>
    t.as(token, method, `/api/market/developer/${path}`, body);
  const list = async (prices: number[]) => {
    const assets = await grant(t, seller.platformid, { market_hash_name: STICKER, count: prices.length });
    return api(seller.token, "POST", "sell_order/items", {
      game: "cs2",
      assets: assets.map((assetid, index) => ({ assetid, price: prices[index] })),
    });
  };
  const onSale = async () =>
    (
      await t.database.db
        .selectFrom("listings")
        .select("price")
        .where("goods_id", "=", stickerId)
        .where("state", "=", "ON_SALE")
        .orderBy("price")
        .execute()
    ).map((row) => row.price);
  const tradesOf = async (buyOrderId: string) =>
    (
      await t.database.db
        .selectFrom("trades")
        .select("price")
        .where("buy_order_id", "=", Number(buyOrderId))
        .orderBy("price")
        .execute()
    ).map((row) => row.price);
  const orderId = async (buyer: PlatformFixture) =>
    String(
      (
        await t.database.db
          .selectFrom("buy_orders")
          .select("buy_order_id")
          .where("user_id", "=", Number(buyer.userId))
          .orderBy("buy_order_id", "desc")
          .executeTakeFirstOrThrow()
      ).buy_order_id,
    );
  /** Fails every trade after the first `allowed` of a buy order, as a crash between fills would stop them. */
  const stopFillsAfter = async (allowed: number) => {
    await sql`
      CREATE FUNCTION stop_fills() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (SELECT count(*) FROM trades WHERE buy_order_id = NEW.buy_order_id) >= ${sql.lit(allowed)} THEN
          RAISE EXCEPTION 'the crossing stopped';
        END IF;
        RETURN NEW;
      END $$
    `.execute(t.database.db);
    await sql`
      CREATE TRIGGER stop_fills BEFORE INSERT ON trades FOR EACH ROW
      WHEN (NEW.buy_order_id IS NOT NULL) EXECUTE FUNCTION stop_fills()
    `.execute(t.database.db);
  };
  const resumeFills = async () => {
    await sql`DROP TRIGGER stop_fills ON trades`.execute(t.database.db);
    await sql`DROP FUNCTION stop_fills()`.execute(t.database.db);
  };
  const runJobs = async () =>
    (await t.admin("POST", "/sandbox/jobs/run")).json<{ jobs: Array<{ name: string; processed: number }> }>()
      .jobs;

  test("an order whose crossing stopped after 2 of 5 fills takes the other 3 listings at their prices on the next job run", async () => {
    assert.equal((await list([3, 3.5, 4, 4.5, 5])).statusCode, 200);
    const buyer = await createReadyTrader(t);
    await t.fund(buyer.userId, "balance", 100);
    await stopFillsAfter(2);
    try {
      const stopped = await api(buyer.token, "POST", "buy_order", {
        game: "cs2",
        goods_id: stickerId,
        price: 5,
        num: 5,
      });
      assert.equal(stopped.statusCode, 500, stopped.body);
    } finally {
      await resumeFills();
    }
    const id = await orderId(buyer);
    assert.deepEqual(await tradesOf(id), [300, 350]);
    assert.deepEqual(await onSale(), [400, 450, 500], "the book stands crossed");
    const jobs = await runJobs();
    assert.deepEqual(
      jobs.find((job) => job.name === "cross-standing-orders"),
      {
        name: "cross-standing-orders",
        processed: 3,
      },
    );
    assert.deepEqual(await tradesOf(id), [300, 350, 400, 450, 500]);
    assert.deepEqual(await onSale(), []);
    const [order] = (await api(buyer.token, "GET", "buy_order?game=cs2")).json().items;
    assert.equal(order.frozen_num, 5);
    assert.equal((await t.admin("GET", `/sandbox/users/${buyer.userId}/balances`)).json().balance, "80.00");
    await t.assertLedger();
  });

  test("a listing whose crossing stopped fills the best order (highest price, then oldest) on the next job run", async () => {
    const older = await createReadyTrader(t);
    const best = await createReadyTrader(t);
    const newer = await createReadyTrader(t);
    for (const buyer of [older, best, newer]) await t.fund(buyer.userId, "balance", 100);
    for (const [buyer, price] of [
      [older, 6],
      [best, 7],
      [newer, 7],
    ] as const) {
      const placed = await api(buyer.token, "POST", "buy_order", {
        game: "cs2",
        goods_id: stickerId,
        price,
        num: 1,
      });
      assert.equal(placed.statusCode, 200, placed.body);
    }
    await stopFillsAfter(0);
    try {
      await list([5]);
    } finally {
      await resumeFills();
    }
    assert.deepEqual(await onSale(), [500], "the book stands crossed");
    await runJobs();
    assert.deepEqual(await onSale(), []);
    assert.deepEqual(await tradesOf(await orderId(best)), [500]);
    assert.deepEqual(await tradesOf(await orderId(older)), []);
    assert.deepEqual(await tradesOf(await orderId(newer)), []);
    await t.assertLedger();
  });
});
