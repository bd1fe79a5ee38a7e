import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestApp, type TestApp } from "../support/test-app.ts";

describe("the error model", () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    t = await createTestApp();
    token = (await t.createUser()).token;
  });
  after(() => t.close());

  test("an unknown official path is Path Not Found in the official form", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/market/developer/nothing?x=1" });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), {
      code: "Path Not Found",
      msg: "no operation at GET /api/market/developer/nothing",
    });
  });

  test("an unknown internal path is Path Not Found in the internal form", async () => {
    const response = await t.app.inject({ method: "GET", url: "/account/api/nothing" });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), {
      code: "Path Not Found",
      error: "no operation at GET /account/api/nothing",
      extra: {},
    });
  });

  test("a body over 1 MiB is Payload Too Large", async () => {
    const response = await t.app.inject({
      method: "PUT",
      url: "/api/market/developer/buy_order/status",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      payload: JSON.stringify({ buy_order_status: "online", padding: "x".repeat(1024 * 1024) }),
    });
    assert.equal(response.statusCode, 413);
    assert.equal(response.json().code, "Payload Too Large");
  });

  test("__proto__ and constructor.prototype in a body are refused", async () => {
    for (const payload of ['{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}']) {
      const response = await t.app.inject({
        method: "PUT",
        url: "/api/market/developer/buy_order/status",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        payload,
      });
      assert.equal(response.statusCode, 400, payload);
      assert.equal(response.json().code, "Invalid Argument");
      assert.match(response.json().msg, /__proto__/);
    }
  });

  test("a body that is not JSON is Unsupported Media Type", async () => {
    const response = await t.app.inject({
      method: "PUT",
      url: "/api/market/developer/buy_order/status",
      headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
      payload: "buy_order_status=online",
    });
    assert.equal(response.statusCode, 415);
    assert.equal(response.json().code, "Unsupported Media Type");
  });

  test("every answer carries a request id; a sane incoming one is kept", async () => {
    const generated = await t.app.inject({ method: "GET", url: "/healthz" });
    assert.match(String(generated.headers["x-request-id"]), /^[0-9a-f-]{36}$/);
    const kept = await t.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "trace-42" },
    });
    assert.equal(kept.headers["x-request-id"], "trace-42");
    const replaced = await t.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "bad id\nforged" },
    });
    assert.notEqual(replaced.headers["x-request-id"], "bad id\nforged");
  });
});

describe("an unexpected failure", () => {
  test("is Internal Error with the request id and no internals", async () => {
    const t = await createTestApp();
    const { token } = await t.createUser();
    await t.database.close();
    try {
      const response = await t.app.inject({
        method: "GET",
        url: "/api/market/developer/balance",
        headers: { authorization: `Bearer ${token}`, "x-request-id": "req-500" },
      });
      assert.equal(response.statusCode, 500);
      const body = response.json();
      assert.equal(body.code, "Internal Error");
      assert.match(body.msg, /req-500/);
      assert.doesNotMatch(response.body, /at |\.ts|pglite|kysely|closed/i);
    } finally {
      await t.app.close();
    }
  });
});
