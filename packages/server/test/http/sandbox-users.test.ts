import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestApp, type TestApp } from "../support/test-app.ts";

/** GET /sandbox/users and /sandbox/users/:user_id: who exists, and what each holds. */
describe("sandbox users", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test("happy: the list pages through every user, oldest first, with the total", async () => {
    const first = await t.createUser({ nickname: "roll-first" });
    const second = await t.createUser({ nickname: "roll-second", access_level: "enterprise" });
    const all = (await t.admin("GET", "/sandbox/users?page_size=500")).json();
    const ids = all.items.map((user: { user_id: string }) => user.user_id);
    assert.ok(ids.indexOf(first.userId) < ids.indexOf(second.userId), "oldest first");
    assert.equal(all.total_count, all.items.length);
    const mine = all.items.find((user: { user_id: string }) => user.user_id === second.userId);
    assert.equal(mine.nickname, "roll-second");
    assert.equal(mine.access_level, "enterprise");
    assert.equal(typeof mine.created_at, "number");

    const page = (await t.admin("GET", "/sandbox/users?page_size=1&page_num=2")).json();
    assert.deepEqual(
      { items: page.items.length, page_num: page.page_num, page_size: page.page_size },
      { items: 1, page_num: 2, page_size: 1 },
    );
    assert.equal(page.total_page, all.total_count);
    assert.equal(page.items[0].user_id, ids[1]);
  });

  test("happy: a user shows balances, tokens without their secrets, and bound platform accounts", async () => {
    const user = await t.createUser({ nickname: "shown" });
    await t.fund(user.userId, "balance", 12.5);
    const second = (await t.admin("POST", `/sandbox/users/${user.userId}/tokens`)).json();
    await t.admin("DELETE", `/sandbox/tokens/${second.token_id}`);
    const account = (await t.admin("POST", "/sandbox/platform/accounts", { user_id: user.userId })).json();

    const response = await t.admin("GET", `/sandbox/users/${user.userId}`);
    assert.equal(response.statusCode, 200);
    const shown = response.json();
    assert.equal(shown.user_id, user.userId);
    assert.equal(shown.nickname, "shown");
    assert.equal(shown.buy_order_status, "online");
    assert.deepEqual(shown.balances, { balance: "12.50", margin: "0.00", wallet: "0.00", escrow: "0.00" });
    assert.deepEqual(
      shown.tokens.map((token: { token_id: string; revoked_at: number | null }) => [
        token.token_id,
        token.revoked_at === null,
      ]),
      [
        [user.tokenId, true],
        [second.token_id, false],
      ],
    );
    assert.ok(user.token.startsWith(shown.tokens[0].prefix));
    assert.doesNotMatch(response.body, new RegExp(user.token), "never the token itself");
    assert.deepEqual(
      shown.platform_accounts.map((bound: { platformid: string }) => bound.platformid),
      [account.platformid],
    );
  });

  test("error: an unknown user is Not Found; a malformed id or page names the field", async () => {
    const unknown = await t.admin("GET", "/sandbox/users/999999");
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, "Not Found");
    const malformed = await t.admin("GET", "/sandbox/users/abc");
    assert.equal(malformed.statusCode, 400);
    assert.match(malformed.json().msg, /^user_id:/);
    const page = await t.admin("GET", "/sandbox/users?page_size=501");
    assert.equal(page.statusCode, 400);
    assert.match(page.json().msg, /^page_size:/);
  });

  test("security: without the admin token, or with a user's token, both are Unauthorized", async () => {
    const user = await t.createUser();
    for (const url of ["/sandbox/users", `/sandbox/users/${user.userId}`]) {
      assert.equal((await t.app.inject({ method: "GET", url })).statusCode, 401);
      const asUser = await t.as(user.token, "GET", url);
      assert.equal(asUser.statusCode, 401);
      assert.equal(asUser.json().code, "Unauthorized");
    }
  });
});
