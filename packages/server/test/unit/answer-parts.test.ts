import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { toUnixSeconds } from "../../src/domain/clock.ts";
import { priceListParts, toItemPrice } from "../../src/domain/market/price-entries.ts";
import type { PriceEntry } from "../../src/domain/market/price-snapshot.ts";
import { priceEntry } from "../support/price-entries.ts";
import { PrebuiltBodies } from "../../src/http/prebuilt-bodies.ts";
import type { PrebuiltOptions, PrebuiltWork } from "../../src/http/prebuilt-json.ts";

/**
 * A whole-market answer is a sequence of parts of consecutive entries (docs/design/market-snapshots.md#answers-made-of-parts):
 * a new answer reuses every part whose entries are the same objects, and compresses only in the
 * encodings asked for lately. Not timed: the work done is counted (`onWork`).
 */

const firstTime = new Date("2026-11-26T10:00:00Z");
const secondTime = new Date("2026-11-26T10:00:05Z");

const entry = (goodsId: number, minPrice: number, foundAt = firstTime): PriceEntry =>
  priceEntry(goodsId, minPrice, foundAt);

/** Goods ids with gaps, as a market's are. */
const market = Array.from({ length: 6000 }, (_, index) => entry(3 * index + 11, 100 + index));

/** The answer as the serializer makes it, whole: what the prebuilt bytes must equal. */
function serialized(entries: readonly PriceEntry[], statTime: Date, tail: Record<string, unknown>): string {
  return JSON.stringify({
    info: entries.map((item) => toItemPrice(item)),
    stat_time: toUnixSeconds(statTime),
    ...tail,
  });
}

function counted(options: PrebuiltOptions = {}) {
  const work = { part: 0, gzip: 0, br: 0 };
  const bodies = new PrebuiltBodies({
    ...options,
    onWork: (what: PrebuiltWork) => (work[what] += 1),
  });
  const build = (entries: readonly PriceEntry[], statTime: Date) =>
    bodies.build({}, "items", () => priceListParts(entries, statTime, toItemPrice));
  return { work, build };
}

