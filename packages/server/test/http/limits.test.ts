import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { defineOperation, OPERATIONS, type OperationDefinition } from "@skinmarket/contract";
import Fastify, { type FastifyInstance } from "fastify";
import { Type } from "typebox";
import { ok } from "../../src/domain/result.ts";
import { registerOperation } from "../../src/http/operation-route.ts";
import { registerErrorHandling } from "../../src/http/plugins/errors.ts";
import { registerLimits } from "../../src/http/plugins/limits.ts";
import { createValidatorCompiler } from "../../src/http/plugins/validation.ts";
import { LimiterStore } from "../../src/http/limits/limiter-store.ts";
import type { RateSetting } from "../../src/http/plugins/limits.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { describeOrSkip } from "../support/describe-or-skip.ts";
import { assertCountedInRedis, limiterStoreOf, REDIS_URL } from "../support/limiter-stores.ts";

const silent = { warn() {}, info() {} };

/** A request each limited operation admits (authenticated and valid); its answer may be any non-429. */
const CALLS: Record<string, { method: "GET" | "POST" | "PUT"; url: string; body?: unknown }> = {
  getBalance: { method: "GET", url: "/api/market/developer/balance" },
  getBuyOrderStatus: { method: "GET", url: "/api/market/developer/buy_order/status" },
  setBuyOrderStatus: { method: "PUT", url: "/api/market/developer/buy_order/status", body: {} },
  listBuyOrders: { method: "GET", url: "/api/market/developer/buy_order?game=cs2" },
  getPlatformInventory: {
    method: "GET",
    url: "/api/market/developer/platform/inventory?game=cs2&platformid=76561198000000001",
  },
  purchaseQuantity: { method: "GET", url: "/api/market/developer/purchase/quantity?game=cs2&goods_id=1" },
  listPurchaseOrders: {
    method: "POST",
    url: "/api/market/developer/purchase/orders/list",
    body: { game: "cs2" },
  },
  sellOrderHistory: {
    method: "POST",
    url: "/api/market/developer/sell_order/history",
    body: { game: "cs2" },
  },
};

/** The reference's "Limits" table, as the contract declares it. */
const REFERENCE: Record<string, RateSetting> = {
  listPurchaseOrders: { points: 10, seconds: 1 },
  getPlatformInventory: { points: 60, seconds: 60 },
  listBuyOrders: { points: 60, seconds: 60 },
  getBuyOrderStatus: { points: 60, seconds: 60 },
  purchaseQuantity: { points: 60, seconds: 60 },
  sellOrderHistory: { points: 10, seconds: 1 },
  getBalance: { points: 60, seconds: 60 },
  setBuyOrderStatus: { points: 60, seconds: 60 },
  getEnterpriseSellOrders: { points: 3, seconds: 1 },
};

test("the contract declares the reference's rate for every operation of its table", () => {
  const declared = Object.fromEntries(
    (OPERATIONS as readonly OperationDefinition[])
      .filter((operation) => operation.limits?.rate)
      .map((operation) => [operation.id, operation.limits!.rate]),
  );
  assert.deepEqual(declared, REFERENCE);
});

