import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { opsRequest as ops, staffOfEveryRole, type StaffSession } from "../support/staff-sessions.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../support/test-app.ts";

/** Finding users, a user's page and money by hand (docs/design/back-office-money.md), by role. */
for (const sandbox of [true, false]) {
  describe(`money by hand and finding users, sandbox ${sandbox ? "on" : "off"}`, () => {
    let t: TestApp;
    const staff: Record<string, StaffSession> = {};
    let userId: string;
    let nickname: string;
    before(async () => {
      t = await createTestApp({ sandbox });
      Object.assign(staff, await staffOfEveryRole(t));
      nickname = `Money${sandbox ? "On" : "Off"}User`;
      const row = await t.ctx.db
        .insertInto("users")
        .values({
          nickname,
          password_hash: "x",
          access_level: "developer",
          created_at: new Date(),
          updated_at: new Date(),
        })
        .returning("user_id")
        .executeTakeFirstOrThrow();
      userId = String(row.user_id);
      await t.ctx.db
        .insertInto("ledger_accounts")
        .values(
          (["balance", "margin", "wallet", "escrow"] as const).map((kind) => ({
            user_id: row.user_id,
            kind,
          })),
        )
        .execute();
      await t.ctx.db
        .insertInto("bound_platform_accounts")
        .values({
          platformid: `7656119${userId.padStart(10, "0")}`,
          user_id: row.user_id,
          bound_at: new Date(),
        })
        .execute();
    });
    after(() => t.close());

    const balance = async () =>
      (await ops(t, staff.admin!, "GET", `/ops/api/users/${userId}`)).json().data.balances.balance;

    test("happy: finance credits and debits by hand; each is one entry with its staff action", async () => {
      const credit = await ops(t, staff.finance!, "POST", `/ops/api/users/${userId}/adjustments`, {
        direction: "credit",
        amount: "120.50",
        reason: "lost deposit found, ticket 9",
      });
      assert.equal(credit.statusCode, 200, credit.body);
      assert.equal(credit.json().data.balance_before, "0.00");
      assert.equal(credit.json().data.balance_after, "120.50");
      await t.assertLedger();
      const debit = await ops(t, staff.finance!, "POST", `/ops/api/users/${userId}/adjustments`, {
        direction: "debit",
        amount: 20.5,
        reason: "double credit reversed",
      });
      assert.equal(debit.statusCode, 200, debit.body);
      assert.equal(await balance(), "100.00");
      await t.assertLedger();
      const house = await t.ctx.db
        .selectFrom("ledger_accounts")
        .select("balance")
        .where("kind", "=", "adjustments")
        .executeTakeFirstOrThrow();
      assert.equal(Number(house.balance), -10_000, "the house's side is minus what it gave");
      const entries = await t.ctx.db
        .selectFrom("journal_entries")
        .select("entry_id")
        .where("kind", "=", "adjustment")
        .execute();
      assert.equal(entries.length, 2);
      const audit = (await ops(t, staff.admin!, "GET", `/ops/api/audit?subject=user:${userId}`)).json().data
        .items;
      assert.deepEqual(
        audit.map((item: { operation: string; reason: string }) => [item.operation, item.reason]),
        [
          ["money.adjust", "double credit reversed"],
          ["money.adjust", "lost deposit found, ticket 9"],
        ],
      );
      assert.deepEqual(audit[0].before, { balance: "120.50" });
      assert.equal(audit[0].after.balance, "100.00");
      assert.equal(audit[0].after.entry_id, Number(debit.json().data.entry_id));
    });

    test("happy: support gives a goodwill credit within its limit; the user's page shows it", async () => {
      const before = await balance();
      const credit = await ops(t, staff.support!, "POST", `/ops/api/users/${userId}/adjustments`, {
        direction: "credit",
        amount: "50",
        reason: "goodwill for a late delivery",
      });
      assert.equal(credit.statusCode, 200, credit.body);
      assert.equal(Number(await balance()) - Number(before), 50);
      const page = await ops(t, staff.support!, "GET", `/ops/api/users/${userId}`);
      assert.equal(page.statusCode, 200, page.body);
      const data = page.json().data;
      assert.equal(data.user.nickname, nickname);
      assert.deepEqual(data.trades, []);
      assert.equal(data.staff_actions[0].operation, "money.adjust");
      assert.equal(data.staff_actions[0].staff_email, "support@ops.example");
      await t.assertLedger();
    });

    test("happy: every role finds a user by nickname, id or platform id", async () => {
      const platformId = `7656119${userId.padStart(10, "0")}`;
      for (const role of ["support", "finance", "risk", "admin"]) {
        for (const q of [nickname.slice(0, 7).toLowerCase(), userId, platformId]) {
          const found = await ops(t, staff[role]!, "GET", `/ops/api/users?q=${encodeURIComponent(q)}`);
          assert.equal(found.statusCode, 200, found.body);
          const ids = found.json().data.items.map((item: { user_id: string }) => item.user_id);
          assert.ok(ids.includes(userId), `${role} finds by ${q}`);
          const item = found
            .json()
            .data.items.find((candidate: { user_id: string }) => candidate.user_id === userId);
          assert.deepEqual(item.platform_ids, [platformId]);
        }
      }
      const wildcard = await ops(t, staff.support!, "GET", "/ops/api/users?q=%25");
      assert.deepEqual(wildcard.json().data.items, [], "% is a character, not a wildcard");
    });

    test("error: a debit never overdraws; bad amounts and reasons are refused naming the field", async () => {
      const before = await balance();
      const over = await ops(t, staff.admin!, "POST", `/ops/api/users/${userId}/adjustments`, {
        direction: "debit",
        amount: "1000000",
        reason: "too much",
      });
      assert.equal(over.statusCode, 409, over.body);
      assert.match(over.json().error, /insufficient balance/i);
      for (const [body, field] of [
        [{ direction: "credit", amount: "-5", reason: "negative" }, /^amount/],
        [{ direction: "credit", amount: "0", reason: "zero" }, /^amount/],
        [{ direction: "credit", amount: "1.234", reason: "fractions" }, /^amount/],
        [{ direction: "credit", amount: "1", reason: "   " }, /^reason/],
        [{ direction: "credit", amount: "1" }, /reason/],
        [{ direction: "sideways", amount: "1", reason: "which way" }, /direction/],
      ] as const) {
        const answer = await ops(t, staff.finance!, "POST", `/ops/api/users/${userId}/adjustments`, body);
        assert.equal(answer.statusCode, 400, answer.body);
        assert.match(answer.json().error, field);
      }
      const missing = await ops(t, staff.finance!, "POST", "/ops/api/users/999999/adjustments", {
        direction: "credit",
        amount: "1",
        reason: "nobody",
      });
      assert.equal(missing.statusCode, 404);
      assert.equal((await ops(t, staff.admin!, "GET", "/ops/api/users/999999")).statusCode, 404);
      const closed = await t.ctx.db
        .insertInto("users")
        .values({
          nickname: `Closed${sandbox ? "On" : "Off"}`,
          password_hash: "x",
          access_level: "developer",
          created_at: new Date(),
          updated_at: new Date(),
          closed_at: new Date(),
        })
        .returning("user_id")
        .executeTakeFirstOrThrow();
      const toClosed = await ops(t, staff.admin!, "POST", `/ops/api/users/${closed.user_id}/adjustments`, {
        direction: "credit",
        amount: "1",
        reason: "money nobody can spend",
      });
      assert.equal(toClosed.statusCode, 409, toClosed.body);
      assert.match(toClosed.json().error, /^user_id: the account is closed/);
      assert.equal((await ops(t, staff.admin!, "GET", "/ops/api/users?q=")).statusCode, 400);
      assert.equal(await balance(), before);
      await t.assertLedger();
    });

    test("security: each role's limits: support credits only up to its limit, risk moves nothing", async () => {
      const before = await balance();
      const cases: Array<[string, object, RegExp]> = [
        [
          "support",
          { direction: "credit", amount: "50.01" },
          /amount: the support role may credit at most 50\.00/,
        ],
        ["support", { direction: "debit", amount: "1" }, /the support role may not debit/],
        [
          "finance",
          { direction: "credit", amount: "10000.01" },
          /amount: the finance role may credit at most/,
        ],
        ["risk", { direction: "credit", amount: "1" }, /the risk role may not money\.adjust/],
      ];
      for (const [role, body, message] of cases) {
        const answer = await ops(t, staff[role]!, "POST", `/ops/api/users/${userId}/adjustments`, {
          ...body,
          reason: "probing the limits",
        });
        assert.equal(answer.statusCode, 403, `${role}: ${answer.body}`);
        assert.match(answer.json().error, message);
      }
      const big = await ops(t, staff.admin!, "POST", `/ops/api/users/${userId}/adjustments`, {
        direction: "credit",
        amount: "50000",
        reason: "an admin has no limit",
      });
      assert.equal(big.statusCode, 200, big.body);
      assert.equal(Number(await balance()) - Number(before), 50_000);
      await t.assertLedger();
    });

    test("security: a user's session, the sandbox admin token and a missing CSRF token are refused", async () => {
      const noCsrf = await t.app.inject({
        method: "POST",
        url: `/ops/api/users/${userId}/adjustments`,
        headers: { cookie: staff.admin!.cookie },
        payload: { direction: "credit", amount: "1", reason: "forged write" },
      });
      assert.equal(noCsrf.statusCode, 403);
      for (const url of [`/ops/api/users/${userId}`, `/ops/api/users?q=${userId}`]) {
        const token = await t.app.inject({
          method: "GET",
          url,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        assert.equal(token.statusCode, 401);
        assert.equal((await t.app.inject({ method: "GET", url })).statusCode, 401);
      }
    });
  });
}
