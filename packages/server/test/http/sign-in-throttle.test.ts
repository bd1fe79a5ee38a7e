import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../support/test-app.ts";
import { testPlatform } from "../support/test-context.ts";

/**
 * docs/design/security.md#security: per account, 5 failures free, then a hold of 1 s doubling with each
 * further failure up to 15 minutes; per client address, 20 distinct accounts failed free, then the
 * same doubling with each further account.
 */
const expectedHoldSeconds = (failures: number, free: number) =>
  failures < free ? 0 : Math.min(900, 2 ** (failures - free));

describe("sign-in is throttled per account and per client address", () => {
  let t: TestApp;
  let address = 0;
  /** Each test signs in from addresses of its own, so that their counts stay apart. */
  const newAddress = () => `203.0.113.${++address}`;
  before(async () => {
    // Holds of 1 s are checked at their edges: the time moves only when a test says.
    t = await createTestApp({ stoppedClock: true });
  });
  after(() => t.close());

  const login = (nickname: string, password: string, from: string, app: FastifyInstance = t.app) =>
    app.inject({
      method: "POST",
      url: "/account/api/login",
      payload: { nickname, password },
      remoteAddress: from,
    });
  const refusalRows = async () =>
    Number(
      (
        await t.ctx.db
          .selectFrom("audit_events")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("action", "=", "auth.refused")
          .executeTakeFirstOrThrow()
      ).n,
    );
  const advance = (seconds: number) => t.clock.setOffset(t.clock.offsetMs + seconds * 1000);

  test("after 5 wrong passwords the 6th try, even the right password, is 429 with Retry-After and no audit row", async () => {
    const user = await t.createUser({ nickname: "guarded", password: "right password" });
    const from = newAddress();
    for (let index = 0; index < 5; index++)
      assert.equal((await login(user.nickname, `wrong ${index}`, from)).statusCode, 401);
    const rows = await refusalRows();
    for (const password of ["wrong 5", "right password"]) {
      const held = await login(user.nickname, password, from);
      assert.equal(held.statusCode, 429);
      assert.deepEqual(Object.keys(held.json()).sort(), ["code", "error", "extra"]);
      assert.equal(held.json().code, "Rate Limit Exceeded");
      assert.equal(held.headers["retry-after"], "1");
    }
    assert.equal(await refusalRows(), rows, "held-back tries write nothing");
    advance(1);
    assert.equal((await login(user.nickname, "right password", from)).statusCode, 200);
  });

  test("each further failure doubles the hold: 1, 2, 4 ... seconds, up to 15 minutes", async () => {
    const user = await t.createUser({ nickname: "doubling", password: "right password" });
    const from = newAddress();
    for (let failures = 1; failures <= 5; failures++)
      assert.equal((await login(user.nickname, "wrong", from)).statusCode, 401, `failure ${failures}`);
    const holds: number[] = [];
    for (let failures = 5; failures <= 16; failures++) {
      const held = await login(user.nickname, "wrong", from);
      assert.equal(held.statusCode, 429);
      holds.push(Number(held.headers["retry-after"]));
      advance(holds.at(-1)!);
      if (failures < 16) assert.equal((await login(user.nickname, "wrong", from)).statusCode, 401);
    }
    const expected = Array.from({ length: 12 }, (_, index) => expectedHoldSeconds(index + 5, 5));
    assert.deepEqual(holds, expected);
    assert.equal(Math.max(...holds), 900);
  });

  test("a successful sign-in clears the account's failures", async () => {
    const user = await t.createUser({ nickname: "forgetful", password: "right password" });
    const from = newAddress();
    for (let index = 0; index < 4; index++) await login(user.nickname, "wrong", from);
    assert.equal((await login(user.nickname, "right password", from)).statusCode, 200);
    for (let index = 0; index < 4; index++)
      assert.equal((await login(user.nickname, "wrong", from)).statusCode, 401);
    assert.equal((await login(user.nickname, "right password", from)).statusCode, 200);
  });

  test("an unknown nickname is held back exactly as a known one", async () => {
    const from = newAddress();
    for (let index = 0; index < 5; index++)
      assert.equal((await login("nobody-at-all", "wrong", from)).statusCode, 401);
    const held = await login("Nobody-At-All", "wrong", from);
    assert.equal(held.statusCode, 429);
    assert.equal(held.headers["retry-after"], "1");
  });

  test("20 failures from one address over many nicknames hold back that address only", async () => {
    const user = await t.createUser({ nickname: "bystander", password: "right password" });
    const from = newAddress();
    for (let index = 0; index < 20; index++)
      assert.equal((await login(`sprayed-${index}`, "wrong", from)).statusCode, 401, `try ${index + 1}`);
    const held = await login(user.nickname, "right password", from);
    assert.equal(held.statusCode, 429);
    assert.equal(held.headers["retry-after"], "1");
    assert.equal((await login(user.nickname, "right password", newAddress())).statusCode, 200);
  });

  /** Fails `count` times on one account, waiting out each of the account's holds. */
  const failRepeatedly = async (nickname: string, count: number, from: string) => {
    for (let failed = 0; failed < count;) {
      const answer = await login(nickname, "wrong", from);
      if (answer.statusCode === 429) advance(Number(answer.headers["retry-after"]));
      else {
        assert.equal(answer.statusCode, 401);
        failed++;
      }
    }
  };

  test("30 failures on one account from an address leave another account's sign-in from there open", async () => {
    const neighbour = await t.createUser({ nickname: "neighbour", password: "right password" });
    const from = newAddress();
    await failRepeatedly("hammered", 30, from);
    assert.equal((await login(neighbour.nickname, "right password", from)).statusCode, 200);
  });

  test("an account that signs in after mistyping leaves the address's count", async () => {
    const typist = await t.createUser({ nickname: "typist", password: "right password" });
    const colleague = await t.createUser({ nickname: "colleague", password: "right password" });
    const from = newAddress();
    for (let index = 0; index < 18; index++)
      assert.equal((await login(`forgotten-${index}`, "wrong", from)).statusCode, 401);
    assert.equal((await login(typist.nickname, "wrong", from)).statusCode, 401);
    assert.equal((await login(typist.nickname, "right password", from)).statusCode, 200);
    assert.equal((await login(colleague.nickname, "right password", from)).statusCode, 200);
    // 18 accounts failed and never signed in: two more close the address.
    for (const nickname of ["forgotten-18", "forgotten-19"])
      assert.equal((await login(nickname, "wrong", from)).statusCode, 401);
    assert.equal((await login(colleague.nickname, "right password", from)).statusCode, 429);
  });

  describe("behind a reverse proxy", () => {
    const proxy = "10.1.2.3";
    const viaProxy = (app: FastifyInstance, nickname: string, password: string, client: string) =>
      app.inject({
        method: "POST",
        url: "/account/api/login",
        payload: { nickname, password },
        remoteAddress: proxy,
        headers: { "x-forwarded-for": client },
      });

    test("with TRUST_PROXY naming the proxy, the forwarded address is the one throttled", async () => {
      const proxied = await buildApp({
        database: t.database,
        clock: t.clock,
        ...testPlatform(),
        trustProxy: ["10.0.0.0/8"],
      });
      try {
        const user = await t.createUser({ nickname: "proxied", password: "right password" });
        const attacker = newAddress();
        for (let index = 0; index < 20; index++)
          assert.equal((await viaProxy(proxied, `stuffed-${index}`, "wrong", attacker)).statusCode, 401);
        assert.equal((await viaProxy(proxied, user.nickname, "right password", attacker)).statusCode, 429);
        assert.equal(
          (await viaProxy(proxied, user.nickname, "right password", newAddress())).statusCode,
          200,
        );
        const keys = (await t.ctx.db.selectFrom("sign_in_failures").select("throttle_key").execute()).map(
          (row) => row.throttle_key,
        );
        assert.ok(keys.includes(`address:${attacker}`));
      } finally {
        await proxied.close();
      }
    });

    test("without TRUST_PROXY, X-Forwarded-For is ignored: the proxy's own address is throttled", async () => {
      const user = await t.createUser({ nickname: "unproxied", password: "right password" });
      const proxyFailures = async () =>
        (
          await t.ctx.db
            .selectFrom("sign_in_failures")
            .select("failures")
            .where("throttle_key", "=", `address:${proxy}`)
            .executeTakeFirst()
        )?.failures ?? 0;
      const before = await proxyFailures();
      for (let index = 0; index < 3; index++)
        assert.equal((await viaProxy(t.app, `unforwarded-${index}`, "wrong", newAddress())).statusCode, 401);
      assert.equal(await proxyFailures(), before + 3);
      assert.equal((await viaProxy(t.app, user.nickname, "right password", newAddress())).statusCode, 200);
    });
  });

  test("20 concurrent wrong passwords for one account: at most 5 are tried, the rest are 429", async () => {
    const user = await t.createUser({ nickname: "stampede", password: "right password" });
    const from = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => login(user.nickname, `wrong ${index}`, from)),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    assert.equal(statuses.filter((status) => status === 401).length, 5);
    assert.equal(statuses.filter((status) => status === 429).length, 15);
  });

  test("25 concurrent wrong passwords for 25 accounts from one address: 20 are tried, 5 are 429", async () => {
    const from = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, index) => login(`crowd-${index}`, "wrong", from)),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    assert.equal(statuses.filter((status) => status === 401).length, 20);
    assert.equal(statuses.filter((status) => status === 429).length, 5);
    const counted = await t.ctx.db
      .selectFrom("sign_in_address_accounts")
      .select("account_key")
      .where("address_key", "=", `address:${from}`)
      .execute();
    assert.equal(counted.length, 20);
  });

  test("failures counted on one instance hold the account back on another", async () => {
    const other = await buildApp({
      database: t.database,
      clock: t.clock,
      ...testPlatform(),
      sandbox: { clock: t.clock, adminToken: ADMIN_TOKEN },
    });
    try {
      const user = await t.createUser({ nickname: "roaming", password: "right password" });
      const from = newAddress();
      for (let index = 0; index < 5; index++)
        await login(user.nickname, "wrong", from, index % 2 ? t.app : other);
      assert.equal((await login(user.nickname, "right password", from, other)).statusCode, 429);
      assert.equal((await login(user.nickname, "right password", from, t.app)).statusCode, 429);
    } finally {
      await other.close();
    }
  });

  test("failures are forgotten after a day without one", async () => {
    const user = await t.createUser({ nickname: "returning", password: "right password" });
    const from = newAddress();
    for (let index = 0; index < 5; index++) await login(user.nickname, "wrong", from);
    advance(24 * 3600);
    for (let index = 0; index < 5; index++)
      assert.equal((await login(user.nickname, "wrong", from)).statusCode, 401);
  });

  test("the jobs delete counts left a day without a failure, and keep newer ones", async () => {
    const from = newAddress();
    await login("purged-soon", "wrong", from);
    advance(24 * 3600 + 1);
    const recent = newAddress();
    await login("kept-for-now", "wrong", recent);
    const keys = async () =>
      (await t.ctx.db.selectFrom("sign_in_failures").select("throttle_key").execute()).map(
        (row) => row.throttle_key,
      );
    const counted = async () =>
      (await t.ctx.db.selectFrom("sign_in_address_accounts").select("address_key").execute()).map(
        (row) => row.address_key,
      );
    assert.ok((await keys()).includes(`address:${from}`));
    assert.ok((await counted()).includes(`address:${from}`));
    assert.equal((await t.admin("POST", "/sandbox/jobs/run")).statusCode, 200);
    const left = await keys();
    assert.ok(!left.includes(`address:${from}`));
    assert.ok(left.includes(`address:${recent}`));
    assert.ok(!(await counted()).includes(`address:${from}`));
    assert.ok((await counted()).includes(`address:${recent}`));
  });
});
