import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const DASHBOARD = "http://localhost:5173";
const STRANGER = "https://evil.example";

const preflight = (t: TestApp, origin: string, url: string, method = "GET", headers = "authorization") =>
  t.app.inject({
    method: "OPTIONS",
    url,
    headers: { origin, "access-control-request-method": method, "access-control-request-headers": headers },
  });

const corsHeaders = (headers: Record<string, unknown>) =>
  Object.keys(headers).filter((name) => name.startsWith("access-control-"));

describe("CORS: off by default", () => {
  let t: TestApp;
  before(async () => (t = await createTestApp({ sandbox: true })));
  after(() => t.close());

  test("security: no answer carries a CORS header and a preflight is no open door (404)", async () => {
    const user = await t.createUser();
    const answer = await t.app.inject({
      method: "GET",
      url: "/api/market/developer/balance",
      headers: { origin: DASHBOARD, authorization: `Bearer ${user.token}` },
    });
    assert.equal(answer.statusCode, 200);
    assert.deepEqual(corsHeaders(answer.headers), []);
    const asked = await preflight(t, DASHBOARD, "/api/market/developer/balance");
    assert.equal(asked.statusCode, 404);
    assert.deepEqual(corsHeaders(asked.headers), []);
  });
});

describe("CORS: an allow-list of origins", () => {
  let t: TestApp;
  before(async () => (t = await createTestApp({ sandbox: true, corsOrigins: [DASHBOARD] })));
  after(() => t.close());

  test("happy: a listed origin's preflight names the methods and headers a client sends", async () => {
    const asked = await preflight(
      t,
      DASHBOARD,
      "/api/market/developer/balance",
      "POST",
      "authorization,idempotency-key",
    );
    assert.equal(asked.statusCode, 204);
    assert.equal(asked.headers["access-control-allow-origin"], DASHBOARD);
    assert.equal(asked.headers["access-control-allow-methods"], "GET, HEAD, POST, PUT, DELETE");
    assert.equal(
      asked.headers["access-control-allow-headers"],
      "Authorization, Content-Type, Idempotency-Key, X-CSRFToken, X-Request-Id",
    );
    assert.equal(
      asked.headers["access-control-allow-credentials"],
      undefined,
      "API-token routes read no cookies",
    );
    assert.match(String(asked.headers.vary), /Origin/);
  });

  test("happy: a listed origin's request is answered with its origin and the headers it may read", async () => {
    const user = await t.createUser();
    const answer = await t.app.inject({
      method: "GET",
      url: "/api/market/developer/balance",
      headers: { origin: DASHBOARD, authorization: `Bearer ${user.token}`, "x-request-id": "cors-1" },
    });
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.headers["access-control-allow-origin"], DASHBOARD);
    const exposed = String(answer.headers["access-control-expose-headers"]);
    for (const name of ["RateLimit-Remaining", "Retry-After", "X-Request-Id"])
      assert.ok(exposed.includes(name), name);
  });

  test("happy: the website's session routes let a listed origin send its cookies", async () => {
    const asked = await preflight(t, DASHBOARD, "/account/api/login", "POST", "content-type");
    assert.equal(asked.statusCode, 204);
    assert.equal(asked.headers["access-control-allow-credentials"], "true");
    const page = await t.app.inject({
      method: "GET",
      url: "/account/api/user/info",
      headers: { origin: DASHBOARD },
    });
    assert.equal(page.headers["access-control-allow-credentials"], "true");
  });

  test("security: an origin not on the list gets no CORS header, and its preflight is 404", async () => {
    const asked = await preflight(t, STRANGER, "/account/api/login", "POST", "content-type");
    assert.equal(asked.statusCode, 404);
    assert.deepEqual(corsHeaders(asked.headers), []);
    const page = await t.app.inject({
      method: "GET",
      url: "/account/api/user/info",
      headers: { origin: STRANGER },
    });
    assert.deepEqual(corsHeaders(page.headers), []);
    assert.match(
      String(page.headers.vary),
      /Origin/,
      "a cache keeps the answer apart from a listed origin's",
    );
  });
});

describe("CORS: the app's System-Type header stays out of any page's reach", () => {
  let t: TestApp;
  before(async () => (t = await createTestApp({ sandbox: true, corsOrigins: [DASHBOARD] })));
  after(() => t.close());

  test("security: a foreign origin's preflight asking for System-Type on a session write is refused", async () => {
    const asked = await preflight(
      t,
      STRANGER,
      "/api/market/goods/bookmark",
      "POST",
      "system-type,content-type",
    );
    assert.equal(asked.statusCode, 404);
    assert.deepEqual(corsHeaders(asked.headers), []);
  });

  test("security: not even a listed origin's preflight allows System-Type (pages send X-CSRFToken)", async () => {
    const asked = await preflight(t, DASHBOARD, "/api/market/goods/bookmark", "POST", "system-type");
    assert.doesNotMatch(String(asked.headers["access-control-allow-headers"]), /system-type/i);
  });
});

describe("CORS: any origin", () => {
  let t: TestApp;
  before(async () => (t = await createTestApp({ sandbox: true, corsOrigins: ["*"] })));
  after(() => t.close());

  test("security: * answers any origin but never allows credentials, not even on the website's routes", async () => {
    const asked = await preflight(t, STRANGER, "/account/api/login", "POST", "content-type");
    assert.equal(asked.statusCode, 204);
    assert.equal(asked.headers["access-control-allow-origin"], "*");
    assert.equal(asked.headers["access-control-allow-credentials"], undefined);
    const page = await t.app.inject({
      method: "GET",
      url: "/account/api/user/info",
      headers: { origin: STRANGER },
    });
    assert.equal(page.headers["access-control-allow-origin"], "*");
    assert.equal(page.headers["access-control-allow-credentials"], undefined);
  });

  test("security: under * a preflight asking for System-Type with cookies is allowed neither", async () => {
    const asked = await preflight(t, STRANGER, "/api/market/goods/bookmark", "POST", "system-type");
    assert.equal(asked.headers["access-control-allow-credentials"], undefined);
    assert.doesNotMatch(String(asked.headers["access-control-allow-headers"]), /system-type/i);
  });
});
