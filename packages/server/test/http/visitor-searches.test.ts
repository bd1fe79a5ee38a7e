import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { LimiterStore } from "../../src/http/limits/limiter-store.ts";
import { VISITOR_SEARCHES } from "../../src/http/limits/visitor-searches.ts";
import { describeOrSkip } from "../support/describe-or-skip.ts";
import { assertCountedInRedis, limiterStoreOf, REDIS_URL } from "../support/limiter-stores.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

/**
 * docs/design/security.md#the-website-routes: visitors' catalog pages and suggestions are counted per client
 * address (60 per 10 seconds); signed-in viewers are not.
 */
for (const store of ["memory", "Redis"] as const) {
  describeOrSkip(
    `visitors' searches per client address (${store})`,
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

      const visit = (url: string, remoteAddress: string) =>
        t.app.inject({ method: "GET", url, remoteAddress });
      const ROUTES = ["/api/market/search/suggest?game=csgo&text=ak47", "/api/market/goods?game=csgo"];

      test("one budget for both routes; beyond it 429 with Retry-After; another address and a signed-in viewer pass", async () => {
        const address = "198.51.100.40";
        for (let index = 0; index < VISITOR_SEARCHES.points; index++) {
          const answer = await visit(ROUTES[index % 2]!, address);
          assert.equal(answer.statusCode, 200, `search ${index + 1}: ${answer.body}`);
        }
        for (const url of ROUTES) {
          const refused = await visit(url, address);
          assert.equal(refused.statusCode, 429);
          assert.equal(refused.json().code, "Rate Limit Exceeded");
          assert.match(refused.json().error, /sign in/);
          const retryAfter = Number(refused.headers["retry-after"]);
          assert.ok(retryAfter >= 1 && retryAfter <= VISITOR_SEARCHES.seconds, `Retry-After ${retryAfter}`);
        }
        assert.equal((await visit(ROUTES[0]!, "198.51.100.41")).statusCode, 200);
        const user = await t.createUser();
        const session = await t.signIn(user.nickname, user.password);
        for (const url of ROUTES) {
          const signedIn = await t.app.inject({
            method: "GET",
            url,
            remoteAddress: address,
            headers: { cookie: session.cookie },
          });
          assert.equal(signedIn.statusCode, 200, signedIn.body);
        }
        // Bad input is refused before anything is counted, naming the field.
        const bad = await visit("/api/market/goods?game=csgo&page_size=81", "198.51.100.42");
        assert.equal(bad.statusCode, 400);
        assert.match(bad.json().error, /^page_size/);
      });

      if (store === "Redis")
        test("the counters were kept in Redis, not in the memory fallback", () =>
          assertCountedInRedis(keyPrefix));
    },
  );
}