/** Lets the compressions under way (zlib's thread pool) finish. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 50));

describe("whole-market answers made of parts", () => {
  test("an update re-makes only the part of the changed entry (and the closing stat_time)", async () => {
    const { work, build } = counted();
    const first = await build(market, firstTime);
    const parts = first.parts.length;
    assert.ok(parts >= 15 && parts <= 60, `about one part per 250 entries (${parts})`);
    assert.equal(work.part, parts);
    work.part = 0;
    const changed = market.map((item, index) =>
      index === 2500 ? entry(item.goods_id, 7, secondTime) : item,
    );
    const second = await build(changed, secondTime);
    assert.equal(work.part, 2, "the changed entry's part and the closing one");
    assert.equal(second.parts.length, parts);
    const same = second.parts.filter((bytes, index) => bytes === first.parts[index]).length;
    assert.equal(same, parts - 2, "the other parts are the same buffers");
    const tail = { req_remaining: 9 };
    assert.equal(
      Buffer.concat(await second.chunks("identity", tail)).toString("utf8"),
      serialized(changed, secondTime, tail),
    );
    assert.notEqual(second.etag, first.etag);
  });

  test("a goods entering or leaving the market re-makes its own part, not every part after it", async () => {
    const { work, build } = counted();
    const first = await build(market, firstTime);
    work.part = 0;
    const added = [...market.slice(0, 1000), entry(3 * 999 + 12, 5), ...market.slice(1000)];
    await build(added, secondTime);
    assert.ok(work.part <= 3, `its part (or the two it split) and the closing one (${work.part})`);
    work.part = 0;
    const removed = added.filter((item) => item !== market[4000]);
    const third = await build(removed, firstTime);
    assert.ok(work.part <= 3, `its part (or the two it joined) and the closing one (${work.part})`);
    assert.equal(
      Buffer.concat(await third.chunks("identity", {})).toString("utf8"),
      serialized(removed, firstTime, {}),
    );
    assert.ok(third.parts.length >= first.parts.length - 1);
  });

  test("the gzip answer of many segments and the brotli answer decode to the identity answer", async () => {
    const { build } = counted({ brotliIntervalMs: 0 });
    const first = await build(market, firstTime);
    const changed = market.map((item, index) =>
      index % 997 === 5 ? entry(item.goods_id, 1, secondTime) : item,
    );
    const second = await build(changed, secondTime);
    for (const answer of [first, second]) {
      for (const tail of [{ req_remaining: 499 }, { req_remaining: 0, note: 'quotes " and 汉字' }]) {
        const identity = Buffer.concat(await answer.chunks("identity", tail));
        assert.ok(answer.parts.length > 10, "many segments");
        assert.deepEqual(gunzipSync(Buffer.concat(await answer.chunks("gzip", tail))), identity);
        assert.deepEqual(brotliDecompressSync(Buffer.concat(await answer.chunks("br", tail))), identity);
      }
    }
    assert.equal(
      gunzipSync(Buffer.concat(await second.chunks("gzip", { req_remaining: 3 }))).toString("utf8"),
      serialized(changed, secondTime, { req_remaining: 3 }),
    );
    // An empty market: the opening and the closing part alone.
    const empty = await build([], firstTime);
    assert.equal(empty.parts.length, 1);
    const expected = serialized([], firstTime, { req_remaining: 1 });
    assert.equal(
      gunzipSync(Buffer.concat(await empty.chunks("gzip", { req_remaining: 1 }))).toString(),
      expected,
    );
    assert.equal(
      brotliDecompressSync(Buffer.concat(await empty.chunks("br", { req_remaining: 1 }))).toString(),
      expected,
    );
  });
});

describe("new answers are compressed only in the encodings asked for lately", () => {
  test("nothing is compressed until asked; then gzip only its changed parts, at once, and brotli never unasked", async () => {
    let now = 0;
    const { work, build } = counted({ recentMs: 10_000, brotliIntervalMs: 0, now: () => now });
    const first = await build(market, firstTime);
    await settled();
    assert.deepEqual([work.gzip, work.br], [0, 0], "an answer nobody asked in gzip or brotli");
    assert.equal(first.forEncoding("gzip"), first, "nothing older: this one, once compressed");
    await first.chunks("gzip", {});
    const segments = work.gzip;
    assert.ok(segments >= first.parts.length - 1, "every part deflated (the closing one is stored)");

    const changed = market.map((item, index) => (index === 10 ? entry(item.goods_id, 3, secondTime) : item));
    const second = await build(changed, secondTime);
    assert.equal(work.gzip, segments + 1, "gzip asked lately: the changed part deflated without a request");
    await second.chunks("gzip", {});
    assert.equal(second.forEncoding("gzip"), second);
    assert.equal(work.br, 0, "brotli never asked: never compressed");

    // Brotli asked for the first time: compressed then, and the request waits for it.
    assert.equal(second.forEncoding("br"), second);
    await second.chunks("br", {});
    assert.equal(work.br, 1);

    // Both asked lately: the next answer is compressed in both without a request.
    const third = await build(market, firstTime);
    assert.equal(work.br, 2);
    await third.chunks("br", {});
    assert.equal(third.forEncoding("br"), third);

    // Nobody asked for either in the last 10 s: the next answer waits for a request.
    now += 10_001;
    const gzipBefore = work.gzip;
    await build(changed, secondTime);
    await settled();
    assert.deepEqual([work.gzip, work.br], [gzipBefore, 2]);
  });

  test("an answer replaced long ago does not stand in for a new one: the request waits for the new bytes", async () => {
    let now = 0;
    const { work, build } = counted({ recentMs: 10_000, now: () => now });
    const first = await build(market, firstTime);
    first.forEncoding("gzip");
    await first.chunks("gzip", {});
    const changed = market.map((item, index) => (index === 10 ? entry(item.goods_id, 3, secondTime) : item));
    now += 5_000;
    const second = await build(changed, secondTime);
    await second.chunks("gzip", {});
    now += 20_000;
    // Nobody asked in gzip for 20 s: the next answers are not compressed until asked.
    const gzipBefore = work.gzip;
    const third = await build(market, firstTime);
    now += 20_000;
    const fourth = await build(changed, secondTime);
    assert.equal(work.gzip, gzipBefore);
    assert.equal(fourth.forEncoding("gzip"), fourth, "the second was replaced 20 s ago: too old");
    assert.ok(work.gzip > gzipBefore, "compressed on the first request");
    assert.notEqual(third, fourth);
  });

  test("brotli: one compression at a time, at most one per interval; meanwhile the newest compressed answer", async () => {
    const { work, build } = counted({ brotliIntervalMs: 60_000 });
    const first = await build(market, firstTime);
    assert.equal(first.forEncoding("br"), first);
    await first.chunks("br", {});
    assert.equal(work.br, 1);
    const changed = market.map((item, index) => (index === 10 ? entry(item.goods_id, 3, secondTime) : item));
    const second = await build(changed, secondTime);
    const third = await build(market, firstTime);
    await settled();
    assert.equal(work.br, 1, "within the interval: no second compression");
    assert.equal(second.forEncoding("br"), first);
    assert.equal(third.forEncoding("br"), first, "the newest answer compressed in brotli");
    assert.equal(work.br, 1);
  });
});
