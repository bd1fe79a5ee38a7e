import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestApp, type TestApp } from "../support/test-app.ts";

/** Inputs at the edges of the surface: every one a clear 4xx naming the field, never a 500. */
describe("edge cases of the HTTP surface", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test("ids beyond 15 digits or not decimal are Invalid Argument naming the field", async () => {
    for (const id of [
      "9999999999999999999",
      "9223372036854775807",
      "9007199254740993",
      "0",
      "-1",
      "1e3",
      "01",
      "9".repeat(101),
      "9".repeat(5000),
    ]) {
      const response = await t.admin("GET", `/sandbox/users/${id}/balances`);
      assert.equal(response.statusCode, 400, id.slice(0, 20));
      assert.equal(
        response.json().msg,
        "user_id: must be a decimal id of at most 15 digits, such as 1001",
        id.slice(0, 20),
      );
    }
    const tokens = await t.admin("DELETE", "/sandbox/tokens/99999999999999999999");
    assert.equal(tokens.statusCode, 400);
  });

  test("nicknames with control or invisible characters are refused, on creation and at login", async () => {
    for (const nickname of ["a\u0000b", "\u200b", "tab\there", " padded", "x".repeat(33), ""]) {
      const created = await t.admin("POST", "/sandbox/users", { nickname });
      assert.equal(created.statusCode, 400, JSON.stringify(nickname));
      assert.match(created.json().msg, /^nickname: /);
      const login = await t.app.inject({
        method: "POST",
        url: "/account/api/login",
        payload: { nickname, password: "x" },
      });
      assert.equal(login.statusCode, 400, JSON.stringify(nickname));
      assert.equal(login.json().code, "Invalid Argument");
    }
  });

  test("nicknames are unique regardless of case and Unicode normalization, and sign in either way", async () => {
    await t.createUser({ nickname: "Álice", password: "alice-password" });
    for (const nickname of ["álice", "A\u0301lice"]) {
      const duplicate = await t.admin("POST", "/sandbox/users", { nickname });
      assert.equal(duplicate.statusCode, 400, nickname);
      assert.match(duplicate.json().msg, /is already taken/);
    }
    const login = await t.app.inject({
      method: "POST",
      url: "/account/api/login",
      payload: { nickname: "A\u0301LICE", password: "alice-password" },
    });
    assert.equal(login.statusCode, 200);
    assert.equal(login.json().data.nickname, "Álice");
  });

  test("a malformed URL is Invalid Argument in the error model, with a request id", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/market/developer/balance%" });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, "Invalid Argument");
    assert.ok(response.headers["x-request-id"]);
  });

  test("an unknown method on a known path is Path Not Found", async () => {
    const response = await t.app.inject({ method: "PATCH", url: "/api/market/developer/balance" });
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().code, "Path Not Found");
  });

  test("bearer refusals carry WWW-Authenticate", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/market/developer/balance" });
    assert.equal(response.statusCode, 401);
    assert.match(String(response.headers["www-authenticate"]), /^Bearer /);
  });

  test("no body where every field is optional means the defaults; a body where none is taken is refused", async () => {
    const created = await t.app.inject({
      method: "POST",
      url: "/sandbox/users",
      headers: { authorization: `Bearer sma_test-admin-token-0123456789` },
    });
    assert.equal(created.statusCode, 200, created.body);
    const withBody = await t.app.inject({ method: "POST", url: "/account/api/logout", payload: { x: 1 } });
    assert.equal(withBody.statusCode, 400);
    assert.deepEqual(withBody.json(), {
      code: "Invalid Argument",
      error: "body: this operation takes no body",
      extra: {},
    });
    const emptyObject = await t.admin("POST", "/sandbox/jobs/run", {});
    assert.equal(emptyObject.statusCode, 200);
  });

  test("the clock runs at most a century ahead and never backwards", async () => {
    const before = (await t.admin("GET", "/sandbox/clock")).json();
    const tooFar = await t.admin("POST", "/sandbox/clock/advance", { seconds: 10 * 365 * 24 * 3600 });
    assert.equal(tooFar.statusCode, 200);
    for (let step = 0; step < 10; step++)
      await t.admin("POST", "/sandbox/clock/advance", { seconds: 10 * 365 * 24 * 3600 });
    const refused = await t.admin("POST", "/sandbox/clock/advance", { seconds: 10 * 365 * 24 * 3600 });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().msg, /^seconds: the clock may run at most 100 years ahead$/);
    const after = (await t.admin("GET", "/sandbox/clock")).json();
    assert.equal(after.offset_seconds - before.offset_seconds, 100 * 365 * 24 * 3600);
    // A refused advance leaves the clock where it was: it never runs backwards.
    assert.equal((await t.admin("POST", "/sandbox/clock/advance", { seconds: 1 })).statusCode, 400);
    const later = (await t.admin("GET", "/sandbox/clock")).json();
    assert.ok(later.now >= after.now);
    assert.equal(later.offset_seconds, after.offset_seconds);
    await t.admin("POST", "/sandbox/reset");
  });
});

describe("options and failures of the app", () => {
  test("with secure cookies on, the session cookie is marked Secure", async () => {
    const t = await createTestApp({ secureCookies: true });
    try {
      await t.createUser({ nickname: "secure", password: "secure-password" });
      const login = await t.app.inject({
        method: "POST",
        url: "/account/api/login",
        payload: { nickname: "secure", password: "secure-password" },
      });
      assert.match(String(login.headers["set-cookie"]), /; Secure/);
    } finally {
      await t.close();
    }
  });

  test("an internal route's unexpected failure carries the request id in extra", async () => {
    const t = await createTestApp();
    await t.database.close();
    try {
      const response = await t.app.inject({
        method: "GET",
        url: "/account/api/user/info",
        headers: { cookie: `session=${"A".repeat(43)}`, "x-request-id": "req-internal" },
      });
      assert.equal(response.statusCode, 500);
      const body = response.json();
      assert.equal(body.code, "Internal Error");
      assert.deepEqual(body.extra, { request_id: "req-internal" });
    } finally {
      await t.app.close();
    }
  });
});