for (const store of ["memory", "Redis"] as const) {
  describeOrSkip(
    `rate limits per token (${store})`,
    { skip: store === "Redis" && !REDIS_URL && "needs TEST_REDIS_URL" },
    () => {
      let t: TestApp;
      let limiterStore: LimiterStore;
      let keyPrefix: string;
      // Windows of an hour, so that no window ends during a test; the points are the reference's.
      const overrides = Object.fromEntries(
        Object.entries(REFERENCE).map(([id, rate]) => [id, { points: rate.points, seconds: 3600 }]),
      );
      before(async () => {
        ({ store: limiterStore, keyPrefix } = await limiterStoreOf(store));
        t = await createTestApp({
          limits: {
            store: limiterStore,
            settings: { overrides, defaultRate: { points: 20, seconds: 3600 } },
          },
        });
      });
      after(async () => {
        await t.close();
        await limiterStore.close();
      });

      for (const [id, call] of Object.entries(CALLS)) {
        test(`${id}: ${REFERENCE[id]!.points} admitted, the next is 429 with Retry-After`, async () => {
          const user = await t.createUser();
          for (let index = 0; index < REFERENCE[id]!.points; index++) {
            const response = await t.as(user.token, call.method, call.url, call.body);
            assert.notEqual(response.statusCode, 429, `request ${index + 1}: ${response.body}`);
            assert.equal(response.headers["ratelimit-limit"], String(REFERENCE[id]!.points));
            assert.equal(response.headers["ratelimit-remaining"], String(REFERENCE[id]!.points - index - 1));
          }
          const refused = await t.as(user.token, call.method, call.url, call.body);
          assert.equal(refused.statusCode, 429, refused.body);
          assert.equal(refused.json().code, "Rate Limit Exceeded");
          assert.match(refused.json().msg, new RegExp(`^${id} allows ${REFERENCE[id]!.points} requests`));
          assert.ok(Number(refused.headers["retry-after"]) >= 1);
          assert.equal(refused.headers["ratelimit-remaining"], "0");
          assert.ok(Number(refused.headers["ratelimit-reset"]) > 0);
        });
      }

      test("an operation the reference gives no limit gets the default rate", async () => {
        const user = await t.createUser();
        const url = "/api/market/developer/sell_order/on_sale?game=cs2";
        for (let index = 0; index < 20; index++)
          assert.notEqual((await t.as(user.token, "GET", url)).statusCode, 429);
        const refused = await t.as(user.token, "GET", url);
        assert.equal(refused.statusCode, 429);
        assert.equal(refused.headers["ratelimit-policy"], "20;w=3600");
      });

      test("50 concurrent requests never get more than the limit admitted", async () => {
        const user = await t.createUser();
        const call = CALLS.listPurchaseOrders!;
        const answers = await Promise.all(
          Array.from({ length: 50 }, () => t.as(user.token, call.method, call.url, call.body)),
        );
        assert.equal(answers.filter((answer) => answer.statusCode !== 429).length, 10);
      });

      test("counts are per token; refused input costs nothing; the sandbox resets a token", async () => {
        const user = await t.createUser();
        const call = CALLS.sellOrderHistory!;
        for (let index = 0; index < 5; index++) {
          const invalid = await t.as(user.token, "POST", call.url, { game: "dota3" });
          assert.equal(invalid.statusCode, 400);
        }
        const unauthenticated = await t.as("smk_not-a-token", "POST", call.url, call.body);
        assert.equal(unauthenticated.statusCode, 401);
        for (let index = 0; index < 10; index++)
          assert.equal((await t.as(user.token, call.method, call.url, call.body)).statusCode, 200);
        assert.equal((await t.as(user.token, call.method, call.url, call.body)).statusCode, 429);

        const second = (await t.admin("POST", `/sandbox/users/${user.userId}/tokens`)).json<{
          token: string;
        }>();
        assert.equal((await t.as(second.token, call.method, call.url, call.body)).statusCode, 200);

        const reset = await t.admin("POST", `/sandbox/tokens/${user.tokenId}/limits/reset`);
        assert.deepEqual(reset.json(), { token_id: user.tokenId, reset: true });
        assert.equal((await t.as(user.token, call.method, call.url, call.body)).statusCode, 200);
        assert.equal((await t.admin("POST", "/sandbox/tokens/999999/limits/reset")).statusCode, 404);
      });

      test("sandbox and internal routes are not limited", async () => {
        for (let index = 0; index < 30; index++) {
          const response = await t.admin("GET", "/sandbox/clock");
          assert.equal(response.statusCode, 200);
          assert.equal(response.headers["ratelimit-limit"], undefined);
        }
      });

      if (store === "Redis")
        test("the counters were kept in Redis, not in the memory fallback", () =>
          assertCountedInRedis(keyPrefix));
    },
  );
}

