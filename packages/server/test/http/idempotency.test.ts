import assert from "node:assert/strict";
import { sql } from "kysely";
import { after, before, describe, test } from "node:test";
import { createBuyOrder } from "../../src/domain/buy-orders/create-buy-order.ts";
import type { DomainContext, HeldKey } from "../../src/domain/context.ts";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IdempotencyKeyTakenOver,
  renewKeyLease,
} from "../../src/domain/idempotency-keys.ts";
import { idempotencyRequestHash } from "../../src/http/plugins/idempotency.ts";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";

/** `Idempotency-Key` on official writes: one effect however often, and however concurrently, sent. */
describe("idempotent writes", () => {
  let t: TestApp;
  let buyer: PlatformFixture;
  let stickerId: number;
  before(async () => {
    t = await createTestApp({ catalog: true });
    buyer = await createReadyTrader(t);
    stickerId = await goodsIdOf(t, STICKER);
    await t.fund(buyer.userId, "balance", 1000);
  });
  after(() => t.close());

  const bid = (key: string | undefined, price = 1, token = buyer.token) =>
    t.app.inject({
      method: "POST",
      url: "/api/market/developer/buy_order",
      headers: { authorization: `Bearer ${token}`, ...(key === undefined ? {} : { "idempotency-key": key }) },
      payload: { game: "cs2", goods_id: stickerId, price, num: 1 },
    });
  const orderCount = async (userId: string) =>
    Number(
      (
        await t.database.db
          .selectFrom("buy_orders")
          .select((eb) => eb.fn.countAll<string>().as("count"))
          .where("user_id", "=", Number(userId))
          .executeTakeFirstOrThrow()
      ).count,
    );

  test("one key replayed 100 times in a row gives exactly one effect and the same answer", async () => {
    const before = await orderCount(buyer.userId);
    const first = await bid("replay-100");
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.headers["idempotent-replayed"], undefined);
    for (let index = 0; index < 100; index++) {
      const again = await bid("replay-100");
      assert.equal(again.statusCode, 200);
      assert.equal(again.headers["idempotent-replayed"], "true");
      assert.equal(again.body, first.body);
    }
    assert.equal(await orderCount(buyer.userId), before + 1);
  });

  test("20 concurrent requests with one key perform the write once", async () => {
    const before = await orderCount(buyer.userId);
    const answers = await Promise.all(Array.from({ length: 20 }, () => bid("concurrent-20")));
    assert.equal(await orderCount(buyer.userId), before + 1);
    const created = answers.filter((answer) => answer.statusCode === 200);
    assert.ok(created.length >= 1);
    assert.ok(
      created.every((answer) => answer.body === created[0]!.body),
      "every 200 is the one answer",
    );
    for (const answer of answers.filter((answer) => answer.statusCode !== 200)) {
      assert.equal(answer.statusCode, 409);
      assert.match(answer.json().msg, /still being answered/);
    }
    const later = await bid("concurrent-20");
    assert.equal(later.headers["idempotent-replayed"], "true");
  });

  test("the same key with another request is Idempotency Key Reused 422", async () => {
    assert.equal((await bid("reused", 1)).statusCode, 200);
    const reused = await bid("reused", 2);
    assert.equal(reused.statusCode, 422);
    assert.deepEqual(Object.keys(reused.json()).sort(), ["code", "msg"]);
    assert.equal(reused.json().code, "Idempotency Key Reused");
  });

  test("a refusal is replayed too; keys are per user; they expire after 24 hours", async () => {
    const refused = await bid("too-dear", 5000);
    assert.equal(refused.statusCode, 409);
    const replayed = await bid("too-dear", 5000);
    assert.equal(replayed.statusCode, 409);
    assert.equal(replayed.headers["idempotent-replayed"], "true");

    const other = await createReadyTrader(t);
    await t.fund(other.userId, "balance", 10);
    const theirs = await bid("too-dear", 5, other.token);
    assert.equal(theirs.statusCode, 200, "another user's key of the same name is theirs");

    await t.admin("POST", "/sandbox/clock/advance", { seconds: 24 * 3600 + 1 });
    const jobs = (await t.admin("POST", "/sandbox/jobs/run")).json<{
      jobs: Array<{ name: string; processed: number }>;
    }>();
    assert.ok(jobs.jobs.find((job) => job.name === "purge-idempotency-keys")!.processed >= 1);
    const fresh = await bid("replay-100");
    assert.equal(fresh.headers["idempotent-replayed"], undefined, "an expired key is used afresh");
  });

  test("a purchase with a bad price on a later item is refused before anything is bought", async () => {
    const before = (await t.admin("GET", `/sandbox/users/${buyer.userId}/balances`)).json();
    const refused = await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [
        { goods_id: stickerId, max_price: 10, quantity: 2 },
        { goods_id: stickerId, max_price: "abc", quantity: 1 },
      ],
    });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().msg, /^items\.1\.max_price: /);
    assert.deepEqual((await t.admin("GET", `/sandbox/users/${buyer.userId}/balances`)).json(), before);
  });

  /** The bid `bid(key)` sends, claimed as its request would be by a request that then stops. */
  const claimAsStoppedRequest = async (key: string): Promise<HeldKey> => {
    const claim = await claimIdempotencyKey(asBuyer(), {
      userId: Number(buyer.userId),
      key,
      operationId: "createBuyOrder",
      // The body as validation leaves it (defaults filled in), which is what the hash covers.
      requestHash: idempotencyRequestHash("POST", "/api/market/developer/buy_order", {
        game: "cs2",
        goods_id: stickerId,
        price: 1,
        num: 1,
        allow_tradable_cooldown: false,
      }),
    });
    assert.equal(claim.kind, "claimed");
    return (claim as { held: HeldKey }).held;
  };
  const asBuyer = (held?: HeldKey): DomainContext => ({
    ...t.ctx,
    actor: { kind: "user", userId: Number(buyer.userId) },
    effects: { committed: 0, ...(held ? { key: held } : {}) },
  });
  /** What the stopped request would have done: create its bid, counted on the key it held. */
  const bidAs = (held: HeldKey) => createBuyOrder(asBuyer(held), { goodsId: stickerId, price: 1, num: 1 });
  const advance = (seconds: number) => t.admin("POST", "/sandbox/clock/advance", { seconds });

  test("a key whose request died having committed nothing is taken over 30 s on: the retry runs once", async () => {
    const before = await orderCount(buyer.userId);
    await claimAsStoppedRequest("died-clean");
    const early = await bid("died-clean");
    assert.equal(early.statusCode, 409);
    assert.match(early.json().msg, /still being answered/);
    await advance(31);
    const retried = await bid("died-clean");
    assert.equal(retried.statusCode, 200, retried.body);
    assert.equal(retried.headers["idempotent-replayed"], undefined);
    const again = await bid("died-clean");
    assert.equal(again.headers["idempotent-replayed"], "true");
    assert.equal(again.body, retried.body);
    assert.equal(await orderCount(buyer.userId), before + 1);
  });

  test("a key whose request died after committing answers 409 that changes stand, and the retry does nothing", async () => {
    const before = await orderCount(buyer.userId);
    const held = await claimAsStoppedRequest("died-after-effect");
    assert.equal((await bidAs(held)).ok, true);
    await advance(31);
    const retried = await bid("died-after-effect");
    assert.equal(retried.statusCode, 409, retried.body);
    assert.equal(retried.json().code, "Invalid State");
    assert.match(retried.json().msg, /failed after committing changes, which stand/);
    const again = await bid("died-after-effect");
    assert.equal(again.statusCode, 409);
    assert.equal(again.body, retried.body);
    assert.equal(await orderCount(buyer.userId), before + 1, "only the first request's bid");
  });

  test("a request that outlives its lease loses its key to the retry and cannot commit after it", async () => {
    const before = await orderCount(buyer.userId);
    const slow = await claimAsStoppedRequest("outlived");
    await advance(31);
    const retried = await bid("outlived");
    assert.equal(retried.statusCode, 200, retried.body);
    await assert.rejects(bidAs(slow), IdempotencyKeyTakenOver);
    await completeIdempotencyKey(asBuyer(), { ...slow, statusCode: 200, body: "{}" });
    const replay = await bid("outlived");
    assert.equal(replay.body, retried.body, "the retry's answer stays the key's");
    assert.equal(await orderCount(buyer.userId), before + 1);
  });

  test("a request that renews its lease keeps its key past 30 s, and its answer is the key's", async () => {
    const before = await orderCount(buyer.userId);
    const alive = await claimAsStoppedRequest("renewed");
    await advance(20);
    assert.equal(await renewKeyLease(asBuyer(), alive), true);
    await advance(20);
    const duplicate = await bid("renewed");
    assert.equal(duplicate.statusCode, 409);
    assert.match(duplicate.json().msg, /still being answered/);
    assert.equal((await bidAs(alive)).ok, true, "the first request commits: its key is still its own");
    await completeIdempotencyKey(asBuyer(), { ...alive, statusCode: 200, body: '{"first":true}' });
    const replay = await bid("renewed");
    assert.equal(replay.headers["idempotent-replayed"], "true");
    assert.equal(replay.body, '{"first":true}');
    assert.equal(await orderCount(buyer.userId), before + 1);
  });

  test("a 500 after a commit is never replayed: the key answers 409 that changes stand", async () => {
    // A bid commits its order, then its crossing fails inside the database. The listing asks
    // more than the bids standing so far offer, so that only the new bid crosses it.
    const seller = await createReadyTrader(t);
    const [assetid] = await grant(t, seller.platformid, { goods_id: stickerId, count: 1 });
    await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price: 6 }],
    });
    await sql`
      CREATE FUNCTION fail_every_trade() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'the database failed'; END $$
    `.execute(t.database.db);
    await sql`
      CREATE TRIGGER fail_every_trade BEFORE INSERT ON trades FOR EACH ROW EXECUTE FUNCTION fail_every_trade()
    `.execute(t.database.db);
    const before = await orderCount(buyer.userId);
    try {
      const failed = await bid("fails-after-commit", 6);
      assert.equal(failed.statusCode, 500, failed.body);
      assert.match(failed.json().msg, /after committing changes, which stand/);
      const retried = await bid("fails-after-commit", 6);
      assert.equal(retried.statusCode, 409);
      assert.equal(retried.headers["idempotent-replayed"], "true");
      assert.match(retried.json().msg, /failed after committing changes, which stand/);
    } finally {
      await sql`DROP TRIGGER fail_every_trade ON trades`.execute(t.database.db);
      await sql`DROP FUNCTION fail_every_trade()`.execute(t.database.db);
    }
    assert.equal(await orderCount(buyer.userId), before + 1, "the bid was made once");
    await t.assertLedger();
  });

  test("a malformed key is refused by name; reads ignore the header", async () => {
    const bad = await bid("has space");
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().msg, /^Idempotency-Key: /);
    const tooLong = await bid("k".repeat(256));
    assert.equal(tooLong.statusCode, 400);
    const read = await t.app.inject({
      method: "GET",
      url: "/api/market/developer/balance",
      headers: { authorization: `Bearer ${buyer.token}`, "idempotency-key": "has space" },
    });
    assert.equal(read.statusCode, 200);
  });

  test("a POST that only reads ignores the key: every call answers afresh", async () => {
    const list = () =>
      t.app.inject({
        method: "POST",
        url: "/api/market/developer/purchase/orders/list",
        headers: { authorization: `Bearer ${buyer.token}`, "idempotency-key": "a-read" },
        payload: { game: "cs2" },
      });
    assert.equal((await list()).statusCode, 200);
    const again = await list();
    assert.equal(again.statusCode, 200);
    assert.equal(again.headers["idempotent-replayed"], undefined);
  });

  test("a request refused before it runs (auth, validation) does not take the key", async () => {
    const unauthenticated = await bid("late-key", 1, "smk_nobody");
    assert.equal(unauthenticated.statusCode, 401);
    const invalid = await t.app.inject({
      method: "POST",
      url: "/api/market/developer/buy_order",
      headers: { authorization: `Bearer ${buyer.token}`, "idempotency-key": "late-key" },
      payload: { game: "cs2", goods_id: stickerId, price: 1, num: 0 },
    });
    assert.equal(invalid.statusCode, 400);
    const valid = await bid("late-key");
    assert.equal(valid.statusCode, 200);
    assert.equal(valid.headers["idempotent-replayed"], undefined);
  });
});
