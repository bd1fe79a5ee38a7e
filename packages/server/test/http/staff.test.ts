import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { createFirstAdmin } from "../../src/domain/staff/create-staff.ts";
import { ROLE_OPERATIONS, type StaffOperation } from "../../src/domain/staff/staff-roles.ts";
import {
  opsRequest as ops,
  STAFF_PASSWORD as PASSWORD,
  staffSignIn,
  type StaffSession,
} from "../support/staff-sessions.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../support/test-app.ts";

function auditOf(answer: LightMyRequestResponse) {
  assert.equal(answer.statusCode, 200, answer.body);
  return answer.json<{ data: { items: Array<Record<string, unknown>> } }>().data.items;
}

let emails = 0;
const nextEmail = (role: string) => `${role}-${++emails}@ops.example`;

async function withStaff(
  t: TestApp,
  admin: StaffSession,
  role: string,
): Promise<{ email: string; session: StaffSession }> {
  const email = nextEmail(role);
  const made = await ops(t, admin, "POST", "/ops/api/staff", {
    email,
    password: PASSWORD,
    role,
    reason: `hiring ${role}`,
  });
  assert.equal(made.statusCode, 200, made.body);
  return { email, session: await staffSignIn(t, email) };
}

for (const sandbox of [true, false]) {
  describe(`staff and roles, sandbox ${sandbox ? "on" : "off"}`, () => {
    let t: TestApp;
    let admin: StaffSession;
    before(async () => {
      t = await createTestApp({ sandbox });
      const first = await createFirstAdmin(t.ctx, { email: "Boss@Ops.example", password: PASSWORD });
      assert.ok(first.ok);
      admin = await staffSignIn(t, "boss@ops.example");
    });
    after(async () => {
      await t.close();
    });

    test("happy: the admin makes a support agent; the audit shows who, when, why, before and after", async () => {
      const me = await ops(t, admin, "GET", "/ops/api/me");
      assert.equal(me.statusCode, 200, me.body);
      assert.equal(me.json().data.role, "admin");
      assert.deepEqual(me.json().data.operations, [...ROLE_OPERATIONS.admin]);
      const { email } = await withStaff(t, admin, "support");
      const items = auditOf(await ops(t, admin, "GET", "/ops/api/audit?limit=5"));
      assert.equal(items[0]!.operation, "staff.create");
      assert.equal(items[0]!.staff_email, "Boss@Ops.example");
      assert.equal(items[0]!.reason, "hiring support");
      assert.equal(items[0]!.before, null);
      const staffId = Number(String(items[0]!.subject).slice("staff:".length));
      assert.deepEqual(items[0]!.after, { staff_id: staffId, email, role: "support" });
      const firstAdmin = items.at(-1)!;
      assert.equal(firstAdmin.staff_id, null, "the first admin was made at the command line");
      assert.match(String(firstAdmin.reason), /command line/);
      const list = await ops(t, admin, "GET", "/ops/api/staff");
      assert.ok(list.json().data.items.some((member: { email: string }) => member.email === email));
    });

    test("error: a staff write without a real reason is refused naming the field, and changes nothing", async () => {
      const before = (await ops(t, admin, "GET", "/ops/api/staff")).json().data.items.length;
      const base = { email: nextEmail("x"), password: PASSWORD, role: "finance" };
      const missing = await ops(t, admin, "POST", "/ops/api/staff", base);
      assert.equal(missing.statusCode, 400);
      assert.match(missing.json().error, /reason/);
      const blank = await ops(t, admin, "POST", "/ops/api/staff", { ...base, reason: "     " });
      assert.equal(blank.statusCode, 400);
      assert.match(blank.json().error, /^reason: /);
      const badRole = await ops(t, admin, "POST", "/ops/api/staff", {
        ...base,
        role: "owner",
        reason: "why not",
      });
      assert.equal(badRole.statusCode, 400);
      assert.equal((await ops(t, admin, "GET", "/ops/api/staff")).json().data.items.length, before);
      const twice = await ops(t, admin, "POST", "/ops/api/staff", {
        ...base,
        email: "BOSS@ops.example",
        reason: "again",
      });
      assert.equal(twice.statusCode, 400);
      assert.match(twice.json().error, /^email: /);
    });

    test("error: the command line's first admin is refused once staff exist", async () => {
      const again = await createFirstAdmin(t.ctx, { email: "second@ops.example", password: PASSWORD });
      assert.equal(again.ok, false);
    });

    test("security: each role may do exactly what the role table says", async () => {
      const probes: Record<StaffOperation, (session: StaffSession) => Promise<LightMyRequestResponse>> = {
        "staff.create": (session) =>
          ops(t, session, "POST", "/ops/api/staff", {
            email: nextEmail("probe"),
            password: PASSWORD,
            role: "support",
            reason: "role table probe",
          }),
        "staff.list": (session) => ops(t, session, "GET", "/ops/api/staff"),
        "staff.disable": (session) =>
          ops(t, session, "POST", "/ops/api/staff/999999/disable", { reason: "role table probe" }),
        "audit.read": (session) => ops(t, session, "GET", "/ops/api/audit"),
        "user.sign_out": (session) =>
          ops(t, session, "POST", "/ops/api/users/999999/sign_out", { reason: "role table probe" }),
        "user.read": (session) => ops(t, session, "GET", "/ops/api/users/999999"),
        "money.adjust": (session) =>
          ops(t, session, "POST", "/ops/api/users/999999/adjustments", {
            direction: "credit",
            amount: "1",
            reason: "role table probe",
          }),
        "trade.refund": (session) =>
          ops(t, session, "POST", "/ops/api/trades/999999/refund", {
            from: "house",
            reason: "role table probe",
          }),
        "user.freeze": (session) =>
          ops(t, session, "POST", "/ops/api/users/999999/freeze", {
            trading: true,
            reason: "role table probe",
          }),
      };
      for (const role of ["support", "finance", "risk", "admin"] as const) {
        const { session } = role === "admin" ? { session: admin } : await withStaff(t, admin, role);
        for (const [operation, probe] of Object.entries(probes) as Array<
          [StaffOperation, (typeof probes)["staff.list"]]
        >) {
          const answer = await probe(session);
          const allowed = ROLE_OPERATIONS[role].includes(operation);
          // An allowed sign-out of a user who does not exist is 404: past the role check.
          if (allowed)
            assert.ok(
              answer.statusCode === 200 || answer.statusCode === 404,
              `${role} ${operation}: ${answer.body}`,
            );
          else {
            assert.equal(answer.statusCode, 403, `${role} ${operation}: ${answer.body}`);
            assert.match(
              answer.json().error,
              new RegExp(`the ${role} role may not ${operation.replace(".", "\\.")}`),
            );
          }
        }
      }
    });

    test("security: staff routes take only a staff session, and writes only with its CSRF token", async () => {
      const none = await t.app.inject({ method: "GET", url: "/ops/api/me" });
      assert.equal(none.statusCode, 401);
      const adminToken = await t.app.inject({
        method: "GET",
        url: "/ops/api/audit",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      assert.equal(adminToken.statusCode, 401, "the sandbox admin token is not staff");
      const forged = await t.app.inject({
        method: "POST",
        url: "/ops/api/staff",
        headers: { cookie: admin.cookie },
        payload: { email: nextEmail("forged"), password: PASSWORD, role: "admin", reason: "forged write" },
      });
      assert.equal(forged.statusCode, 403);
      assert.match(forged.json().error, /x-csrftoken: missing/);
      const wrong = await t.app.inject({
        method: "POST",
        url: "/ops/api/login",
        payload: { email: "boss@ops.example", password: "not the password" },
      });
      assert.equal(wrong.statusCode, 401);
      const staffAsUser = await t.app.inject({
        method: "GET",
        url: "/account/api/user/info",
        headers: { cookie: admin.cookie },
      });
      assert.equal(staffAsUser.statusCode, 401, "a staff session is not a user's");
    });

    test("happy: an admin disables a leaver, whose sessions end; an admin cannot disable themselves", async () => {
      const { email, session } = await withStaff(t, admin, "finance");
      const member = (await ops(t, admin, "GET", "/ops/api/staff"))
        .json()
        .data.items.find((item: { email: string }) => item.email === email);
      const disabled = await ops(t, admin, "POST", `/ops/api/staff/${member.staff_id}/disable`, {
        reason: "left the company",
      });
      assert.equal(disabled.statusCode, 200, disabled.body);
      assert.notEqual(disabled.json().data.disabled_at, null);
      assert.equal((await ops(t, session, "GET", "/ops/api/me")).statusCode, 401);
      const again = await t.app.inject({
        method: "POST",
        url: "/ops/api/login",
        payload: { email, password: PASSWORD },
      });
      assert.equal(again.statusCode, 401);
      const items = auditOf(await ops(t, admin, "GET", `/ops/api/audit?subject=staff:${member.staff_id}`));
      assert.deepEqual(
        items.map((item) => [item.operation, item.reason]),
        [
          ["staff.disable", "left the company"],
          ["staff.create", "hiring finance"],
        ],
      );
      assert.equal((items[0]!.before as { disabled: boolean }).disabled, false);
      assert.equal((items[0]!.after as { disabled: boolean }).disabled, true);
      const me = (await ops(t, admin, "GET", "/ops/api/me")).json().data;
      const self = await ops(t, admin, "POST", `/ops/api/staff/${me.staff_id}/disable`, { reason: "trying" });
      assert.equal(self.statusCode, 400);
      assert.match(self.json().error, /^staff_id: /);
    });

    test("security: signing out ends the staff session, and only with its token", async () => {
      const { session } = await withStaff(t, admin, "risk");
      const forged = await t.app.inject({
        method: "POST",
        url: "/ops/api/logout",
        headers: { cookie: session.cookie },
      });
      assert.equal(forged.statusCode, 403);
      const out = await ops(t, session, "POST", "/ops/api/logout");
      assert.equal(out.statusCode, 200, out.body);
      assert.equal((await ops(t, session, "GET", "/ops/api/me")).statusCode, 401);
    });

    if (sandbox) {
      test("happy: support signs a user out: every session and token ends, recorded with the reason", async () => {
        const user = await t.createUser();
        const web = await t.signIn(user.nickname, user.password);
        const { session } = await withStaff(t, admin, "support");
        const done = await ops(t, session, "POST", `/ops/api/users/${user.userId}/sign_out`, {
          reason: "account taken over, ticket 42",
        });
        assert.equal(done.statusCode, 200, done.body);
        assert.deepEqual(done.json().data, { user_id: user.userId, sessions_ended: 1, tokens_revoked: 1 });
        assert.equal((await t.web(web, "GET", "/account/api/user/info")).statusCode, 401);
        assert.equal((await t.as(user.token, "GET", "/api/market/developer/balance")).statusCode, 401);
        const items = auditOf(await ops(t, admin, "GET", `/ops/api/audit?subject=user:${user.userId}`));
        assert.equal(items.length, 1);
        assert.equal(items[0]!.reason, "account taken over, ticket 42");
        assert.deepEqual(items[0]!.before, { live_sessions: 1, live_tokens: 1 });
        assert.deepEqual(items[0]!.after, { live_sessions: 0, live_tokens: 0 });
        await t.assertLedger();
      });
    }
  });
}
