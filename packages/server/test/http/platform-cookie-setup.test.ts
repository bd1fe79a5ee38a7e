import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { createTraderWithAccount, uploadCookies } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

describe("POST /api/market/developer/platform/cookie", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test("happy: the platform's own cookies are a valid session", async () => {
    const trader = await createTraderWithAccount(t);
    const response = await uploadCookies(t, trader);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { platformid: trader.platformid, cookie_state: "valid" });
  });

  test("happy: expired cookies and another account's cookies are stored with their state", async () => {
    const trader = await createTraderWithAccount(t);
    const other = await createTraderWithAccount(t);
    assert.equal((await uploadCookies(t, trader, other.cookies)).json().cookie_state, "invalid");
    const forged = JSON.stringify([
      { domain: "steamcommunity.com", key: "steamLoginSecure", value: `${trader.platformid}%7C%7Cforged` },
    ]);
    assert.equal((await uploadCookies(t, trader, forged)).json().cookie_state, "invalid");
    await t.admin("POST", `/sandbox/platform/accounts/${trader.platformid}/cookies/expire`);
    assert.equal((await uploadCookies(t, trader)).json().cookie_state, "expired");
    const fresh = (await t.admin("POST", `/sandbox/platform/accounts/${trader.platformid}/cookies`)).json<{
      cookies: string;
    }>();
    assert.equal((await uploadCookies(t, trader, fresh.cookies)).json().cookie_state, "valid");
  });

  test("happy: cookies expire with the platform's clock", async () => {
    const trader = await createTraderWithAccount(t);
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 31 * 86_400 });
    assert.equal((await uploadCookies(t, trader)).json().cookie_state, "expired");
  });

  test("error: platform_cookies must be a JSON-encoded array of {domain, key, value}", async () => {
    const trader = await createTraderWithAccount(t);
    const cases: Array<[unknown, RegExp]> = [
      [
        "not json",
        /^platform_cookies: must be a JSON-encoded array of \{domain, key, value\} strings; this is not JSON$/,
      ],
      ["{}", /^platform_cookies: must be a JSON-encoded array/],
      ["[]", /^platform_cookies: must be a JSON-encoded array/],
      ['["x"]', /^platform_cookies\[0\]: must be an object \{domain, key, value\}$/],
      ['[{"domain":"a","key":"b"}]', /^platform_cookies\[0\]\.value: must be a non-empty string$/],
      ['[{"domain":"a","key":"","value":"c"}]', /^platform_cookies\[0\]\.key: must be a non-empty string$/],
      ['[{"domain":"a","key":"b","value":"c","path":"/"}]', /^platform_cookies\[0\]\.path: unknown field$/],
      [
        JSON.stringify(Array.from({ length: 51 }, () => ({ domain: "a", key: "b", value: "c" }))),
        /^platform_cookies: at most 50 cookies$/,
      ],
      [42, /^platform_cookies: must be string$/],
    ];
    for (const [cookies, message] of cases) {
      const response = await t.as(trader.token, "POST", "/api/market/developer/platform/cookie", {
        platformid: trader.platformid,
        platform_cookies: cookies,
      });
      assert.equal(response.statusCode, 400, String(cookies));
      assert.match(response.json().msg, message, String(cookies));
    }
    const missing = await t.as(trader.token, "POST", "/api/market/developer/platform/cookie", {
      platformid: trader.platformid,
    });
    assert.equal(missing.json().msg, "platform_cookies: required");
  });

  test("error: a cookie value that is not valid percent-encoding, or any control character, is Invalid Argument naming the cookie", async () => {
    const trader = await createTraderWithAccount(t);
    const login = (value: string) => ({ domain: "steamcommunity.com", key: "steamLoginSecure", value });
    const cases: Array<[unknown[], string]> = [
      [[login("%E0%A4%A")], "platform_cookies[0].value: must be valid percent-encoding"],
      [[login("%E0%A4")], "platform_cookies[0].value: must be valid percent-encoding"],
      [
        [{ domain: "steamcommunity.com", key: "sessionid", value: "x" }, login(`${trader.platformid}%ZZ`)],
        "platform_cookies[1].value: must be valid percent-encoding",
      ],
      [[login("a\u0000b")], "platform_cookies[0].value: must not contain control characters"],
      [
        [{ ...login("x"), key: "steam\u0001Login" }],
        "platform_cookies[0].key: must not contain control characters",
      ],
    ];
    for (const [cookies, message] of cases) {
      const response = await uploadCookies(t, trader, JSON.stringify(cookies));
      assert.equal(response.statusCode, 400, JSON.stringify(cookies));
      assert.deepEqual(response.json(), { code: "Invalid Argument", msg: message });
    }
  });

  test("security: another user's or an unbound account is Not Found, and nothing is stored", async () => {
    const owner = await createTraderWithAccount(t);
    const stranger = await t.createUser();
    const response = await t.as(stranger.token, "POST", "/api/market/developer/platform/cookie", {
      platformid: owner.platformid,
      platform_cookies: owner.cookies,
    });
    assert.equal(response.statusCode, 404);
    const stored = await t.database.db
      .selectFrom("bound_platform_accounts")
      .select("cookies_sealed")
      .where("platformid", "=", owner.platformid)
      .executeTakeFirstOrThrow();
    assert.equal(stored.cookies_sealed, null);
  });

  test("security: no cookie value can be read in a dump of the database", async () => {
    const trader = await createTraderWithAccount(t);
    await uploadCookies(t, trader);
    const values = (JSON.parse(trader.cookies) as Array<{ value: string }>).map((cookie) => cookie.value);
    const secret = decodeURIComponent(values[0]!).split("||")[1]!;
    const tables = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
    `.execute(t.database.db);
    for (const { table_name: table } of tables.rows) {
      const dump = await sql<{ row: string }>`SELECT t::text AS row FROM ${sql.table(table)} t`.execute(
        t.database.db,
      );
      for (const { row } of dump.rows) {
        for (const value of [...values, secret]) {
          assert.ok(!row.includes(value), `${table} holds a cookie value in plain text`);
        }
      }
    }
  });
});

describe("POST /api/market/developer/platform/setup", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const setup = (token: string, platformid: string) =>
    t.as(token, "POST", "/api/market/developer/platform/setup", { platformid });

  test("happy: with valid cookies every action succeeds; the inventory turns public and the trade URL is known", async () => {
    const trader = await createTraderWithAccount(t);
    await uploadCookies(t, trader);
    const response = await setup(trader.token, trader.platformid);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), {
      publish_inventory: "success",
      setup_trade_url: "success",
      setup_api_key: "success",
      errors: {},
    });
    const account = (await t.admin("GET", `/sandbox/platform/accounts/${trader.platformid}`)).json();
    assert.equal(account.inventory_public, true);
    assert.equal(account.api_key_registered, true);
    const bound = await t.database.db
      .selectFrom("bound_platform_accounts")
      .select(["trade_url", "api_key_sealed"])
      .where("platformid", "=", trader.platformid)
      .executeTakeFirstOrThrow();
    assert.equal(bound.trade_url, trader.tradeUrl);
    assert.ok(bound.api_key_sealed?.startsWith("v1."));
  });

  test("happy: each action reports on its own; one failure does not stop the others", async () => {
    const trader = await createTraderWithAccount(t);
    await uploadCookies(t, trader);
    await t.admin("PUT", `/sandbox/platform/accounts/${trader.platformid}/settings`, { limited: true });
    const response = await setup(trader.token, trader.platformid);
    assert.deepEqual(response.json(), {
      publish_inventory: "success",
      setup_trade_url: "success",
      setup_api_key: "fail",
      errors: { setup_api_key: "a limited account cannot register an API key" },
    });
  });

  test("error: without valid cookies every action fails, each saying how to fix it", async () => {
    const trader = await createTraderWithAccount(t);
    const none = (await setup(trader.token, trader.platformid)).json();
    assert.deepEqual(
      [none.publish_inventory, none.setup_trade_url, none.setup_api_key],
      ["fail", "fail", "fail"],
    );
    assert.match(
      none.errors.publish_inventory,
      /upload fresh cookies with POST \/api\/market\/developer\/platform\/cookie/,
    );
    await uploadCookies(t, trader);
    await t.admin("POST", `/sandbox/platform/accounts/${trader.platformid}/cookies/expire`);
    const expired = (await setup(trader.token, trader.platformid)).json();
    assert.equal(expired.publish_inventory, "fail");
    assert.match(expired.errors.setup_trade_url, /cookies are expired/);
    assert.equal(
      (await t.admin("GET", `/sandbox/platform/accounts/${trader.platformid}`)).json().inventory_public,
      false,
    );
  });

  test("security: setup needs an account bound to the caller", async () => {
    const owner = await createTraderWithAccount(t);
    const stranger = await t.createUser();
    const response = await setup(stranger.token, owner.platformid);
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().code, "Not Found");
    const bad = await setup(stranger.token, "not-an-id");
    assert.equal(bad.statusCode, 400);
  });
});
