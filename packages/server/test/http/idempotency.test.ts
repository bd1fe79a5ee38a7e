import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, goodsIdOf, type PlatformFixture } from "../support/platform-world.ts";
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
