import assert from "node:assert/strict";
import { createFirstAdmin } from "../../src/domain/staff/create-staff.ts";
import { setCookieValue, type TestApp } from "./test-app.ts";

/** The password every test's staff account is made with. */
export const STAFF_PASSWORD = "staff password 1";

/** A staff member signed in: the cookies to send and the CSRF token a write repeats in its header. */
export interface StaffSession {
  cookie: string;
  csrf: string;
}

/** Signs a staff member in at `/ops/api/login` (docs/design/back-office.md#staff-sign-in). */
export async function staffSignIn(
  t: TestApp,
  email: string,
  password = STAFF_PASSWORD,
): Promise<StaffSession> {
  const answer = await t.app.inject({ method: "POST", url: "/ops/api/login", payload: { email, password } });
  assert.equal(answer.statusCode, 200, answer.body);
  const session = setCookieValue(answer.headers["set-cookie"], "staff_session");
  const csrf = setCookieValue(answer.headers["set-cookie"], "ops_csrf_token");
  assert.ok(session && csrf);
  return { cookie: `staff_session=${session}; ops_csrf_token=${csrf}`, csrf };
}

/** A request to the operator API as `staff`; a write carries the CSRF header. */
export function opsRequest(
  t: TestApp,
  staff: StaffSession,
  method: "GET" | "POST",
  url: string,
  body?: object,
) {
  return t.app.inject({
    method,
    url,
    headers: { cookie: staff.cookie, ...(method === "POST" ? { "x-csrftoken": staff.csrf } : {}) },
    ...(body ? { payload: body } : {}),
  });
}

/** The first admin, who then hires one staff member of each other role; each signed in, by role. */
export async function staffOfEveryRole(t: TestApp): Promise<Record<string, StaffSession>> {
  assert.ok((await createFirstAdmin(t.ctx, { email: "boss@ops.example", password: STAFF_PASSWORD })).ok);
  const staff: Record<string, StaffSession> = { admin: await staffSignIn(t, "boss@ops.example") };
  for (const role of ["support", "finance", "risk"]) {
    const made = await opsRequest(t, staff.admin!, "POST", "/ops/api/staff", {
      email: `${role}@ops.example`,
      password: STAFF_PASSWORD,
      role,
      reason: `hiring ${role}`,
    });
    assert.equal(made.statusCode, 200, made.body);
    staff[role] = await staffSignIn(t, `${role}@ops.example`);
  }
  return staff;
}
