import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MarketApiError, SandboxClient, StaffClient, WebClient } from "@skinmarket/client";
import { createFirstAdmin } from "../../src/domain/staff/create-staff.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../support/test-app.ts";

/** The SDK's account and staff methods over real HTTP, with the cookies each client keeps. */
describe("the SDK's accounts for people and back office", () => {
  let t: TestApp;
  let baseUrl: string;
  before(async () => {
    t = await createTestApp();
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => t.close());

  test("a person signs up, confirms from the sandbox mailbox, signs in, reads the history and closes", async () => {
    const web = new WebClient({ baseUrl });
    const sandbox = new SandboxClient({ baseUrl, token: ADMIN_TOKEN });
    const email = `sdk-${process.pid}@example.com`;
    await web.account.signUp({ nickname: `sdk-${process.pid}`, email, password: "sdk password 123" });
    const [mail] = (await sandbox.listMails({ to: email })).items;
    const code = /code=([\w-]{43})/.exec(mail!.text)![1]!;
    assert.equal((await web.account.confirmEmail(code)).data.email, email);
    await web.login(`sdk-${process.pid}`, "sdk password 123");
    const history = await web.account.listSignIns();
    assert.equal(history.data.items[0]!.method, "password");
    const closed = await web.account.closeAccount(`sdk-${process.pid}`);
    assert.ok(closed.data.closed_at > 0);
    await assert.rejects(
      web.account.listSignIns(),
      (error: unknown) => error instanceof MarketApiError && error.code === "Login Required",
    );
  });

  test("staff sign in, act with a reason and read the audit; a role's refusal is an API error", async () => {
    assert.ok(
      (await createFirstAdmin(t.ctx, { email: "sdk-admin@ops.example", password: "admin password 1" })).ok,
    );
    const admin = new StaffClient({ baseUrl });
    assert.equal((await admin.signIn("sdk-admin@ops.example", "admin password 1")).data.role, "admin");
    await admin.createStaff({
      email: "sdk-support@ops.example",
      password: "support password",
      role: "support",
      reason: "new hire",
    });
    assert.equal((await admin.listStaff()).data.items.length, 2);
    const user = await t.createUser();
    const support = new StaffClient({ baseUrl });
    await support.signIn("sdk-support@ops.example", "support password");
    assert.equal((await support.signOutUser(user.userId, "leaked token, ticket 7")).data.tokens_revoked, 1);
    await assert.rejects(
      support.listActions(),
      (error: unknown) => error instanceof MarketApiError && error.code === "Access Denied",
    );
    assert.equal((await support.findUsers(user.nickname)).data.items[0]!.user_id, user.userId);
    const credited = await support.adjustBalance(user.userId, {
      direction: "credit",
      amount: "5",
      reason: "goodwill, ticket 8",
    });
    assert.equal(credited.data.balance_after, "5.00");
    assert.equal((await support.getUser(user.userId)).data.balances.balance, "5.00");
    assert.deepEqual((await admin.freezeAccount(user.userId, { withdrawals: true, reason: "review" })).data, {
      user_id: user.userId,
      trading: false,
      withdrawals: true,
    });
    await assert.rejects(
      admin.refundTrade("999999", { from: "house", reason: "no such trade" }),
      (error: unknown) => error instanceof MarketApiError && error.code === "Not Found",
    );
    await t.assertLedger();
    const audit = await admin.listActions({ limit: 10 });
    assert.deepEqual(
      audit.data.items.map((item) => item.operation),
      ["user.freeze", "money.adjust", "user.sign_out", "staff.create", "staff.create"],
    );
    assert.equal((await admin.me()).data.email, "sdk-admin@ops.example");
    const supportId = (await support.me()).data.staff_id;
    assert.notEqual((await admin.disableStaff(supportId, "left")).data.disabled_at, null);
    assert.equal(support.signedIn, true, "the client still holds the cookie the server no longer takes");
    await assert.rejects(
      support.me(),
      (error: unknown) => error instanceof MarketApiError && error.code === "Login Required",
    );
    await admin.signOut();
    assert.equal(admin.signedIn, false);
  });
});
