import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  cancelWebBuyOrders,
  getBalance,
  getOnSale,
  listPurchaseOrders,
  login,
  sandboxGetClock,
  setBuyOrderStatus,
} from "@skinmarket/contract";
import { callOperation, type TransportOptions } from "../src/transport.ts";
import { MarketApiError, MarketTransportError } from "../src/errors.ts";
import { MarketClient } from "../src/market-client.ts";
import { TokenBucket } from "../src/rate-limits.ts";

type Reply = { status: number; body: string; headers?: Record<string, string> } | Error;

/** A `fetch` answering the replies in turn (the last one again when they run out), recording requests. */
function scriptedFetch(...replies: Reply[]) {
  const seen: Array<{ method: string; headers: Record<string, string> }> = [];
  const fetch = (async (_input: string | URL | Request, init?: RequestInit) => {
    seen.push({ method: init?.method ?? "GET", headers: init?.headers as Record<string, string> });
    const reply = replies[Math.min(seen.length, replies.length) - 1]!;
    if (reply instanceof Error) throw reply;
    const headers = { "content-type": "application/json", ...reply.headers };
    return new Response(reply.body, { status: reply.status, headers });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

/** A clock that only moves when something sleeps, and the sleeps asked for. */
function fakeTime() {
  let now = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

const ok = (body = "{}", headers: Record<string, string> = {}): Reply => ({ status: 200, body, headers });
const failure = (status: number, code: string, msg = "", headers: Record<string, string> = {}): Reply => ({
  status,
  body: JSON.stringify({ code, msg }),
  headers,
});

function options(fetch: typeof globalThis.fetch, time = fakeTime()): TransportOptions {
  return { baseUrl: "http://m.test", token: "tok", fetch, sleep: time.sleep, now: time.now };
}

describe("TokenBucket", () => {
  test("lets `points` requests start at once, then each waits for the token spent a window earlier", () => {
    const bucket = new TokenBucket({ points: 2, seconds: 1 });
    assert.deepEqual([bucket.take(0), bucket.take(0), bucket.take(0), bucket.take(0)], [0, 0, 1000, 1000]);
    assert.equal(bucket.take(1500), 500);
    assert.equal(bucket.take(5000), 0);
  });
});

describe("rate limits", () => {
  test("a client waits for its bucket instead of sending over the operation's rate", async () => {
    const time = fakeTime();
    const { fetch, seen } = scriptedFetch(ok());
    const client = new MarketClient({ ...options(fetch, time), token: "tok" });
    for (let call = 0; call < 21; call++) await client.listPurchaseOrders();
    assert.equal(listPurchaseOrders.limits.rate.points, 10);
    assert.deepEqual(time.sleeps, [1000, 1000]);
    assert.equal(seen.length, 21);
  });

  test("official operations without a rate get 20 per second; others, or limits off, get no bucket", async () => {
    const time = fakeTime();
    const { fetch } = scriptedFetch(ok());
    for (let call = 0; call < 21; call++)
      await new MarketClient({ ...options(fetch, time), token: "t" }).getOnSale();
    assert.deepEqual(time.sleeps, [], "each client has its own buckets");
    const shared = { ...options(fetch, time), token: "t" };
    const client = new MarketClient(shared);
    for (let call = 0; call < 21; call++) await client.getOnSale();
    assert.deepEqual(time.sleeps, [1000]);
    const sandbox = options(fetch, time);
    for (let call = 0; call < 30; call++) await callOperation(sandbox, sandboxGetClock);
    const unlimited = new MarketClient({ ...shared, limits: "off" });
    for (let call = 0; call < 30; call++) await unlimited.getOnSale();
    assert.deepEqual(time.sleeps, [1000]);
    assert.equal("limits" in getOnSale, false);
  });

  test("the client remembers the RateLimit headers and req_remaining per operation", async () => {
    const { fetch } = scriptedFetch(
      ok('{"market_balance":"1.00","req_remaining":4}', {
        "RateLimit-Limit": "60",
        "RateLimit-Remaining": "59",
        "RateLimit-Reset": "42",
        "RateLimit-Policy": "60;w=60",
      }),
    );
    const client = new MarketClient({ ...options(fetch), token: "tok" });
    assert.equal(client.rateLimitState("getBalance"), undefined);
    await client.getBalance();
    assert.deepEqual(client.rateLimitState("getBalance"), { limit: 60, remaining: 59, resetSeconds: 42 });
    assert.equal(client.requestsRemaining("getBalance"), 4);
    assert.equal(client.rateLimitState("getOnSale"), undefined);
    assert.equal(client.requestsRemaining("getOnSale"), undefined);
  });
});

describe("retries", () => {
  test("a 429 waits Retry-After seconds, then the call succeeds", async () => {
    const time = fakeTime();
    const limited = failure(429, "Rate Limit Exceeded", "slow down", {
      "Retry-After": "2",
      "RateLimit-Limit": "60",
      "RateLimit-Remaining": "0",
      "RateLimit-Reset": "2",
    });
    const { fetch, seen } = scriptedFetch(limited, ok('{"market_balance":"1.00"}'));
    const client = new MarketClient({ ...options(fetch, time), token: "tok" });
    assert.equal((await client.getBalance()).market_balance, "1.00");
    assert.equal(seen.length, 2);
    assert.deepEqual(time.sleeps, [2000]);
    assert.deepEqual(client.rateLimitState("getBalance"), { limit: 60, remaining: 0, resetSeconds: 2 });
  });

  test("a 429 without Retry-After waits RateLimit-Reset seconds", async () => {
    const time = fakeTime();
    const { fetch } = scriptedFetch(
      failure(429, "Rate Limit Exceeded", "", { "RateLimit-Reset": "3" }),
      failure(429, "Rate Limit Exceeded"),
      ok(),
    );
    await callOperation(options(fetch, time), getBalance);
    assert.deepEqual(time.sleeps, [3000, 1000]);
  });

  test("a GET is retried after a network error or a gateway failure, backing off", async () => {
    const time = fakeTime();
    const { fetch, seen } = scriptedFetch(
      new TypeError("fetch failed"),
      { status: 502, body: "<html>bad gateway</html>" },
      ok('{"market_balance":"2.00"}'),
    );
    const answer = await callOperation(options(fetch, time), getBalance);
    assert.equal(answer.body.market_balance, "2.00");
    assert.equal(seen.length, 3);
    assert.equal(time.sleeps.length, 2);
    assert.ok(time.sleeps[0]! >= 100 && time.sleeps[0]! <= 150, `first backoff ${time.sleeps[0]}`);
    assert.ok(time.sleeps[1]! >= 200 && time.sleeps[1]! <= 300, `second backoff ${time.sleeps[1]}`);
  });

  test("a write without an Idempotency-Key is not retried after a network error", async () => {
    const time = fakeTime();
    const { fetch, seen } = scriptedFetch(new TypeError("fetch failed"), ok());
    await assert.rejects(
      callOperation({ ...options(fetch, time), idempotentWrites: false }, setBuyOrderStatus, {
        body: { buy_order_status: "online" },
      }),
      MarketTransportError,
    );
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.headers["idempotency-key"], undefined);
    assert.deepEqual(time.sleeps, []);
  });

  test("a POST that only reads takes no key and is retried like a GET", async () => {
    const time = fakeTime();
    const { fetch, seen } = scriptedFetch(
      new TypeError("fetch failed"),
      ok('{"items":[],"page_num":1,"page_size":20,"total_count":0,"total_page":0}'),
    );
    await callOperation(options(fetch, time), listPurchaseOrders, {
      body: { game: "cs2", page_num: 1, page_size: 20 },
    });
    assert.equal(seen.length, 2);
    assert.ok(seen.every((request) => request.headers["idempotency-key"] === undefined));
  });

  test("an official write gets a generated Idempotency-Key, repeated by its retry", async () => {
    const { fetch, seen } = scriptedFetch(
      new TypeError("fetch failed"),
      ok('{"buy_order_auto_offline":false,"buy_order_status":"online"}'),
    );
    const client = new MarketClient({ ...options(fetch), token: "tok" });
    await client.setBuyOrderStatus({ buy_order_status: "online" });
    const keys = seen.map((request) => request.headers["idempotency-key"]);
    assert.equal(keys.length, 2);
    assert.match(keys[0] ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    assert.equal(keys[1], keys[0]);
    await client.setBuyOrderStatus({ buy_order_status: "online" });
    assert.notEqual(seen[2]?.headers["idempotency-key"], keys[0], "each logical call has its own key");
  });

  test("a website write gets a generated Idempotency-Key too; sign-in, which has no user to keep it for, none", async () => {
    const { fetch, seen } = scriptedFetch(
      new TypeError("fetch failed"),
      ok('{"code":"OK","data":{},"msg":null}'),
      ok('{"code":"OK","data":{"user_id":"1","nickname":"n"},"msg":null}'),
    );
    await callOperation(options(fetch), cancelWebBuyOrders, { body: { game: "csgo", buy_orders: ["1"] } });
    const keys = seen.map((request) => request.headers["idempotency-key"]);
    assert.equal(keys.length, 2, "retried, as its key makes it safe");
    assert.ok(keys[0]);
    assert.equal(keys[1], keys[0]);
    await callOperation(options(fetch), login, { body: { nickname: "n", password: "p" } });
    assert.equal(seen[2]?.headers["idempotency-key"], undefined);
  });

  test("a caller's own Idempotency-Key is kept, and a 409 while it is still being answered is retried", async () => {
    const time = fakeTime();
    const { fetch, seen } = scriptedFetch(
      failure(
        409,
        "Invalid State",
        "a request with this Idempotency-Key is still being answered; retry shortly",
      ),
      ok(),
    );
    await callOperation(options(fetch, time), setBuyOrderStatus, {
      body: { buy_order_status: "online" },
      headers: { "Idempotency-Key": "order-42" },
    });
    assert.deepEqual(
      seen.map((request) => [request.headers["Idempotency-Key"], request.headers["idempotency-key"]]),
      [
        ["order-42", undefined],
        ["order-42", undefined],
      ],
    );
    assert.equal(time.sleeps.length, 1);
  });

  test("other 4xx answers are never retried", async () => {
    for (const reply of [
      failure(400, "Invalid Argument", "bad"),
      failure(409, "Invalid State", "the order is closed"),
      failure(422, "Idempotency Key Reused", "another request"),
    ]) {
      const time = fakeTime();
      const { fetch, seen } = scriptedFetch(reply);
      await assert.rejects(
        callOperation(options(fetch, time), setBuyOrderStatus, { body: { buy_order_status: "online" } }),
        MarketApiError,
      );
      await assert.rejects(callOperation(options(fetch, time), getBalance), MarketApiError);
      assert.equal(seen.length, 2);
      assert.deepEqual(time.sleeps, []);
    }
  });

  test("after maxRetries the last error is raised", async () => {
    const time = fakeTime();
    const { fetch, seen } = scriptedFetch(
      failure(503, "Unavailable", "first"),
      failure(503, "Unavailable", "second"),
      failure(504, "Timeout", "last"),
      ok(),
    );
    await assert.rejects(
      callOperation({ ...options(fetch, time), maxRetries: 2 }, getBalance),
      (error: unknown) => error instanceof MarketApiError && error.status === 504 && error.msg === "last",
    );
    assert.equal(seen.length, 3);
    assert.equal(time.sleeps.length, 2);
    const never = scriptedFetch(new TypeError("fetch failed"), ok());
    await assert.rejects(
      callOperation({ ...options(never.fetch), maxRetries: 0 }, getBalance),
      MarketTransportError,
    );
    assert.equal(never.seen.length, 1);
  });
});
