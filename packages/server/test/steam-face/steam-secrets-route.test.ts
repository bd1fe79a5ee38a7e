import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { steamGuardCode } from "../../src/platform/sandbox/steam-guard.ts";

describe("the sandbox shows each account's Steam secrets", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test("drawn on first ask and the same after: login name, password, shared and identity secrets", async () => {
    const { platformid } = (await t.admin("POST", "/sandbox/platform/accounts", {})).json();
    const first = await t.admin("GET", `/sandbox/platform/accounts/${platformid}/steam`);
    assert.equal(first.statusCode, 200, first.body);
    const secrets = first.json();
    assert.equal(secrets.platformid, platformid);
    assert.equal(secrets.account_name, `sandbox${BigInt(platformid) - 76561197960265728n}`);
    assert.ok(secrets.password.length >= 16);
    for (const secret of [secrets.shared_secret, secrets.identity_secret])
      assert.equal(Buffer.from(secret, "base64").length, 20);
    const again = (await t.admin("GET", `/sandbox/platform/accounts/${platformid}/steam`)).json();
    assert.deepEqual(again, secrets);
  });

  test("security: only the sandbox admin reads them; an unknown account is Not Found", async () => {
    const { platformid } = (await t.admin("POST", "/sandbox/platform/accounts", {})).json();
    const user = await t.createUser();
    const refused = await t.as(user.token, "GET", `/sandbox/platform/accounts/${platformid}/steam`);
    assert.equal(refused.statusCode, 401);
    const unknown = await t.admin("GET", "/sandbox/platform/accounts/76561199999999999/steam");
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, "Not Found");
  });
});

describe("Steam Guard codes", () => {
  test("are steam-totp's and steampy's codes (steampy's known answer: P2QJN)", () => {
    // steampy's test/test_guard.py: the secret is base64 of "1234567890abcdefghij", at 1469184207.
    const sharedSecret = Buffer.from("1234567890abcdefghij").toString("base64");
    assert.equal(steamGuardCode(sharedSecret, 1469184207), "P2QJN");
  });
});
