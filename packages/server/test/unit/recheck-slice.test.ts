import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { NO_FIGURES } from "../../src/domain/market/market-figures.ts";
import type { MarketCatalog } from "../../src/domain/market/market-goods.ts";
import type { PriceEntry, PriceSnapshot } from "../../src/domain/market/price-snapshot.ts";
import { recheckSlice } from "../../src/domain/market/recheck-slice.ts";

/** A snapshot of a catalog of goods ids 1-`goods`, with `listed` of them holding that many listings. */
function snapshotOf(goods: number, listed: Record<number, number>): PriceSnapshot {
  const byId = new Map(Array.from({ length: goods }, (_, index) => [goods - index, {}]));
  const entries = new Map<number, PriceEntry>();
  for (const [goodsId, sellNum] of Object.entries(listed))
    entries.set(Number(goodsId), {
      whole: { ...NO_FIGURES, sellNum, preSellNum: 0 },
      intervals: [],
      variants: [],
    } as unknown as PriceEntry);
  return {
    builtAt: new Date(0),
    entries,
    catalog: { byId } as unknown as MarketCatalog,
    liquidity: new Map(),
    nextCooldownEnd: null,
  };
}

/** Every slice of one round of the recheck, from the catalog's start. */
function round(snapshot: PriceSnapshot, share: number) {
  const slices = [];
  let from = 0;
  do {
    const slice = recheckSlice(snapshot, from, share);
    slices.push(slice);
    from = slice.next;
  } while (from !== 0);
  return slices;
}

/** The rolling recheck's slices hold a share of the listings, not of the goods (docs/design/market-snapshots.md#the-rolling-recheck). */
describe("the rolling recheck's slices", () => {
  test("a round reads every goods once, in id order, each slice a range of ids", () => {
    const slices = round(snapshotOf(1000, { 10: 500, 500: 20 }), 1 / 60);
    const read = slices.flatMap((slice) => slice.goods);
    assert.deepEqual(
      read,
      Array.from({ length: 1000 }, (_, index) => index + 1),
    );
    for (const slice of slices) {
      assert.equal(slice.range?.from, slice.goods[0]);
      assert.equal(slice.range?.to, slice.goods.at(-1));
    }
  });

  test("a slice holds a share of the listings: a goods with many ends its slice", () => {
    // 1,000 goods and 6,000 listings: 7,000 rows, 117 to a sixtieth.
    const snapshot = snapshotOf(1000, { 10: 3000, 500: 2000, 501: 1000 });
    const slices = round(snapshot, 1 / 60);
    const heavy = slices.find((slice) => slice.goods.includes(10))!;
    assert.equal(heavy.goods.at(-1), 10, "the goods of 3,000 listings ends its slice");
    const alone = slices.find((slice) => slice.goods.includes(501))!;
    assert.deepEqual(alone.goods, [501], "the goods of 1,000 listings after another heavy one is read alone");
    const quiet = slices.find((slice) => slice.goods.includes(300))!;
    assert.equal(quiet.goods.length, 117, "goods off the market weigh one each");
    // A round fits in its minute; a slice without a heavy goods holds the share and no more.
    assert.equal(slices.length, 12);
    for (const slice of slices.filter((slice) => ![10, 500, 501].some((id) => slice.goods.includes(id))))
      assert.ok(slice.goods.length <= 117, `${slice.goods.length} goods`);
  });

  test("a slice starting past the catalog's end starts it again; an empty catalog has no slice", () => {
    const snapshot = snapshotOf(10, {});
    assert.deepEqual(recheckSlice(snapshot, 99, 0.5).goods, [1, 2, 3, 4, 5]);
    assert.deepEqual(recheckSlice(snapshotOf(0, {}), 0, 0.5), { goods: [], range: undefined, next: 0 });
  });
});
