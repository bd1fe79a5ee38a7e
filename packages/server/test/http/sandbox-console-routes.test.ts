import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, grantOne, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";

/**
 * The sandbox routes the console reads and moves money with: withdrawals as their own operation,
 * a user's events read by the admin, and trade offers filtered to one user, a page at a time.
 */
describe("sandbox routes of the console", () => {
  let t: TestApp;
  let alice: PlatformFixture;
  let bob: PlatformFixture;
  let carol: PlatformFixture;
  const tokensOf = async (userId: string) =>
    (await t.admin("GET", `/sandbox/users/${userId}`)).json().tokens.length as number;

  before(async () => {
    t = await createTestApp({ catalog: true });
    alice = await createReadyTrader(t, "alice");
    bob = await createReadyTrader(t, "bob");
    carol = await createReadyTrader(t, "carol");
    // Three offers from alice to bob, one from carol to bob: alice sees her three only.
    for (const [from, to] of [
      [alice, bob],
      [alice, bob],
      [alice, bob],
      [carol, bob],
    ] as const) {
      const assetid = await grantOne(t, from.platformid, { market_hash_name: STICKER });
      const sent = await t.admin("POST", "/sandbox/platform/offers", {
        platformid: from.platformid,
        trade_url: to.tradeUrl,
        assetids: [assetid],
      });
      assert.equal(sent.statusCode, 200, sent.body);
    }
  });
  after(() => t.close());

  test("happy: a negative deposit is refused naming amount and moves nothing; a withdrawal is explicit", async () => {
    await t.fund(alice.userId, "balance", 20);
    const negative = await t.admin("POST", `/sandbox/users/${alice.userId}/funds`, {
      account: "balance",
      amount: "-5",
    });
    assert.equal(negative.statusCode, 400);
    assert.equal(negative.json().code, "Invalid Argument");
    assert.match(negative.json().msg, /^amount: must not be negative$/);
    assert.equal((await t.admin("GET", `/sandbox/users/${alice.userId}/balances`)).json().balance, "20.00");
    const withdrawn = await t.admin("POST", `/sandbox/users/${alice.userId}/withdrawals`, {
      account: "balance",
      amount: "5",
    });
    assert.equal(withdrawn.statusCode, 200, withdrawn.body);
    assert.equal(withdrawn.json().balance, "15.00");
    const negativeOut = await t.admin("POST", `/sandbox/users/${alice.userId}/withdrawals`, {
      account: "balance",
      amount: -5,
    });
    assert.equal(negativeOut.statusCode, 400);
    assert.match(negativeOut.json().msg, /^amount: must not be negative$/);
    await t.assertLedger();
  });

  test("happy: the admin reads a user's events, filtered and on from an id, and no token is made", async () => {
    const before = await tokensOf(bob.userId);
    await t.fund(bob.userId, "balance", 3);
    await t.fund(bob.userId, "wallet", 4);
    const all = await t.admin("GET", `/sandbox/users/${bob.userId}/events?limit=1000`);
    assert.equal(all.statusCode, 200, all.body);
    const items = all.json().items as Array<{ id: string; type: string }>;
    assert.ok(items.some((event) => event.type === "balance.changed"));
    // The same page the user reads with a token of theirs.
    const asUser = await t.as(bob.token, "GET", "/api/market/developer/events?limit=1000");
    assert.deepEqual(all.json(), asUser.json());
    const first = await t.admin("GET", `/sandbox/users/${bob.userId}/events?limit=1`);
    assert.equal(first.json().items.length, 1);
    assert.equal(first.json().has_more, true);
    const rest = await t.admin(
      "GET",
      `/sandbox/users/${bob.userId}/events?limit=1000&after=${first.json().items[0].id}`,
    );
    assert.deepEqual(rest.json().items, items.slice(1));
    const filtered = await t.admin("GET", `/sandbox/users/${bob.userId}/events?limit=1000&types=balance.*`);
    assert.ok(filtered.json().items.every((event: { type: string }) => event.type.startsWith("balance.")));
    assert.equal(await tokensOf(bob.userId), before);
  });

  test("error: events of an unknown user are Not Found; a bad filter or limit names its field", async () => {
    assert.equal((await t.admin("GET", "/sandbox/users/999999/events")).statusCode, 404);
    const badType = await t.admin("GET", `/sandbox/users/${bob.userId}/events?types=nonsense.kind`);
    assert.equal(badType.statusCode, 400);
    assert.match(badType.json().msg, /^types: /);
    const badLimit = await t.admin("GET", `/sandbox/users/${bob.userId}/events?limit=1001`);
    assert.equal(badLimit.statusCode, 400);
    assert.match(badLimit.json().msg, /^limit: /);
    const badId = await t.admin("GET", "/sandbox/users/abc/events");
    assert.equal(badId.statusCode, 400);
    assert.match(badId.json().msg, /^user_id: /);
  });

  test("happy: offers of one user, a page at a time with the whole count", async () => {
    const first = await t.admin("GET", `/sandbox/platform/offers?user_id=${alice.userId}&page_size=2`);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().total_count, 3);
    assert.equal(first.json().page_num, 1);
    assert.equal(first.json().items.length, 2);
    const second = await t.admin(
      "GET",
      `/sandbox/platform/offers?user_id=${alice.userId}&page_size=2&page_num=2`,
    );
    assert.equal(second.json().items.length, 1);
    const ids = [...first.json().items, ...second.json().items].map(
      (offer: { tradeofferid: string; sender: string }) => {
        assert.equal(offer.sender, alice.platformid);
        return Number(offer.tradeofferid);
      },
    );
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => b - a),
      "newest first",
    );
    // The receiver sees every offer it received; the whole world holds them all.
    assert.equal(
      (await t.admin("GET", `/sandbox/platform/offers?user_id=${bob.userId}`)).json().total_count,
      4,
    );
    assert.ok((await t.admin("GET", "/sandbox/platform/offers")).json().total_count >= 4);
    // A user with no bound account has no offers.
    const loner = await t.createUser();
    const none = await t.admin("GET", `/sandbox/platform/offers?user_id=${loner.userId}`);
    assert.deepEqual(none.json(), { items: [], page_num: 1, page_size: 500, total_count: 0 });
  });

  test("error: offers of an unknown user are Not Found; bad filters and pages name the field", async () => {
    assert.equal((await t.admin("GET", "/sandbox/platform/offers?user_id=999999")).statusCode, 404);
    for (const [query, field] of [
      ["user_id=abc", "user_id"],
      ["page_size=501", "page_size"],
      ["page_num=0", "page_num"],
    ]) {
      const response = await t.admin("GET", `/sandbox/platform/offers?${query}`);
      assert.equal(response.statusCode, 400, query);
      assert.match(response.json().msg, new RegExp(`^${field}: `), query);
    }
  });

  test("security: a user's token cannot call these routes", async () => {
    for (const [method, url, body] of [
      ["POST", `/sandbox/users/${alice.userId}/withdrawals`, { account: "balance", amount: "1" }],
      ["POST", `/sandbox/users/${alice.userId}/funds`, { account: "balance", amount: "1" }],
      ["GET", `/sandbox/users/${alice.userId}/events`, undefined],
      ["GET", `/sandbox/platform/offers?user_id=${alice.userId}`, undefined],
    ] as const) {
      const response = await t.as(alice.token, method, url, body);
      assert.equal(response.statusCode, 401, `${method} ${url}`);
      assert.equal(response.json().code, "Unauthorized");
    }
    assert.equal((await t.admin("GET", `/sandbox/users/${alice.userId}/balances`)).json().balance, "15.00");
  });
});
