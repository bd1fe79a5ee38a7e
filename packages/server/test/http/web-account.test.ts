import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestApp, withCsrf, type TestApp } from "../support/test-app.ts";

function sessionCookie(setCookie: string | string[] | undefined): string {
  const header = [setCookie ?? []].flat().find((value) => value.startsWith("session="));
  assert.ok(header, "a session cookie is set");
  return header;
}

describe("web sign-in: /account/api/login, /logout, /user/info", () => {
  let t: TestApp;
  let user: { userId: string; nickname: string; password: string };
  before(async () => {
    t = await createTestApp();
    user = await t.createUser({ nickname: "webuser", password: "correct horse" });
  });
  after(() => t.close());

  const login = (nickname: string, password: string) =>
    t.app.inject({ method: "POST", url: "/account/api/login", payload: { nickname, password } });

  test("happy: login sets an HttpOnly, SameSite=Lax session cookie and answers the internal envelope", async () => {
    const response = await login("webuser", "correct horse");
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), {
      code: "OK",
      data: { user_id: user.userId, nickname: "webuser" },
      msg: null,
    });
    const cookie = sessionCookie(response.headers["set-cookie"]);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.match(cookie, /Path=\//);
  });

  test("happy: user info with the cookie, then logout ends the session", async () => {
    const cookie = sessionCookie((await login("webuser", "correct horse")).headers["set-cookie"]).split(
      ";",
    )[0]!;
    const info = await t.app.inject({ method: "GET", url: "/account/api/user/info", headers: { cookie } });
    assert.equal(info.statusCode, 200);
    const body = info.json();
    assert.equal(body.code, "OK");
    assert.equal(body.data.user_id, user.userId);
    assert.equal(body.data.access_level, "developer");
    // The real website's names beside ours: the same id, and no platform account bound yet.
    assert.equal(body.data.id, user.userId);
    assert.equal(body.data.nickname, "webuser");
    assert.equal(body.data.steamid, "");
    assert.equal(body.data.trade_url_state, 0);
    assert.equal(body.msg, null);

    const logout = await t.app.inject({
      method: "POST",
      url: "/account/api/logout",
      headers: withCsrf(cookie),
    });
    assert.equal(logout.statusCode, 200);
    assert.match(String(logout.headers["set-cookie"]), /session=;/);
    const afterLogout = await t.app.inject({
      method: "GET",
      url: "/account/api/user/info",
      headers: { cookie },
    });
    assert.equal(afterLogout.statusCode, 401);
    assert.equal(afterLogout.json().code, "Login Required");
  });

  test("happy: the session store keeps only a digest of the cookie", async () => {
    const cookie = sessionCookie((await login("webuser", "correct horse")).headers["set-cookie"]);
    const value = cookie.split(";")[0]!.slice("session=".length);
    const rows = await t.database.db.selectFrom("web_sessions").select("session_hash").execute();
    assert.ok(rows.length > 0);
    assert.ok(rows.every((row) => row.session_hash !== value && row.session_hash.length === 64));
  });

  test("error: a wrong password and an unknown nickname answer the same Unauthorized", async () => {
    const wrong = await login("webuser", "wrong password");
    const unknown = await login("nobody-here", "whatever");
    for (const response of [wrong, unknown]) {
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), {
        code: "Unauthorized",
        error: "wrong nickname or password",
        extra: {},
      });
      assert.equal(response.headers["set-cookie"], undefined);
    }
  });

  test("error: missing or unknown fields are Invalid Argument in the internal form", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/account/api/login",
      payload: { nickname: "webuser" },
    });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { code: "Invalid Argument", error: "password: required", extra: {} });
    const extra = await t.app.inject({
      method: "POST",
      url: "/account/api/login",
      payload: { nickname: "webuser", password: "x", remember: true },
    });
    assert.equal(extra.json().error, "remember: unknown field");
  });

  test("happy: a signed-in answer sets the session cookie again, same value and end, for clients that keep only answered cookies", async () => {
    const cookie = sessionCookie((await login("webuser", "correct horse")).headers["set-cookie"]).split(
      ";",
    )[0]!;
    const advance = await t.admin("POST", "/sandbox/clock/advance", { seconds: 3600 });
    assert.equal(advance.statusCode, 200);
    const info = await t.app.inject({ method: "GET", url: "/account/api/user/info", headers: { cookie } });
    assert.equal(info.statusCode, 200);
    const again = sessionCookie(info.headers["set-cookie"]);
    assert.equal(again.split(";")[0], cookie, "the same session");
    assert.match(again, /HttpOnly/);
    assert.match(again, /SameSite=Lax/);
    const maxAge = Number(/Max-Age=(\d+)/.exec(again)?.[1]);
    assert.ok(maxAge <= 168 * 3600 - 3600 && maxAge > 168 * 3600 - 3700, `the end does not move: ${maxAge}`);
    const anonymous = await t.app.inject({ method: "GET", url: "/account/api/user/info" });
    assert.equal(anonymous.headers["set-cookie"], undefined, "nothing is set without a session");
  });

  test("security: a session expires with the marketplace clock", async () => {
    const cookie = sessionCookie((await login("webuser", "correct horse")).headers["set-cookie"]).split(
      ";",
    )[0]!;
    const advance = await t.admin("POST", "/sandbox/clock/advance", { seconds: 8 * 24 * 3600 });
    assert.equal(advance.statusCode, 200);
    const info = await t.app.inject({ method: "GET", url: "/account/api/user/info", headers: { cookie } });
    assert.equal(info.statusCode, 401);
    assert.equal(info.json().code, "Login Required");
  });

  test("security: logout without a session is harmless", async () => {
    const response = await t.app.inject({ method: "POST", url: "/account/api/logout" });
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().code, "OK");
  });
});
