import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestApp, setCookieValue, type TestApp, type WebSession } from "../support/test-app.ts";

/** Cross-site request forgery: writes with a session echo the `csrf_token` cookie as `X-CSRFToken`. */
describe("CSRF: csrf_token cookie and X-CSRFToken on website writes", () => {
  let t: TestApp;
  let user: { userId: string; nickname: string; password: string };
  let other: { nickname: string; password: string };
  const GOODS_ID = "1";
  before(async () => {
    t = await createTestApp({ catalog: true });
    user = await t.createUser({ nickname: "csrf-user", password: "csrf password" });
    other = await t.createUser({ nickname: "csrf-other", password: "other password" });
  });
  after(() => t.close());

  const sessionOnly = (session: WebSession) => session.cookie.split(";")[0]!;
  const bookmark = (cookie: string, csrf?: string, systemType?: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/market/goods/bookmark",
      headers: {
        cookie,
        ...(csrf === undefined ? {} : { "x-csrftoken": csrf }),
        ...(systemType === undefined ? {} : { "system-type": systemType }),
      },
      payload: { type: "goods", id: GOODS_ID },
    });
  const bookmarksOf = async (userId: string) =>
    (
      await t.database.db
        .selectFrom("bookmarks")
        .select("target_id")
        .where("user_id", "=", Number(userId))
        .execute()
    ).length;

  test("happy: login sets a csrf_token cookie a page can read (not HttpOnly), SameSite=Lax, Path=/", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/account/api/login",
      payload: { nickname: user.nickname, password: user.password },
    });
    const header = [response.headers["set-cookie"] ?? []]
      .flat()
      .find((value) => value.startsWith("csrf_token="));
    assert.ok(header, "csrf_token is set");
    assert.doesNotMatch(header, /HttpOnly/);
    assert.match(header, /SameSite=Lax/);
    assert.match(header, /Path=\//);
    assert.match(setCookieValue(response.headers["set-cookie"], "csrf_token")!, /^[A-Za-z0-9_-]{43}$/);
  });

  test("happy: a GET with the session alone sets the cookie; a tool echoes it and its write passes", async () => {
    const session = await t.signIn(user.nickname, user.password);
    // As requests-based tools do: the Cookie header holds the session only, the token comes from
    // the Set-Cookie of an earlier GET.
    const probe = await t.app.inject({
      method: "GET",
      url: "/account/api/user/info",
      headers: { cookie: sessionOnly(session) },
    });
    assert.equal(probe.statusCode, 200);
    const token = setCookieValue(probe.headers["set-cookie"], "csrf_token");
    assert.equal(token, session.csrfToken, "one token per session");
    const written = await bookmark(sessionOnly(session), token);
    assert.equal(written.statusCode, 200, written.body);
    assert.equal(await bookmarksOf(user.userId), 1);
    const again = await t.web(session, "GET", "/account/api/user/info");
    assert.equal(setCookieValue(again.headers["set-cookie"], "csrf_token"), undefined, "not set again");
  });

  test("security: a write without the header, with a wrong one, or with another session's token is refused and writes nothing", async () => {
    const session = await t.signIn(user.nickname, user.password);
    const others = await t.signIn(other.nickname, other.password);
    await t.web(session, "DELETE", "/api/market/goods/bookmark", { type: "goods", id: GOODS_ID });
    const cases: Array<[string | undefined, string]> = [
      [undefined, "x-csrftoken: missing; send the value of the csrf_token cookie"],
      ["", "x-csrftoken: does not match this session; send the value of the csrf_token cookie"],
      ["forged", "x-csrftoken: does not match this session; send the value of the csrf_token cookie"],
      [others.csrfToken, "x-csrftoken: does not match this session; send the value of the csrf_token cookie"],
    ];
    for (const [csrf, message] of cases) {
      // The browser of a forged request sends every cookie, the csrf_token cookie included.
      const response = await bookmark(session.cookie, csrf);
      assert.equal(response.statusCode, 403, String(csrf));
      assert.deepEqual(response.json(), { code: "Access Denied", error: message, extra: {} });
    }
    assert.equal(await bookmarksOf(user.userId), 0, "nothing was written");
  });

  test("happy: the mobile app's writes (System-Type: Android or iOS, no token) pass", async () => {
    const session = await t.signIn(user.nickname, user.password);
    for (const systemType of ["Android", "iOS"]) {
      await t.web(session, "DELETE", "/api/market/goods/bookmark", { type: "goods", id: GOODS_ID });
      const response = await bookmark(sessionOnly(session), undefined, systemType);
      assert.equal(response.statusCode, 200, `${systemType}: ${response.body}`);
      assert.equal(await bookmarksOf(user.userId), 1, systemType);
    }
    await t.web(session, "DELETE", "/api/market/goods/bookmark", { type: "goods", id: GOODS_ID });
  });

  test("security: a System-Type of no known app, without a token, is refused naming the header and writes nothing", async () => {
    const session = await t.signIn(user.nickname, user.password);
    await t.web(session, "DELETE", "/api/market/goods/bookmark", { type: "goods", id: GOODS_ID });
    for (const systemType of ["Windows", "android", ""]) {
      const response = await bookmark(session.cookie, undefined, systemType);
      assert.equal(response.statusCode, 403, JSON.stringify(systemType));
      assert.deepEqual(response.json(), {
        code: "Access Denied",
        error: `system-type: ${JSON.stringify(systemType)} is not an app's (Android or iOS); or send x-csrftoken with the value of the csrf_token cookie`,
        extra: {},
      });
    }
    const withToken = await bookmark(session.cookie, session.csrfToken, "Windows");
    assert.equal(withToken.statusCode, 200, "the token alone is enough whatever System-Type says");
    await t.web(session, "DELETE", "/api/market/goods/bookmark", { type: "goods", id: GOODS_ID });
    assert.equal(await bookmarksOf(user.userId), 0);
  });

  test("security: a token dies with its session", async () => {
    const session = await t.signIn(user.nickname, user.password);
    const loggedOut = await t.web(session, "POST", "/account/api/logout");
    assert.equal(loggedOut.statusCode, 200);
    assert.match(String(loggedOut.headers["set-cookie"]), /csrf_token=;/);
    const stale = await bookmark(session.cookie, session.csrfToken);
    assert.equal(stale.statusCode, 401);
    assert.equal(stale.json().code, "Login Required");
    const fresh = await t.signIn(user.nickname, user.password);
    assert.notEqual(fresh.csrfToken, session.csrfToken, "a new session has a new token");
  });

  test("security: logout of a live session needs the token; a forged logout leaves the session alive", async () => {
    const session = await t.signIn(user.nickname, user.password);
    const forged = await t.app.inject({
      method: "POST",
      url: "/account/api/logout",
      headers: { cookie: session.cookie },
    });
    assert.equal(forged.statusCode, 403);
    assert.equal((await t.web(session, "GET", "/account/api/user/info")).statusCode, 200, "still signed in");
    const stale = await t.app.inject({
      method: "POST",
      url: "/account/api/logout",
      headers: { cookie: "session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" },
    });
    assert.equal(stale.statusCode, 200, "logout of an ended session stays harmless");
  });

  test("error: anonymous writes are Login Required, not a CSRF refusal; API-token writes ignore cookies", async () => {
    const anonymous = await bookmark("", undefined);
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json().code, "Login Required");
    const apiUser = await t.createUser();
    const viaToken = await t.app.inject({
      method: "PUT",
      url: "/api/market/developer/buy_order/status",
      headers: { authorization: `Bearer ${apiUser.token}`, cookie: "session=whatever; csrf_token=x" },
      payload: { buy_order_status: "offline", buy_order_auto_offline: false },
    });
    assert.equal(viaToken.statusCode, 200, viaToken.body);
  });
});
