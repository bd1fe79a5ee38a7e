import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { InjectOptions } from "fastify";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { createAccount, describeAccount, STEAM_ID_BASE } from "./sandbox-platform-steps.ts";

/** The sandbox API for platform accounts: create, inspect, settings, auto-accept, binding, cookies. */

const UNKNOWN_PLATFORMID = "76561199999999998";
const TRADE_URL =
  /^https:\/\/steamcommunity\.com\/tradeoffer\/new\/\?partner=(\d+)&token=([A-Za-z0-9_-]{8})$/;

interface Cookie {
  domain: string;
  key: string;
  value: string;
}

function loginCookie(cookies: string): Cookie {
  const login = (JSON.parse(cookies) as Cookie[]).find((cookie) => cookie.key === "steamLoginSecure");
  assert.ok(login, cookies);
  return login;
}

describe("sandbox platform accounts", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  /** What the platform says of cookies, asked the way a bot does: the bound user uploads them. */
  async function cookieState(token: string, platformid: string, cookies: string): Promise<string> {
    const response = await t.as(token, "POST", "/api/market/developer/platform/cookie", {
      platformid,
      platform_cookies: cookies,
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ cookie_state: string }>().cookie_state;
  }

  async function accountRowCount(): Promise<number> {
    const rows = await t.database.db.selectFrom("sandbox_platform_accounts").select("platformid").execute();
    return rows.length;
  }

  describe("happy", () => {
    test("a new account has a 17-digit id, a trade URL with its account id and an 8-character token, and login cookies", async () => {
      const account = await createAccount(t);
      assert.match(account.platformid, /^7656119\d{10}$/);
      const [, partner, token] = TRADE_URL.exec(account.trade_url) ?? [];
      assert.equal(partner, String(BigInt(account.platformid) - STEAM_ID_BASE), account.trade_url);
      assert.equal(token?.length, 8);

      const cookies = JSON.parse(account.cookies) as Cookie[];
      assert.ok(Array.isArray(cookies) && cookies.length > 0);
      for (const cookie of cookies) assert.deepEqual(Object.keys(cookie).sort(), ["domain", "key", "value"]);
      const login = loginCookie(account.cookies);
      assert.equal(login.domain, "steamcommunity.com");
      assert.ok(login.value.startsWith(`${account.platformid}%7C%7C`), login.value);
    });

    test("every new account has its own id, trade token and cookies", async () => {
      const first = await createAccount(t);
      const second = await createAccount(t);
      assert.notEqual(first.platformid, second.platformid);
      assert.notEqual(TRADE_URL.exec(first.trade_url)?.[2], TRADE_URL.exec(second.trade_url)?.[2]);
      assert.notEqual(loginCookie(first.cookies).value, loginCookie(second.cookies).value);
    });

    test("a new account is unbound, private, not limited, without auto-accept or API key, and empty", async () => {
      const account = await createAccount(t);
      assert.deepEqual(await describeAccount(t, account.platformid), {
        platformid: account.platformid,
        trade_url: account.trade_url,
        inventory_public: false,
        limited: false,
        auto_accept: false,
        api_key_registered: false,
        item_count: 0,
        user_id: null,
      });
    });

    test("an account created with user_id is bound to that user, who can use its cookies", async () => {
      const user = await t.createUser();
      const account = await createAccount(t, { user_id: user.userId });
      assert.equal((await describeAccount(t, account.platformid)).user_id, user.userId);
      assert.equal(await cookieState(user.token, account.platformid, account.cookies), "valid");
    });

    test("settings change inventory_public and limited, and leave alone what is not given", async () => {
      const account = await createAccount(t);
      const url = `/sandbox/platform/accounts/${account.platformid}/settings`;
      const published = await t.admin("PUT", url, { inventory_public: true });
      assert.equal(published.statusCode, 200, published.body);
      assert.deepEqual(
        { inventory_public: published.json().inventory_public, limited: published.json().limited },
        { inventory_public: true, limited: false },
      );
      const limited = await t.admin("PUT", url, { limited: true });
      assert.deepEqual(
        { inventory_public: limited.json().inventory_public, limited: limited.json().limited },
        { inventory_public: true, limited: true },
      );
      const both = await t.admin("PUT", url, { inventory_public: false, limited: false });
      assert.deepEqual(both.json(), await describeAccount(t, account.platformid));
      assert.equal(both.json().inventory_public, false);
      assert.equal(both.json().limited, false);
    });

    test("settings with nothing to change answer the account as it is", async () => {
      const account = await createAccount(t);
      const response = await t.admin("PUT", `/sandbox/platform/accounts/${account.platformid}/settings`, {});
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.json(), await describeAccount(t, account.platformid));
    });

    test("a limited account gets no API key at setup; an account that is not limited does", async () => {
      const user = await t.createUser();
      const limited = await createAccount(t, { user_id: user.userId });
      const open = await createAccount(t, { user_id: user.userId });
      await t.admin("PUT", `/sandbox/platform/accounts/${limited.platformid}/settings`, { limited: true });
      for (const account of [limited, open]) {
        assert.equal(await cookieState(user.token, account.platformid, account.cookies), "valid");
        const setup = await t.as(user.token, "POST", "/api/market/developer/platform/setup", {
          platformid: account.platformid,
        });
        assert.equal(setup.statusCode, 200, setup.body);
      }
      const limitedView = await describeAccount(t, limited.platformid);
      const openView = await describeAccount(t, open.platformid);
      assert.equal(limitedView.api_key_registered, false);
      assert.equal(openView.api_key_registered, true);
      assert.equal(openView.inventory_public, true);
    });

    test("auto_accept turns on and off", async () => {
      const account = await createAccount(t);
      const url = `/sandbox/platform/accounts/${account.platformid}/auto_accept`;
      const on = await t.admin("PUT", url, { enabled: true });
      assert.equal(on.statusCode, 200, on.body);
      assert.equal(on.json().auto_accept, true);
      assert.equal((await describeAccount(t, account.platformid)).auto_accept, true);
      assert.equal((await t.admin("PUT", url, { enabled: false })).json().auto_accept, false);
      assert.equal((await describeAccount(t, account.platformid)).auto_accept, false);
    });

    test("bind, bind again to the same user, unbind, then bind to another user", async () => {
      const first = await t.createUser();
      const second = await t.createUser();
      const account = await createAccount(t);
      const url = `/sandbox/platform/accounts/${account.platformid}`;

      const bound = await t.admin("POST", `${url}/bind`, { user_id: first.userId });
      assert.equal(bound.statusCode, 200, bound.body);
      assert.deepEqual(bound.json(), { platformid: account.platformid, user_id: first.userId });
      assert.equal((await describeAccount(t, account.platformid)).user_id, first.userId);

      const again = await t.admin("POST", `${url}/bind`, { user_id: first.userId });
      assert.equal(again.statusCode, 200, again.body);

      const unbound = await t.admin("POST", `${url}/unbind`);
      assert.equal(unbound.statusCode, 200, unbound.body);
      assert.deepEqual(unbound.json(), { platformid: account.platformid, user_id: null });
      assert.equal((await describeAccount(t, account.platformid)).user_id, null);

      const rebound = await t.admin("POST", `${url}/bind`, { user_id: second.userId });
      assert.equal(rebound.statusCode, 200, rebound.body);
      assert.equal((await describeAccount(t, account.platformid)).user_id, second.userId);
    });

    test("issued cookies are a live session beside the earlier ones until the account's cookies are expired", async () => {
      const user = await t.createUser();
      const account = await createAccount(t, { user_id: user.userId });
      const url = `/sandbox/platform/accounts/${account.platformid}/cookies`;

      const issued = await t.admin("POST", url);
      assert.equal(issued.statusCode, 200, issued.body);
      const fresh = issued.json<{ cookies: string }>().cookies;
      assert.notEqual(loginCookie(fresh).value, loginCookie(account.cookies).value);
      assert.equal(await cookieState(user.token, account.platformid, fresh), "valid");
      assert.equal(await cookieState(user.token, account.platformid, account.cookies), "valid");

      const expired = await t.admin("POST", `${url}/expire`);
      assert.equal(expired.statusCode, 200, expired.body);
      assert.deepEqual(expired.json(), { expired: 2 });
      assert.equal(await cookieState(user.token, account.platformid, fresh), "expired");
      assert.equal(await cookieState(user.token, account.platformid, account.cookies), "expired");
      assert.deepEqual((await t.admin("POST", `${url}/expire`)).json(), { expired: 0 });

      const relogin = (await t.admin("POST", url)).json<{ cookies: string }>().cookies;
      assert.equal(await cookieState(user.token, account.platformid, relogin), "valid");
    });
  });

  describe("error", () => {
    test("an unknown user_id is Not Found and leaves no account behind", async () => {
      const accounts = await accountRowCount();
      const response = await t.admin("POST", "/sandbox/platform/accounts", { user_id: "999999" });
      assert.equal(response.statusCode, 404, response.body);
      assert.equal(response.json().code, "Not Found");
      assert.equal(await accountRowCount(), accounts);
    });

    test("a user_id that is not a decimal id is refused naming user_id", async () => {
      const account = await createAccount(t);
      for (const user_id of ["0", "abc", "-5", "1234567890123456", 1001]) {
        for (const [url, body] of [
          ["/sandbox/platform/accounts", { user_id }],
          [`/sandbox/platform/accounts/${account.platformid}/bind`, { user_id }],
        ] as const) {
          const response = await t.admin("POST", url, body);
          assert.equal(response.statusCode, 400, `${url} ${JSON.stringify(body)}`);
          assert.match(response.json().msg, /^user_id:/);
        }
      }
      assert.equal(
        (await t.admin("POST", `/sandbox/platform/accounts/${account.platformid}/bind`, {})).json().msg,
        "user_id: required",
      );
    });

    test("a platformid of the wrong form is refused naming platformid on every account route", async () => {
      const forms = [
        "123",
        "7656119801234567",
        "765611980123456789",
        "86561198012345678",
        "7656119801234567x",
        "abcdefghijklmnopq",
      ];
      for (const platformid of forms) {
        for (const [method, path, body] of accountRoutes(platformid)) {
          const response = await t.admin(method, path, body);
          assert.equal(response.statusCode, 400, `${method} ${path}`);
          assert.match(response.json().msg, /^platformid:/, `${method} ${path}`);
        }
      }
    });

    test("a well-formed platformid the platform does not have is Not Found on every account route", async () => {
      const user = await t.createUser();
      for (const [method, path, body] of accountRoutes(UNKNOWN_PLATFORMID, user.userId)) {
        const response = await t.admin(method, path, body);
        assert.equal(response.statusCode, 404, `${method} ${path}: ${response.body}`);
        assert.equal(response.json().code, "Not Found");
      }
    });

    test("binding an account bound to another user is Invalid State and keeps the binding", async () => {
      const owner = await t.createUser();
      const other = await t.createUser();
      const account = await createAccount(t, { user_id: owner.userId });
      const response = await t.admin("POST", `/sandbox/platform/accounts/${account.platformid}/bind`, {
        user_id: other.userId,
      });
      assert.equal(response.statusCode, 409, response.body);
      assert.equal(response.json().code, "Invalid State");
      assert.equal((await describeAccount(t, account.platformid)).user_id, owner.userId);
    });

    test("unbinding an account that is not bound is Not Found", async () => {
      const account = await createAccount(t);
      const response = await t.admin("POST", `/sandbox/platform/accounts/${account.platformid}/unbind`);
      assert.equal(response.statusCode, 404, response.body);
      assert.equal(response.json().code, "Not Found");
    });

    test("binding to a user that does not exist is Not Found and binds nothing", async () => {
      const account = await createAccount(t);
      const response = await t.admin("POST", `/sandbox/platform/accounts/${account.platformid}/bind`, {
        user_id: "999999",
      });
      assert.equal(response.statusCode, 404, response.body);
      assert.equal((await describeAccount(t, account.platformid)).user_id, null);
    });

    test("settings and auto_accept refuse unknown fields and wrong types by name", async () => {
      const account = await createAccount(t);
      const url = `/sandbox/platform/accounts/${account.platformid}`;
      const cases: Array<[string, unknown, RegExp]> = [
        [`${url}/settings`, { public: true }, /^public: unknown field$/],
        [`${url}/settings`, { inventory_public: "yes" }, /^inventory_public:/],
        [`${url}/settings`, { limited: 1 }, /^limited:/],
        [`${url}/auto_accept`, {}, /^enabled: required$/],
        [`${url}/auto_accept`, { enabled: "on" }, /^enabled:/],
        [`${url}/auto_accept`, { enabled: true, extra: 1 }, /^extra: unknown field$/],
      ];
      for (const [path, body, message] of cases) {
        const response = await t.admin("PUT", path, body);
        assert.equal(response.statusCode, 400, `${path} ${JSON.stringify(body)}`);
        assert.match(response.json().msg, message, `${path} ${JSON.stringify(body)}`);
      }
      const unchanged = await describeAccount(t, account.platformid);
      assert.equal(unchanged.inventory_public, false);
      assert.equal(unchanged.auto_accept, false);
    });

    test("routes that take no body refuse one", async () => {
      const account = await createAccount(t);
      for (const path of ["unbind", "cookies", "cookies/expire"]) {
        const response = await t.admin("POST", `/sandbox/platform/accounts/${account.platformid}/${path}`, {
          user_id: "1001",
        });
        assert.equal(response.statusCode, 400, path);
        assert.match(response.json().msg, /^body:/, path);
      }
    });
  });

  describe("security", () => {
    test("every account route needs the sandbox admin token: none, a user's token or a wrong one is Unauthorized", async () => {
      const user = await t.createUser();
      const account = await createAccount(t);
      const accounts = await accountRowCount();
      const callers: Array<string | undefined> = [undefined, user.token, "sma_wrong-admin-token-0000000000"];
      const routes: Array<[InjectOptions["method"], string, unknown]> = [
        ["POST", "/sandbox/platform/accounts", {}],
        ...accountRoutes(account.platformid, user.userId),
      ];
      for (const token of callers) {
        for (const [method, path, body] of routes) {
          const response = await t.app.inject({
            method,
            url: path,
            headers: token ? { authorization: `Bearer ${token}` } : {},
            ...(body === undefined ? {} : { payload: body as InjectOptions["payload"] }),
          });
          assert.equal(response.statusCode, 401, `${method} ${path} with ${token ?? "no token"}`);
          assert.equal(response.json().code, "Unauthorized");
        }
      }
      const untouched = await describeAccount(t, account.platformid);
      assert.deepEqual(
        [untouched.user_id, untouched.inventory_public, untouched.auto_accept],
        [null, false, false],
      );
      assert.equal(await accountRowCount(), accounts);
    });

    test("an anonymous caller learns nothing from validation: a malformed request without the token is Unauthorized", async () => {
      for (const [method, path, body] of accountRoutes("123", "0")) {
        const response = await t.app.inject({
          method,
          url: path,
          ...(body === undefined ? {} : { payload: body as InjectOptions["payload"] }),
        });
        assert.equal(response.statusCode, 401, `${method} ${path}`);
      }
    });

    test("two users racing to bind one account: exactly one gets it", async () => {
      const first = await t.createUser();
      const second = await t.createUser();
      const account = await createAccount(t);
      const url = `/sandbox/platform/accounts/${account.platformid}/bind`;
      const responses = await Promise.all([
        t.admin("POST", url, { user_id: first.userId }),
        t.admin("POST", url, { user_id: second.userId }),
      ]);
      assert.deepEqual(
        responses.map((response) => response.statusCode).sort(),
        [200, 409],
        responses.map((response) => response.body).join("\n"),
      );
      const winner = responses.find((response) => response.statusCode === 200)?.json().user_id;
      assert.equal((await describeAccount(t, account.platformid)).user_id, winner);
    });

    test("one account's cookies are no session of another account", async () => {
      const user = await t.createUser();
      const mine = await createAccount(t, { user_id: user.userId });
      const theirs = await createAccount(t);
      assert.equal(await cookieState(user.token, mine.platformid, theirs.cookies), "invalid");
    });

    test("a login cookie with a forged secret is no session", async () => {
      const user = await t.createUser();
      const account = await createAccount(t, { user_id: user.userId });
      const cookies = (JSON.parse(account.cookies) as Cookie[]).map((cookie) =>
        cookie.key === "steamLoginSecure"
          ? { ...cookie, value: `${account.platformid}%7C%7Cforged-secret` }
          : cookie,
      );
      assert.equal(await cookieState(user.token, account.platformid, JSON.stringify(cookies)), "invalid");
    });

    test("a login cookie that is not valid percent-encoding is no session, and the platform does not fail on it", async () => {
      const account = await createAccount(t);
      const state = await t.ctx.platform.validateSession(t.ctx, {
        platformid: account.platformid,
        cookies: [{ domain: "steamcommunity.com", key: "steamLoginSecure", value: "%E0%A4%A" }],
      });
      assert.equal(state, "invalid");
    });

    test("an unbound account's cookies cannot be uploaded by the user it was bound to", async () => {
      const user = await t.createUser();
      const account = await createAccount(t, { user_id: user.userId });
      await t.admin("POST", `/sandbox/platform/accounts/${account.platformid}/unbind`);
      const response = await t.as(user.token, "POST", "/api/market/developer/platform/cookie", {
        platformid: account.platformid,
        platform_cookies: account.cookies,
      });
      assert.equal(response.statusCode, 404, response.body);
    });
  });
});

/** Every route on one account, with a body each accepts when the account and user exist. */
function accountRoutes(
  platformid: string,
  userId = "1001",
): Array<[InjectOptions["method"], string, unknown]> {
  const url = `/sandbox/platform/accounts/${platformid}`;
  return [
    ["GET", url, undefined],
    ["PUT", `${url}/settings`, { inventory_public: true }],
    ["PUT", `${url}/auto_accept`, { enabled: true }],
    ["POST", `${url}/bind`, { user_id: userId }],
    ["POST", `${url}/unbind`, undefined],
    ["POST", `${url}/cookies`, undefined],
    ["POST", `${url}/cookies/expire`, undefined],
  ];
}
