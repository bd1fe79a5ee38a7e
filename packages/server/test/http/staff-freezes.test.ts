import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { DomainContext } from "../../src/domain/context.ts";
import { createBuyOrder } from "../../src/domain/buy-orders/create-buy-order.ts";
import { supplyBuyOrder } from "../../src/domain/buy-orders/supply-buy-order.ts";
import { listItems } from "../../src/domain/listings/list-items.ts";
import { purchaseListing } from "../../src/domain/trades/purchase-listing.ts";
import { opsRequest as ops, staffOfEveryRole, type StaffSession } from "../support/staff-sessions.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

/** Freezes of an account's trading or withdrawals (docs/design/back-office-money.md#freezes). */
describe("freezes of trading and withdrawals", () => {
  let t: TestApp;
  const staff: Record<string, StaffSession> = {};
  before(async () => {
    t = await createTestApp();
    Object.assign(staff, await staffOfEveryRole(t));
  });
  after(() => t.close());

  test("happy: risk freezes trading; every trading verb refuses naming the freeze; the user sees it", async () => {
    const user = await t.createUser();
    await t.fund(user.userId, "balance", "100");
    const web = await t.signIn(user.nickname, user.password);
    const frozen = await ops(t, staff.risk!, "POST", `/ops/api/users/${user.userId}/freeze`, {
      trading: true,
      reason: "chargeback ring, case 12",
    });
    assert.equal(frozen.statusCode, 200, frozen.body);
    assert.deepEqual(frozen.json().data, { user_id: user.userId, trading: true, withdrawals: false });
    const info = await t.web(web, "GET", "/account/api/user/info");
    assert.deepEqual(info.json().data.frozen, { trading: true, withdrawals: false });

    const buy = await t.as(user.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [{ goods_id: 1, max_price: "10", quantity: 1 }],
    });
    assert.equal(buy.statusCode, 403, buy.body);
    assert.match(buy.body, /trading_frozen/);
    const as: DomainContext = { ...t.ctx, actor: { kind: "user", userId: Number(user.userId) } };
    for (const refused of [
      await purchaseListing(as, {
        listingId: 1,
        goodsId: 1,
        price: 1,
        allowCooldown: false,
        payAccount: "balance",
      }),
      await listItems(as, [{ assetid: "1", price: "1" }]),
      await createBuyOrder(as, { goodsId: 1, price: "1", num: 1 }),
      await supplyBuyOrder(as, { buyOrderId: "1", assetids: ["1"] }),
    ]) {
      assert.equal(refused.ok, false);
      if (!refused.ok) assert.match(refused.failure.message, /^trading_frozen: /);
    }
    // Withdrawals are apart: still allowed.
    const out = await t.admin("POST", `/sandbox/users/${user.userId}/withdrawals`, {
      account: "balance",
      amount: "1",
    });
    assert.equal(out.statusCode, 200, out.body);

    const thawed = await ops(t, staff.admin!, "POST", `/ops/api/users/${user.userId}/freeze`, {
      trading: false,
      reason: "case 12 closed, no fault",
    });
    assert.equal(thawed.statusCode, 200, thawed.body);
    const again = await createBuyOrder(as, { goodsId: 1, price: "1", num: 1 });
    if (!again.ok) assert.doesNotMatch(again.failure.message, /frozen/);
    await t.assertLedger();
  });

  test("happy: a withdrawal freeze refuses withdrawals only, and is in the audit with before and after", async () => {
    const user = await t.createUser();
    await t.fund(user.userId, "balance", "10");
    const frozen = await ops(t, staff.risk!, "POST", `/ops/api/users/${user.userId}/freeze`, {
      withdrawals: true,
      reason: "identity review",
    });
    assert.equal(frozen.statusCode, 200, frozen.body);
    const out = await t.admin("POST", `/sandbox/users/${user.userId}/withdrawals`, {
      account: "balance",
      amount: "1",
    });
    assert.equal(out.statusCode, 403, out.body);
    assert.match(out.json().error ?? out.body, /withdrawals_frozen/);
    const audit = await t.app.inject({
      method: "GET",
      url: `/ops/api/audit?subject=user:${user.userId}`,
      headers: { cookie: staff.admin!.cookie },
    });
    const [action] = audit.json().data.items;
    assert.equal(action.operation, "user.freeze");
    assert.deepEqual(action.before, { trading: false, withdrawals: false });
    assert.deepEqual(action.after, { trading: false, withdrawals: true });
    await t.assertLedger();
  });

  test("error: a freeze names what it freezes and why; an unknown user is 404", async () => {
    const user = await t.createUser();
    const nothing = await ops(t, staff.risk!, "POST", `/ops/api/users/${user.userId}/freeze`, {
      reason: "nothing to do",
    });
    assert.equal(nothing.statusCode, 400);
    assert.match(nothing.json().error, /^trading: /);
    const noReason = await ops(t, staff.risk!, "POST", `/ops/api/users/${user.userId}/freeze`, {
      trading: true,
    });
    assert.equal(noReason.statusCode, 400);
    assert.match(noReason.json().error, /reason/);
    const notBool = await ops(t, staff.risk!, "POST", `/ops/api/users/${user.userId}/freeze`, {
      trading: "yes",
      reason: "wrong type",
    });
    assert.equal(notBool.statusCode, 400);
    assert.match(notBool.json().error, /trading/);
    const missing = await ops(t, staff.risk!, "POST", "/ops/api/users/999999/freeze", {
      trading: true,
      reason: "nobody",
    });
    assert.equal(missing.statusCode, 404);
  });

  test("security: support and finance may not freeze; without the CSRF token nobody may", async () => {
    const user = await t.createUser();
    for (const role of ["support", "finance"]) {
      const answer = await ops(t, staff[role]!, "POST", `/ops/api/users/${user.userId}/freeze`, {
        trading: true,
        reason: "not my job",
      });
      assert.equal(answer.statusCode, 403, answer.body);
      assert.match(answer.json().error, new RegExp(`the ${role} role may not user\\.freeze`));
    }
    const forged = await t.app.inject({
      method: "POST",
      url: `/ops/api/users/${user.userId}/freeze`,
      headers: { cookie: staff.risk!.cookie },
      payload: { trading: true, reason: "forged" },
    });
    assert.equal(forged.statusCode, 403);
    const row = await t.ctx.db
      .selectFrom("users")
      .select("trading_frozen_at")
      .where("user_id", "=", Number(user.userId))
      .executeTakeFirstOrThrow();
    assert.equal(row.trading_frozen_at, null);
  });
});
