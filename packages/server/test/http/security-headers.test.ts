import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { WEBSITE_PAGES } from "../../src/http/plugins/website.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

/** docs/design/security.md#headers-that-keep-answers-out-of-caches-and-pages-out-of-frames: which answers no cache may keep, and which pages no frame may hold. */
describe("security headers", () => {
  let t: TestApp;
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), "skinmarket-web-"));
    await writeFile(join(root, "index.html"), "<!doctype html><html><head></head><body></body></html>");
    t = await createTestApp({ website: { root } });
  });
  after(async () => {
    await t.close();
    await rm(root, { recursive: true, force: true });
  });

  test("answers to a request with an API token are Cache-Control: no-store", async () => {
    const user = await t.createUser({ nickname: "cached-token" });
    const balance = await t.as(user.token, "GET", "/api/market/developer/balance");
    assert.equal(balance.statusCode, 200, balance.body);
    assert.equal(balance.headers["cache-control"], "no-store");
    const refused = await t.as("smk_not-a-token", "GET", "/api/market/developer/balance");
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.headers["cache-control"], "no-store");
  });

  test("the sign-in answer and every answer to a signed-in website request are no-store", async () => {
    const user = await t.createUser({ nickname: "cached-session", password: "right password" });
    const login = await t.app.inject({
      method: "POST",
      url: "/account/api/login",
      payload: { nickname: user.nickname, password: "right password" },
    });
    assert.equal(login.statusCode, 200, login.body);
    assert.equal(login.headers["cache-control"], "no-store");
    const session = await t.signIn(user.nickname, "right password");
    const info = await t.web(session, "GET", "/account/api/user/info");
    assert.equal(info.statusCode, 200, info.body);
    assert.equal(info.json().data.nickname, user.nickname, "the answer carries the user's record");
    assert.equal(info.headers["cache-control"], "no-store");
  });

  test("the sandbox admin's answers are no-store", async () => {
    const users = await t.admin("GET", "/sandbox/users");
    assert.equal(users.statusCode, 200, users.body);
    assert.equal(users.headers["cache-control"], "no-store");
  });

  test("an anonymous answer is left to its route: no no-store", async () => {
    const health = await t.app.inject({ method: "GET", url: "/healthz" });
    assert.equal(health.statusCode, 200);
    assert.notEqual(health.headers["cache-control"], "no-store");
  });

  test("the website's pages may not be framed by another site", async () => {
    for (const url of ["/", "/goods/13918", "/signin", "/me/purchases", "/console"]) {
      const page = await t.app.inject({ method: "GET", url });
      assert.equal(page.statusCode, 200, url);
      assert.equal(page.headers["content-security-policy"], "frame-ancestors 'none'", url);
      assert.equal(page.headers["x-frame-options"], "DENY", url);
    }
    assert.ok(WEBSITE_PAGES.includes("/goods/*"));
  });
});
