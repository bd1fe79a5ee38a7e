import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import {
  getEnterpriseFloatItems,
  getEnterpriseItems,
  getLiquidityRanks,
  getMarketItems,
  type OperationDefinition,
} from "@skinmarket/contract";
import type { LightMyRequestResponse } from "fastify";
import { Value } from "typebox/value";
import { MarketChanges } from "../../src/domain/market/market-changes.ts";
import { PriceSnapshots } from "../../src/domain/market/price-snapshots.ts";
import { LimiterStore } from "../../src/http/limits/limiter-store.ts";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
const REDLINE = "AK-47 | Redline (Field-Tested)";

/** The whole-market operations, each with a query that is answered per request with the same content. */
const WHOLE_MARKET: Array<{ operation: OperationDefinition; path: string; perRequest: string }> = [
  { operation: getMarketItems, path: "/api/market/items?game=cs2", perRequest: "&min_price=0" },
  {
    operation: getEnterpriseItems,
    path: "/api/market/enterprise/items?game=cs2",
    perRequest: "&min_price=0",
  },
  {
    operation: getEnterpriseFloatItems,
    path: "/api/market/enterprise/float/items?game=cs2",
    perRequest: "&min_price=0",
  },
  {
    operation: getLiquidityRanks,
    path: "/api/market/enterprise/items/liquidity_rank?game=cs2",
    perRequest: "",
  },
];

function decoded(answer: LightMyRequestResponse): unknown {
  const encoding = answer.headers["content-encoding"];
  const bytes = answer.rawPayload;
  const plain =
    encoding === "gzip" ? gunzipSync(bytes) : encoding === "br" ? brotliDecompressSync(bytes) : bytes;
  return JSON.parse(plain.toString("utf8"));
}

/**
 * Whole-market answers come from bytes built once per snapshot (docs/design/market-snapshots.md#prebuilt-bytes): they
 * must equal what the serializer would have answered, in every encoding, with each caller's own
 * allowance; the snapshot is rebuilt only after a change, a cooldown's end, or for the rolling
 * recheck (market-rolling-recheck.test.ts).
 */
