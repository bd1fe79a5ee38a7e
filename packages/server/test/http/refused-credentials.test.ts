import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import type { InjectOptions } from "fastify";
import { LimiterStore } from "../../src/http/limits/limiter-store.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { describeOrSkip } from "../support/describe-or-skip.ts";
import { assertCountedInRedis, limiterStoreOf, REDIS_URL } from "../support/limiter-stores.ts";

/** docs/design/security.md#security: 30 refused credentials per client address per 10 minutes. */
const BUDGET = 30;
const UNKNOWN_TOKEN = `smk_${"A".repeat(43)}`;

function presenting(
  app: TestApp,
  address: string,
  authorization: string,
  url = "/api/market/developer/balance",
) {
  const options: InjectOptions = { method: "GET", url, remoteAddress: address, headers: { authorization } };
  return app.app.inject(options);
}

async function refusalRows(app: TestApp): Promise<number> {
  const row = await app.database.db
    .selectFrom("audit_events")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("action", "=", "auth.refused")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

for (const store of ["memory", "Redis"] as const) {
  describeOrSkip(
    `refused credentials per client address (${store})`,
    { skip: store === "Redis" && !REDIS_URL && "needs TEST_REDIS_URL" },
    () => {
      let t: TestApp;
      let limiterStore: LimiterStore;
      let keyPrefix: string;
      before(async () => {
        ({ store: limiterStore, keyPrefix } = await limiterStoreOf(store));
        t = await createTestApp({ limits: { store: limiterStore } });
      });
      after(async () => {
        await t.close();
        await limiterStore.close();
      });

      test("30 refusals from one address are audited; beyond, 429 Rate Limit Exceeded with Retry-After and no row", async () => {
        const address = "198.51.100.7";
        const rowsBefore = await refusalRows(t);
        // Unknown, malformed and sandbox-admin credentials all draw on one budget.
        const credentials = [`Bearer ${UNKNOWN_TOKEN}`, "Bearer junk", "Bearer sma_wrong"];
        for (let index = 0; index < BUDGET; index++) {
          const credential = credentials[index % 3]!;
          const url = credential.includes("sma_") ? "/sandbox/clock" : "/api/market/developer/balance";
          const response = await presenting(t, address, credential, url);
          assert.equal(response.statusCode, 401, `refusal ${index + 1}`);
        }
        assert.equal(await refusalRows(t), rowsBefore + BUDGET);
        for (let index = 0; index < 10; index++) {
          const response = await presenting(t, address, credentials[index % 3]!);
          assert.equal(response.statusCode, 429);
          assert.deepEqual(Object.keys(response.json()).sort(), ["code", "msg"]);
          assert.equal(response.json().code, "Rate Limit Exceeded");
          const retryAfter = Number(response.headers["retry-after"]);
          assert.ok(retryAfter >= 1 && retryAfter <= 600, `Retry-After ${response.headers["retry-after"]}`);
        }
        assert.equal(await refusalRows(t), rowsBefore + BUDGET, "requests beyond the budget write no row");
      });

      test("a valid token from a held-back address is admitted, and another address is not held back", async () => {
        const address = "198.51.100.8";
        for (let index = 0; index < BUDGET + 1; index++)
          await presenting(t, address, `Bearer ${UNKNOWN_TOKEN}`);
        assert.equal((await presenting(t, address, `Bearer ${UNKNOWN_TOKEN}`)).statusCode, 429);
        const user = await t.createUser();
        assert.equal((await presenting(t, address, `Bearer ${user.token}`)).statusCode, 200);
        assert.equal((await presenting(t, "198.51.100.9", `Bearer ${UNKNOWN_TOKEN}`)).statusCode, 401);
      });

      if (store === "Redis")
        test("the counters were kept in Redis, not in the memory fallback", () =>
          assertCountedInRedis(keyPrefix));
    },
  );
}

describeOrSkip(
  "refused credentials counted across instances in Redis",
  { skip: !REDIS_URL && "needs TEST_REDIS_URL" },
  () => {
    let first: TestApp;
    let second: TestApp;
    const stores: LimiterStore[] = [];
    before(async () => {
      const keyPrefix = `skm-test:${randomUUID()}`;
      for (let index = 0; index < 2; index++) stores.push((await limiterStoreOf("Redis", keyPrefix)).store);
      first = await createTestApp({ limits: { store: stores[0]! } });
      second = await createTestApp({ limits: { store: stores[1]! } });
    });
    after(async () => {
      await first.close();
      await second.close();
      for (const store of stores) await store.close();
    });

    test("one budget per address: 15 refusals on each instance, then 429 on either", async () => {
      const address = "198.51.100.20";
      for (let index = 0; index < BUDGET; index++) {
        const response = await presenting(index % 2 ? first : second, address, `Bearer ${UNKNOWN_TOKEN}`);
        assert.equal(response.statusCode, 401);
      }
      assert.equal((await presenting(first, address, `Bearer ${UNKNOWN_TOKEN}`)).statusCode, 429);
      assert.equal((await presenting(second, address, `Bearer ${UNKNOWN_TOKEN}`)).statusCode, 429);
    });
  },
);

describe("what an audit row of a refused credential keeps", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test("a sandbox admin refusal keeps the path without its query string, in a row of at most 4 KiB", async () => {
    const query = `?filler=${"x".repeat(12_000)}`;
    const response = await presenting(t, "198.51.100.30", "Bearer sma_wrong", `/sandbox/clock${query}`);
    assert.equal(response.statusCode, 401);
    const row = await t.database.db
      .selectFrom("audit_events")
      .selectAll()
      .where("action", "=", "auth.refused")
      .orderBy("event_id", "desc")
      .executeTakeFirstOrThrow();
    const details = typeof row.details === "string" ? JSON.parse(row.details) : row.details;
    assert.equal(details.path, "/sandbox/clock");
    assert.ok(JSON.stringify(row).length <= 4096, `${JSON.stringify(row).length} bytes`);
  });
});
