import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { LimiterStore } from "../../src/http/limits/limiter-store.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { describeOrSkip } from "../support/describe-or-skip.ts";
import { assertCountedInRedis, limiterStoreOf, REDIS_URL } from "../support/limiter-stores.ts";

/**
 * `POST /api/market/float/items` allows 200 distinct goods a UTC day, counted over `goods_ids` and
 * `market_hash_names` together: a goods asked for by name is the same goods as its id.
 */
for (const kind of ["memory", "Redis"] as const) {
  describeOrSkip(
    `float/items distinct goods (${kind})`,
    { skip: kind === "Redis" && !REDIS_URL && "needs TEST_REDIS_URL" },
    () => {
      let t: TestApp;
      let store: LimiterStore;
      let keyPrefix: string;
      let catalog: Array<{ goods_id: number; market_hash_name: string }>;

      before(async () => {
        ({ store, keyPrefix } = await limiterStoreOf(kind));
        t = await createTestApp({ catalog: true, limits: { store } });
        catalog = await t.database.db
          .selectFrom("goods")
          .select(["goods_id", "market_hash_name"])
          .orderBy("goods_id")
          .limit(201)
          .execute();
      });
      after(async () => {
        await t.close();
        await store.close();
      });

      test("200 distinct goods a day, a name and its id counting once; a refusal gives the day's count back", async () => {
        const caller = await t.createUser();
        const ask = (body: Record<string, unknown>) =>
          t.as(caller.token, "POST", "/api/market/float/items", { game: "cs2", ...body });
        const names = (from: number, to: number) =>
          catalog.slice(from, to).map((goods) => goods.market_hash_name);
        const first = await ask({
          goods_ids: catalog.slice(0, 100).map((goods) => goods.goods_id),
          market_hash_names: names(0, 199),
        });
        assert.equal(first.statusCode, 200, first.body);
        assert.equal(first.json().info.length, 199);
        assert.equal(first.json().req_remaining, 499);
        const again = await ask({ market_hash_names: names(0, 50), goods_ids: [catalog[150]!.goods_id] });
        assert.equal(again.statusCode, 200, "goods asked for by id or by name earlier cost nothing");
        const twoMore = await ask({ goods_ids: [catalog[199]!.goods_id, catalog[200]!.goods_id] });
        assert.equal(twoMore.statusCode, 429, twoMore.body);
        assert.equal(twoMore.json().code, "Quota Exceeded");
        assert.match(twoMore.json().msg, /200 distinct goods_ids and market_hash_names per day \(UTC\)/);
        // A name the catalog does not know counts nothing; the operation refuses it.
        const unknown = await ask({ market_hash_names: ["No such goods"] });
        assert.equal(unknown.statusCode, 400);
        const lastOne = await ask({ market_hash_names: names(199, 200) });
        assert.equal(lastOne.statusCode, 200, lastOne.body);
        assert.equal(lastOne.json().req_remaining, 497, "the refused requests gave their daily count back");
        const other = await t.createUser();
        const theirs = await t.as(other.token, "POST", "/api/market/float/items", {
          game: "cs2",
          goods_ids: [catalog[200]!.goods_id],
        });
        assert.equal(theirs.statusCode, 200, "another token counts its own goods");
      });

      if (kind === "Redis")
        test("the counters were kept in Redis, not in the memory fallback", () =>
          assertCountedInRedis(keyPrefix));
    },
  );
}