describe("prebuilt whole-market answers", () => {
  let t: TestApp;
  let store: LimiterStore;
  let seller: PlatformFixture;
  let enterprise: { token: string };

  const get = (token: string, path: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: "GET", url: path, headers: { authorization: `Bearer ${token}`, ...headers } });
  const list = async (goods: string, price: number, extra: Record<string, unknown> = {}) => {
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: goods, count: 1, ...extra });
    const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price }],
    });
    assert.equal(listed.statusCode, 200, listed.body);
  };
  /**
   * Raises a goods' listings by 1.00 in a write the instance does not count (as by a
   * process that announces nothing).
   */
  const raisePricesUncounted = async (goodsId: number) => {
    await t.database.db
      .updateTable("listings")
      .set((eb) => ({ price: eb("price", "+", 100) }))
      .where("goods_id", "=", goodsId)
      .where("state", "=", "ON_SALE")
      .execute();
  };
  /** Moves the marketplace clock without a commit: only time passes. */
  const pass = (seconds: number) => t.clock.setOffset(t.clock.offsetMs + seconds * 1000);

  before(async () => {
    store = new LimiterStore({ log: { warn() {}, info() {} } });
    // The per-second rate is not under test here: the suite asks more than 20 times a second.
    t = await createTestApp({
      catalog: true,
      limits: { store, settings: { defaultRate: { points: 1000, seconds: 1 } } },
    });
    seller = await createReadyTrader(t);
    enterprise = await t.createUser({ access_level: "enterprise" });
    await list(STICKER, 2.5);
    await list(REDLINE, 11);
    await list(REDLINE, 9, { cooldown_days: 1 });
  });
  after(async () => {
    await t.close();
    await store.close();
  });

  for (const { operation, path, perRequest } of WHOLE_MARKET) {
    test(`${operation.id}: every encoding decodes to the serialized answer, with the caller's allowance`, async () => {
      const reference = await get(enterprise.token, `${path}${perRequest}`);
      assert.equal(reference.statusCode, 200, reference.body);
      const expected = reference.json() as { req_remaining: number };
      for (const encoding of ["identity", "gzip", "br"]) {
        const answer = await get(enterprise.token, path, { "accept-encoding": encoding });
        assert.equal(answer.statusCode, 200);
        assert.equal(answer.headers["content-encoding"], encoding === "identity" ? undefined : encoding);
        assert.equal(answer.headers["content-type"], "application/json; charset=utf-8");
        assert.equal(answer.headers.vary, "accept-encoding");
        assert.equal(Number(answer.headers["content-length"]), answer.rawPayload.length);
        const body = decoded(answer) as { req_remaining: number };
        assert.ok(
          Value.Check(operation.response, body),
          JSON.stringify([...Value.Errors(operation.response, body)][0]),
        );
        expected.req_remaining -= 1;
        assert.deepEqual(body, expected);
      }
    });
  }

  test("the best encoding the client accepts is chosen; q=0 refuses one", async () => {
    const encodingFor = async (accept: string) =>
      (await get(enterprise.token, WHOLE_MARKET[0]!.path, { "accept-encoding": accept })).headers[
        "content-encoding"
      ];
    assert.equal(await encodingFor("gzip, deflate, br"), "br");
    assert.equal(await encodingFor("gzip, br;q=0"), "gzip");
    assert.equal(await encodingFor("deflate"), undefined);
  });

  test("If-None-Match with the answer's validator is 304 without a body; another validator is 200", async () => {
    const first = await get(enterprise.token, WHOLE_MARKET[0]!.path);
    const etag = first.headers.etag as string;
    assert.match(etag, /^W\/"/);
    const again = await get(enterprise.token, WHOLE_MARKET[0]!.path, { "if-none-match": etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.rawPayload.length, 0);
    assert.equal(again.headers.etag, etag);
    const other = await get(enterprise.token, WHOLE_MARKET[0]!.path, {
      "if-none-match": 'W/"something-else"',
    });
    assert.equal(other.statusCode, 200);
    // The validator names the whole-market content, whoever asks and whatever the encoding.
    const gzip = await get(enterprise.token, WHOLE_MARKET[0]!.path, { "accept-encoding": "gzip" });
    assert.equal(gzip.headers.etag, etag);
  });

  test("without a change the snapshot stays; after one it is rebuilt once it is a second old", async () => {
    const before = await get(enterprise.token, WHOLE_MARKET[0]!.path);
    pass(5);
    const unchanged = await get(enterprise.token, WHOLE_MARKET[0]!.path);
    assert.equal(unchanged.headers.etag, before.headers.etag);
    assert.equal(unchanged.json().stat_time, before.json().stat_time);

    // The answer above came from the recheck's slice of that moment, which found nothing new (the
    // snapshot kept) and counts as a rebuild: a second on, the change shows at once.
    pass(1);
    await list(STICKER, 1.75);
    const changed = await get(enterprise.token, WHOLE_MARKET[0]!.path);
    assert.notEqual(changed.headers.etag, before.headers.etag);
    // A fresh snapshot is kept for a second whatever changes.
    await list(STICKER, 1.5);
    const tooSoon = await get(enterprise.token, WHOLE_MARKET[0]!.path);
    assert.equal(tooSoon.headers.etag, changed.headers.etag, "at most one rebuild a second");
    pass(1);
    const after = await get(enterprise.token, WHOLE_MARKET[0]!.path);
    assert.notEqual(after.headers.etag, changed.headers.etag);
    const sticker = await goodsIdOf(t, STICKER);
    const entry = (
      after.json().info as Array<{ goods_id: number; sales: Array<{ min_price: string }> }>
    ).find((candidate) => candidate.goods_id === sticker);
    assert.equal(entry?.sales[0]?.min_price, "1.50");
  });

  test("a listing's cooldown ending rebuilds the snapshot without any commit", async () => {
    const redline = await goodsIdOf(t, REDLINE);
    const salesOf = (answer: LightMyRequestResponse) =>
      (answer.json().info as Array<{ goods_id: number; sales: unknown }>).find(
        (entry) => entry.goods_id === redline,
      )?.sales;
    pass(1);
    assert.deepEqual(salesOf(await get(enterprise.token, WHOLE_MARKET[0]!.path)), [
      { min_price: "11.00", pre_sell_min_price: "9.00" },
    ]);
    pass(2 * 86_400);
    assert.deepEqual(salesOf(await get(enterprise.token, WHOLE_MARKET[0]!.path)), [
      { min_price: "9.00", pre_sell_min_price: "0.00" },
    ]);
  });

  test("a rebuild that finds the same figures keeps the answer, its stat_time and its validator", async () => {
    pass(1);
    const before = await get(enterprise.token, WHOLE_MARKET[0]!.path);
    // A commit that moves no price: the snapshot is out of date, and the rebuild finds nothing new.
    await t.createUser();
    pass(1);
    const after = await get(enterprise.token, WHOLE_MARKET[0]!.path);
    assert.equal(after.headers.etag, before.headers.etag);
    assert.equal(after.json().stat_time, before.json().stat_time);
    assert.equal(
      (await get(enterprise.token, WHOLE_MARKET[0]!.path, { "if-none-match": before.headers.etag as string }))
        .statusCode,
      304,
    );
  });

  test("without a maximum age (the embedded database, no recheck) only a counted change or a cooldown's end rebuilds", async () => {
    const changes = new MarketChanges();
    const snapshots = new PriceSnapshots(changes, 1000, { maxAgeMs: Infinity });
    const sticker = await goodsIdOf(t, STICKER);
    const first = await snapshots.current(t.ctx);
    await raisePricesUncounted(sticker);
    pass(3600);
    assert.equal(await snapshots.current(t.ctx), first, "an hour on, nothing was counted: no rebuild");
    changes.committed();
    const rebuilt = await snapshots.current(t.ctx);
    assert.notEqual(rebuilt, first);
    assert.equal(
      rebuilt.entries.get(sticker)?.whole.minPrice,
      (first.entries.get(sticker)?.whole.minPrice ?? 0) + 100,
    );
  });

  test("a cooldown's end reads again only the goods whose listings left cooldown, not the whole market", async () => {
    const changes = new MarketChanges();
    const snapshots = new PriceSnapshots(changes, 1000, { maxAgeMs: Infinity });
    const [sticker, redline] = [await goodsIdOf(t, STICKER), await goodsIdOf(t, REDLINE)];
    await list(REDLINE, 8, { cooldown_days: 1 });
    const first = await snapshots.current(t.ctx);
    assert.ok(first.entries.get(redline)!.whole.minPrice > 800, "the 8.00 listing is pre-sell");
    await raisePricesUncounted(sticker);
    pass(2 * 86_400);
    const updated = await snapshots.current(t.ctx);
    assert.equal(updated.entries.get(redline)?.whole.minPrice, 800, "out of cooldown, on time");
    assert.equal(
      updated.entries.get(sticker),
      first.entries.get(sticker),
      "the sticker was not read again: no whole rebuild",
    );
    // A change to everything, a second later, reads the whole market: then the sticker too.
    changes.committed();
    pass(1);
    const rebuilt = await snapshots.current(t.ctx);
    assert.equal(
      rebuilt.entries.get(sticker)?.whole.minPrice,
      (first.entries.get(sticker)?.whole.minPrice ?? 0) + 100,
    );
  });

  test("the first snapshot, read in a few large chunks before the server listens, holds the figures small chunks read", async () => {
    const large = await new PriceSnapshots(new MarketChanges(), 1000).first(t.ctx, 20_000);
    const small = await new PriceSnapshots(new MarketChanges(), 1000, { listingsPerChunk: 2 }).current(t.ctx);
    assert.ok(large.entries.size > 1);
    // The figures, not the moment each build found them.
    const figures = (snapshot: typeof large) =>
      [...snapshot.entries.values()].map((entry) => ({ ...entry, foundAt: undefined }));
    assert.deepEqual(figures(large), figures(small));
  });

  test("serving stale: while a rebuild runs, callers get the snapshot there is, then the new one", async () => {
    const changes = new MarketChanges();
    const snapshots = new PriceSnapshots(changes, 1000, { serveStale: true });
    const sticker = await goodsIdOf(t, STICKER);
    const first = await snapshots.current(t.ctx);
    await list(STICKER, 0.5);
    changes.committed();
    pass(1);
    assert.equal(await snapshots.current(t.ctx), first, "no caller waits for the rebuild");
    let next = first;
    for (let attempt = 0; attempt < 200 && next === first; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      next = await snapshots.current(t.ctx);
    }
    assert.notEqual(next, first);
    assert.equal(next.entries.get(sticker)?.whole.minPrice, 50);
  });

  test("each entry's update_time is when its figures were found: kept while they hold, in every answer", async () => {
    const [sticker, redline] = [await goodsIdOf(t, STICKER), await goodsIdOf(t, REDLINE)];
    type Answer = { info: Array<{ goods_id: number; update_time: number }>; stat_time: number };
    const timeIn = (answer: LightMyRequestResponse, goodsId: number) =>
      (answer.json() as Answer).info.find((entry) => entry.goods_id === goodsId)?.update_time;
    const single = async (goodsId: number) =>
      get(enterprise.token, `${WHOLE_MARKET[0]!.path}&goods_id=${goodsId}`);
    pass(1);
    const before = await get(enterprise.token, WHOLE_MARKET[0]!.path);
    const redlineFound = timeIn(before, redline)!;
    assert.ok(redlineFound <= before.json().stat_time);

    pass(5);
    await list(STICKER, 0.05);
    // The changed goods, read for this answer (read-your-writes): found now.
    const read = await single(sticker);
    assert.ok(timeIn(read, sticker)! >= before.json().stat_time + 5, "the sticker's new figures: now");
    assert.equal(timeIn(await single(redline), redline), redlineFound);
    const after = await get(enterprise.token, WHOLE_MARKET[0]!.path);
    const { stat_time: statTime } = after.json() as Answer;
    assert.ok(statTime >= before.json().stat_time + 5);
    assert.equal(timeIn(after, redline), redlineFound, "unchanged figures keep the time they were found");
    assert.ok(timeIn(after, sticker)! >= before.json().stat_time + 5 && timeIn(after, sticker)! <= statTime);
    for (const { path } of WHOLE_MARKET) {
      const answer = await get(enterprise.token, path);
      assert.equal(timeIn(answer, redline), redlineFound, path);
      assert.equal(timeIn(answer, sticker), timeIn(after, sticker), path);
    }

    // A change to the goods that leaves its figures as they were: read again, found earlier.
    pass(5);
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 1 });
    const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price: 500 }],
    });
    assert.equal(listed.statusCode, 200, listed.body);
    const order = (listed.json().sell_orders as Record<string, { sell_order_id: string }>)[assetid!]!;
    const delisted = await t.as(seller.token, "DELETE", "/api/market/developer/sell_order/items", {
      game: "cs2",
      sell_orders: [order.sell_order_id],
    });
    assert.equal(delisted.statusCode, 200, delisted.body);
    const again = await single(redline);
    assert.ok(again.json().stat_time >= statTime + 5, "read from the database now");
    assert.equal(timeIn(again, redline), redlineFound);
    assert.equal(timeIn(await get(enterprise.token, WHOLE_MARKET[0]!.path), redline), redlineFound);
  });

  test("the prebuilt answers keep the access rules: no token, a developer token on enterprise routes", async () => {
    const developer = await t.createUser();
    assert.equal((await t.app.inject({ method: "GET", url: WHOLE_MARKET[0]!.path })).statusCode, 401);
    const refused = await get(developer.token, WHOLE_MARKET[1]!.path);
    assert.equal(refused.statusCode, 403, refused.body);
    assert.equal((await get(developer.token, WHOLE_MARKET[0]!.path)).statusCode, 200);
  });
});
