import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { migrateToLatest } from "../../src/storage/migrator.ts";
import { createTestApp, withCsrf, type TestApp } from "../support/test-app.ts";

describe("sandbox API", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test("happy: create a user with every field; the answer carries a working token and password", async () => {
    const response = await t.admin("POST", "/sandbox/users", {
      nickname: "bot-one",
      access_level: "enterprise",
      password: "hunter2hunter2",
    });
    assert.equal(response.statusCode, 200);
    const user = response.json();
    assert.equal(user.nickname, "bot-one");
    assert.equal(user.access_level, "enterprise");
    assert.equal(user.password, "hunter2hunter2");
    assert.match(user.token, /^smk_[A-Za-z0-9_-]{43}$/);
    assert.match(user.user_id, /^\d+$/);
    const balance = await t.as(user.token, "GET", "/api/market/developer/balance");
    assert.equal(balance.statusCode, 200);
  });

  test("happy: defaults give a developer with a generated nickname and password", async () => {
    const response = await t.admin("POST", "/sandbox/users", {});
    const user = response.json();
    assert.equal(user.access_level, "developer");
    assert.match(user.nickname, /^trader-[0-9a-f]{8}$/);
    assert.ok(user.password.length >= 16);
  });

  test("happy: tokens are stored hashed, several per user, and revocation takes effect at once", async () => {
    const user = await t.createUser();
    const second = (await t.admin("POST", `/sandbox/users/${user.userId}/tokens`)).json();
    assert.notEqual(second.token, user.token);
    const stored = await t.database.db.selectFrom("api_tokens").select(["token_hash", "prefix"]).execute();
    assert.ok(stored.every((row) => !row.token_hash.startsWith("smk_") && row.prefix.length === 10));
    const revoke = await t.admin("DELETE", `/sandbox/tokens/${second.token_id}`);
    assert.equal(revoke.statusCode, 200);
    assert.equal(revoke.json().token_id, second.token_id);
    assert.equal((await t.as(second.token, "GET", "/api/market/developer/balance")).statusCode, 401);
    assert.equal((await t.as(user.token, "GET", "/api/market/developer/balance")).statusCode, 200);
  });

  test("happy: deposit and withdraw move money through the ledger", async () => {
    const user = await t.createUser();
    let response = await t.admin("POST", `/sandbox/users/${user.userId}/funds`, {
      account: "balance",
      amount: "50.25",
    });
    assert.deepEqual(response.json(), { balance: "50.25", margin: "0.00", wallet: "0.00", escrow: "0.00" });
    await t.assertLedger();
    response = await t.admin("POST", `/sandbox/users/${user.userId}/withdrawals`, {
      account: "balance",
      amount: 20,
    });
    assert.equal(response.json().balance, "30.25");
    await t.assertLedger();
    response = await t.admin("GET", `/sandbox/users/${user.userId}/balances`);
    assert.deepEqual(response.json(), { balance: "30.25", margin: "0.00", wallet: "0.00", escrow: "0.00" });
  });

  test("error: a withdrawal beyond the balance is Insufficient Balance and writes nothing", async () => {
    const user = await t.createUser();
    await t.fund(user.userId, "wallet", 10);
    const entriesBefore = await t.database.db.selectFrom("journal_entries").select("entry_id").execute();
    const response = await t.admin("POST", `/sandbox/users/${user.userId}/withdrawals`, {
      account: "wallet",
      amount: "10.01",
    });
    assert.equal(response.statusCode, 409);
    assert.equal(response.json().code, "Insufficient Balance");
    const entriesAfter = await t.database.db.selectFrom("journal_entries").select("entry_id").execute();
    assert.equal(entriesAfter.length, entriesBefore.length);
    assert.equal((await t.admin("GET", `/sandbox/users/${user.userId}/balances`)).json().wallet, "10.00");
    await t.assertLedger();
  });

  test("error: bad amounts and accounts name the field", async () => {
    const user = await t.createUser();
    const cases: Array<[unknown, RegExp]> = [
      [
        { account: "balance", amount: "1.001" },
        /^amount: must be an amount in yuan with at most 2 decimals$/,
      ],
      [{ account: "balance", amount: 0 }, /^amount: must be greater than 0$/],
      [{ account: "balance", amount: -5 }, /^amount: must not be negative$/],
      [{ account: "balance", amount: "-5" }, /^amount: must not be negative$/],
      [{ account: "balance", amount: "99999999999999.99" }, /^amount: must not exceed 100000000.00$/],
      [{ account: "balance", amount: "lots" }, /^amount:/],
      [{ account: "balance", amount: true }, /^amount: must be number or string$/],
      [{ account: "escrow", amount: 1 }, /^account: must be one of balance, margin, wallet$/],
      [{ amount: 1 }, /^account: required$/],
      [{ account: "balance", amount: 1, note: "x" }, /^note: unknown field$/],
    ];
    for (const route of ["funds", "withdrawals"])
      for (const [body, message] of cases) {
        const response = await t.admin("POST", `/sandbox/users/${user.userId}/${route}`, body);
        assert.equal(response.statusCode, 400, `${route} ${JSON.stringify(body)}`);
        assert.match(response.json().msg, message, `${route} ${JSON.stringify(body)}`);
      }
    // A refused negative deposit moved nothing.
    assert.equal((await t.admin("GET", `/sandbox/users/${user.userId}/balances`)).json().balance, "0.00");
  });

  test("error: unknown users and tokens are Not Found; malformed ids are Invalid Argument", async () => {
    assert.equal(
      (await t.admin("POST", "/sandbox/users/999999/funds", { account: "balance", amount: 1 })).statusCode,
      404,
    );
    assert.equal(
      (await t.admin("POST", "/sandbox/users/999999/withdrawals", { account: "balance", amount: 1 }))
        .statusCode,
      404,
    );
    assert.equal((await t.admin("GET", "/sandbox/users/999999/balances")).statusCode, 404);
    assert.equal((await t.admin("POST", "/sandbox/users/999999/tokens")).statusCode, 404);
    assert.equal((await t.admin("DELETE", "/sandbox/tokens/999999")).statusCode, 404);
    const malformed = await t.admin("GET", "/sandbox/users/abc/balances");
    assert.equal(malformed.statusCode, 400);
    assert.match(malformed.json().msg, /^user_id:/);
  });

  test("error: a taken nickname and a short password are refused by name", async () => {
    await t.createUser({ nickname: "taken" });
    const taken = await t.admin("POST", "/sandbox/users", { nickname: "taken" });
    assert.equal(taken.statusCode, 400);
    assert.equal(taken.json().msg, 'nickname: "taken" is already taken');
    const short = await t.admin("POST", "/sandbox/users", { password: "short" });
    assert.match(short.json().msg, /^password:/);
  });

  test("happy: settings change buy-order status and access level", async () => {
    const user = await t.createUser();
    const response = await t.admin("PUT", `/sandbox/users/${user.userId}/settings`, {
      buy_order_status: "offline",
      access_level: "none",
    });
    assert.deepEqual(response.json(), {
      user_id: user.userId,
      access_level: "none",
      buy_order_status: "offline",
      buy_order_auto_offline: false,
      card_declines: false,
    });
    assert.equal((await t.as(user.token, "GET", "/api/market/developer/balance")).statusCode, 403);
  });

  test("happy: the clock advances, survives in the database, and jobs run on it", async () => {
    const before = (await t.admin("GET", "/sandbox/clock")).json();
    const advanced = (await t.admin("POST", "/sandbox/clock/advance", { seconds: 3600 })).json();
    assert.ok(advanced.now >= before.now + 3600);
    assert.equal(advanced.offset_seconds, before.offset_seconds + 3600);
    const stored = await t.database.db.selectFrom("system_settings").selectAll().execute();
    assert.ok(stored.some((row) => row.key === "sandbox_clock_offset_ms"));
    const jobs = (await t.admin("POST", "/sandbox/jobs/run")).json();
    assert.ok(jobs.jobs.some((job: { name: string }) => job.name === "purge-ended-sessions"));
    const bad = await t.admin("POST", "/sandbox/clock/advance", { seconds: -5 });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().msg, /^seconds:/);
  });

  test("happy: the jobs purge a session one day after it ends (logout or expiry), not before", async () => {
    const DAY = 24 * 3600;
    const signIn = async (password: string) => {
      const user = await t.createUser({ password });
      const response = await t.app.inject({
        method: "POST",
        url: "/account/api/login",
        payload: { nickname: user.nickname, password },
      });
      assert.equal(response.statusCode, 200, response.body);
      const cookie = String(response.headers["set-cookie"]).split(";")[0]!;
      return { userId: user.userId, cookie };
    };
    const expiring = await signIn("expire-me-please");
    const loggedOut = await signIn("log-me-out-please");
    const logout = await t.app.inject({
      method: "POST",
      url: "/account/api/logout",
      headers: withCsrf(loggedOut.cookie),
    });
    assert.equal(logout.statusCode, 200);
    const sessionsOf = async (userId: string) =>
      (
        await t.database.db
          .selectFrom("web_sessions")
          .select("session_id")
          .where("user_id", "=", Number(userId))
          .execute()
      ).length;
    // From here the clock moves by the design's figures: a session lasts 7 days (the app's
    // default) and is kept 1 day past its end; 10 s either side of each boundary leave room for
    // the real time the requests take.
    const advanceAndPurge = async (seconds: number) => {
      assert.equal((await t.admin("POST", "/sandbox/clock/advance", { seconds })).statusCode, 200);
      assert.equal((await t.admin("POST", "/sandbox/jobs/run")).statusCode, 200);
    };
    await advanceAndPurge(DAY - 10);
    assert.equal(await sessionsOf(loggedOut.userId), 1, "ended by logout less than a day ago: kept");
    await advanceAndPurge(20);
    assert.equal(await sessionsOf(loggedOut.userId), 0, "ended by logout a day and 10 s ago: purged");
    assert.equal(await sessionsOf(expiring.userId), 1, "not ended yet");
    await advanceAndPurge(8 * DAY - 10 - (DAY + 10));
    assert.equal(await sessionsOf(expiring.userId), 1, "expired less than a day ago: kept");
    await advanceAndPurge(20);
    assert.equal(await sessionsOf(expiring.userId), 0, "expired a day and 10 s ago: purged");
  });

  test("happy: reset empties the world but keeps the catalog, and the clock returns to real time", async () => {
    await t.createUser({ nickname: "before-reset" });
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 60 });
    const reset = await t.admin("POST", "/sandbox/reset");
    assert.deepEqual(reset.json(), { reset: true });
    const users = await t.database.db.selectFrom("users").select("user_id").execute();
    assert.equal(users.length, 0);
    assert.equal((await t.admin("GET", "/sandbox/clock")).json().offset_seconds, 0);
    const again = await t.createUser({ nickname: "before-reset" });
    assert.equal(again.userId, "1001");
    await t.fund(again.userId, "balance", 5);
    await t.assertLedger();
  });

  test("reset keeps the migration bookkeeping: the next start runs no migration and applies no function file", async () => {
    const reset = await t.admin("POST", "/sandbox/reset");
    assert.equal(reset.statusCode, 200, reset.body);
    const start = await migrateToLatest(t.database.db);
    assert.deepEqual(
      { applied: start.applied, functionsApplied: start.functionsApplied },
      { applied: [], functionsApplied: [] },
    );
  });
});

describe("sandbox off", () => {
  test("the sandbox routes do not exist", async () => {
    const t = await createTestApp({ sandbox: false });
    try {
      const response = await t.admin("POST", "/sandbox/users", {});
      assert.equal(response.statusCode, 404);
      assert.equal(response.json().code, "Path Not Found");
    } finally {
      await t.close();
    }
  });
});