describe("rate limits in real windows", () => {
  let t: TestApp;
  let limiterStore: LimiterStore;
  before(async () => {
    limiterStore = new LimiterStore({ log: silent });
    t = await createTestApp({ limits: { store: limiterStore } });
  });
  after(async () => {
    await t.close();
    await limiterStore.close();
  });

  test("a per-second limit admits again once its second is over", async () => {
    const user = await t.createUser();
    const call = CALLS.listPurchaseOrders!;
    let refused;
    for (let index = 0; index < 40 && !refused; index++) {
      const response = await t.as(user.token, call.method, call.url, call.body);
      if (response.statusCode === 429) refused = response;
    }
    assert.ok(refused, "requests sent one after another soon meet the limit of 10 a second");
    await new Promise((resolve) => setTimeout(resolve, Number(refused.headers["retry-after"]) * 1000 + 50));
    assert.equal((await t.as(user.token, call.method, call.url, call.body)).statusCode, 200);
  });
});

describe("rate limits while Redis is unreachable", () => {
  let t: TestApp;
  let limiterStore: LimiterStore;
  const warnings: string[] = [];
  before(async () => {
    limiterStore = new LimiterStore({
      redisUrl: "redis://127.0.0.1:1",
      log: { warn: (_object, message) => warnings.push(message), info() {} },
    });
    t = await createTestApp({
      limits: { store: limiterStore, settings: { overrides: { getBalance: { points: 3, seconds: 3600 } } } },
    });
  });
  after(async () => {
    // The store is the test's: closed first, so that the app's close finds none of its timers.
    await limiterStore.close();
    await t.close();
  });

  test("the service keeps answering, counts in memory, and says so in its log", async () => {
    const user = await t.createUser();
    const codes = [];
    for (let index = 0; index < 4; index++)
      codes.push((await t.as(user.token, "GET", "/api/market/developer/balance")).statusCode);
    assert.deepEqual(codes, [200, 200, 200, 429]);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /Redis is unreachable/);
  });
});

describe("daily allowances", () => {
  /** An official operation with a daily allowance of 3, on a bare app with the limits plugin. */
  const daily = defineOperation({
    id: "dailyProbe",
    method: "GET",
    path: "/probe",
    access: "developer",
    envelope: "official",
    summary: "an operation with a daily allowance",
    tags: ["Test"],
    querystring: Type.Object({ bad: Type.Optional(Type.Boolean()) }),
    response: Type.Object({ ok: Type.Boolean(), req_remaining: Type.Integer() }),
    limits: { daily: 3 },
  });
  let app: FastifyInstance;
  let limiterStore: LimiterStore;
  before(async () => {
    limiterStore = new LimiterStore({ log: silent });
    app = Fastify();
    app.setValidatorCompiler(createValidatorCompiler());
    registerErrorHandling(app);
    app.addHook("onRequest", async (request) => {
      request.tokenId = Number(request.headers["x-token"]);
    });
    registerLimits(app, limiterStore, { defaultRate: { points: 100, seconds: 3600 }, overrides: {} });
    registerOperation(app, daily, async ({ query }) =>
      query.bad
        ? { ok: false, failure: { code: "Invalid Argument", message: "bad: refused" } }
        : ok({ ok: true }),
    );
    await app.ready();
  });
  after(async () => {
    await app.close();
    await limiterStore.close();
  });
  const probe = (token: string, bad = false) =>
    app.inject({ method: "GET", url: `/probe${bad ? "?bad=true" : ""}`, headers: { "x-token": token } });

  test("admits exactly its number, says what is left, then Quota Exceeded until it renews", async () => {
    const remaining = [];
    for (let index = 0; index < 3; index++) remaining.push((await probe("1")).json().req_remaining);
    assert.deepEqual(remaining, [2, 1, 0]);
    const refused = await probe("1");
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.json().code, "Quota Exceeded");
    assert.match(
      refused.json().msg,
      /allows 3 requests per 24 hours per token; the allowance renews in 2[34] h/,
    );
    assert.ok(Number(refused.headers["retry-after"]) > 23 * 3600);
    assert.equal((await probe("2")).json().req_remaining, 2, "another token has its own allowance");
  });

  test("a request the operation refuses as bad input costs no allowance", async () => {
    for (let index = 0; index < 5; index++) assert.equal((await probe("3", true)).statusCode, 400);
    assert.equal((await probe("3")).json().req_remaining, 2);
  });
});

