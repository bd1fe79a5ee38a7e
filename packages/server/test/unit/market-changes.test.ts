import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { ChangedGoods } from "../../src/domain/context.ts";
import { batched, MarketChanges, MAX_CHANGED_GOODS } from "../../src/domain/market/market-changes.ts";

/** Market changes carry their goods (docs/design/market-snapshots.md#updates-per-changed-goods). */
describe("market changes per goods", () => {
  test("the goods changed after a version, and everything after a change to everything", () => {
    const changes = new MarketChanges();
    const start = changes.version;
    changes.committed([3, 5]);
    const afterFirst = changes.version;
    changes.heard([5, 8]);
    assert.deepEqual([...(changes.changedSince(start) as Set<number>)].sort(), [3, 5, 8]);
    assert.deepEqual([...(changes.changedSince(afterFirst) as Set<number>)].sort(), [5, 8]);
    assert.equal(changes.goodsChangedSince(3, afterFirst), false);
    assert.equal(changes.goodsChangedSince(8, afterFirst), true);
    assert.deepEqual([...(changes.changedSince(changes.version) as Set<number>)], []);

    const beforeAll = changes.version;
    changes.committed("all");
    assert.equal(changes.changedSince(beforeAll), "all");
    assert.equal(changes.goodsChangedSince(42, beforeAll), true);
    const afterAll = changes.version;
    changes.committed([9]);
    assert.deepEqual([...(changes.changedSince(afterAll) as Set<number>)], [9]);
  });

  test("a change naming no goods is no market change; many goods are kept by id, not counted as everything", () => {
    const changes = new MarketChanges();
    let told = 0;
    changes.onChange(() => (told += 1));
    changes.committed([]);
    assert.equal(changes.version, 0);
    assert.equal(told, 0);
    const start = changes.version;
    const many = Array.from({ length: MAX_CHANGED_GOODS * 3 }, (_, index) => index + 1);
    changes.committed(many);
    assert.deepEqual([...(changes.changedSince(start) as Set<number>)], many);
    assert.equal(changes.everythingSince(start), false);
    assert.equal(told, 1);
  });

  test("a change to the liquidity ranks names no goods and is not everything", () => {
    const changes = new MarketChanges();
    const start = changes.version;
    changes.committed("ranks");
    assert.equal(changes.version, start + 1);
    assert.deepEqual([...(changes.changedSince(start) as Set<number>)], []);
    assert.equal(changes.ranksChangedSince(start), true);
    assert.equal(changes.everythingSince(start), false);
    assert.equal(changes.goodsChangedSince(7, start), false);
    const afterRanks = changes.version;
    assert.equal(changes.ranksChangedSince(afterRanks), false);
    changes.heard("all");
    assert.equal(changes.ranksChangedSince(afterRanks), true, "everything includes the ranks");
  });

  test("announcements batch the goods of every change since the last one", async () => {
    const sent: ChangedGoods[] = [];
    let wake!: () => void;
    const announce = batched(async (goods) => {
      sent.push(goods);
      wake();
    }, 0);
    const next = () => new Promise<void>((resolve) => (wake = resolve));

    let arrived = next();
    announce([1]);
    announce([2, 1]);
    await arrived;
    assert.deepEqual(sent, [[1, 2]]);

    arrived = next();
    announce([3]);
    announce("all");
    announce([4]);
    await arrived;
    assert.equal(sent[1], "all");

    // More goods than a notice holds: several notices, and the ranks in one of their own.
    let left = 3;
    arrived = new Promise<void>((resolve) => (wake = () => --left === 0 && resolve()));
    const many = Array.from({ length: MAX_CHANGED_GOODS + 1 }, (_, index) => index + 1);
    announce(many);
    announce("ranks");
    await arrived;
    assert.deepEqual(sent.slice(2), ["ranks", many.slice(0, MAX_CHANGED_GOODS), [MAX_CHANGED_GOODS + 1]]);
  });
});