for (const store of ["memory", "Redis"] as const) {
  describeOrSkip(
    `distinct goods per day (${store})`,
    { skip: store === "Redis" && !REDIS_URL && "needs TEST_REDIS_URL" },
    () => {
      const goods = defineOperation({
        id: "goodsProbe",
        method: "POST",
        path: "/goods-probe",
        access: "developer",
        envelope: "official",
        summary: "an operation limited to 3 distinct goods a day",
        tags: ["Test"],
        body: Type.Object({ goods_id: Type.Array(Type.Integer()) }),
        response: Type.Object({ ok: Type.Boolean() }),
        limits: { distinctGoods: { perDay: 3, field: "goods_id", in: "body" } },
      });
      let app: FastifyInstance;
      let limiterStore: LimiterStore;
      let keyPrefix: string;
      before(async () => {
        ({ store: limiterStore, keyPrefix } = await limiterStoreOf(store));
        app = Fastify();
        app.setValidatorCompiler(createValidatorCompiler());
        registerErrorHandling(app);
        app.addHook("onRequest", async (request) => {
          request.tokenId = Number(request.headers["x-token"]);
        });
        registerLimits(app, limiterStore, { defaultRate: { points: 100, seconds: 3600 }, overrides: {} });
        registerOperation(app, goods, async () => ok({ ok: true }));
        await app.ready();
      });
      after(async () => {
        await app.close();
        await limiterStore.close();
      });
      const ask = (token: string, ids: number[]) =>
        app.inject({
          method: "POST",
          url: "/goods-probe",
          headers: { "x-token": token },
          payload: { goods_id: ids },
        });

      test("at most 3 distinct goods a day; a goods asked again costs nothing; a query cannot stand in", async () => {
        assert.equal((await ask("1", [1, 2])).statusCode, 200);
        assert.equal((await ask("1", [2, 1, 2])).statusCode, 200, "already asked for today");
        const smuggled = await app.inject({
          method: "POST",
          url: "/goods-probe?goods_id=1",
          headers: { "x-token": "1" },
          payload: { goods_id: [10, 11] },
        });
        assert.equal(smuggled.statusCode, 429, "the body's goods count, whatever the query says");
        assert.equal((await ask("1", [3])).statusCode, 200);
        const over = await ask("1", [4]);
        assert.equal(over.statusCode, 429);
        assert.equal(over.json().code, "Quota Exceeded");
        assert.match(
          over.json().msg,
          /allows 3 distinct goods_id per day \(UTC\) per token; 3 asked for today/,
        );
        assert.ok(Number(over.headers["retry-after"]) <= 86_400);
        assert.equal((await ask("1", [1, 2, 3])).statusCode, 200);
        assert.equal((await ask("2", [4, 5, 6])).statusCode, 200, "another token counts its own");
        await limiterStore.reset("1");
        assert.equal((await ask("1", [7, 8, 9])).statusCode, 200, "the sandbox's reset forgets the day");
      });

      if (store === "Redis")
        test("the counters were kept in Redis, not in the memory fallback", () =>
          assertCountedInRedis(keyPrefix));
    },
  );
}
