import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  batched,
  MarketChanges,
  MAX_CHANGED_GOODS,
  type ChangedGoods,
} from "../../src/domain/market/market-changes.ts";

/** Market changes carry their goods (docs/design.md section 4). */
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

  test("a change naming no goods is no market change; too many goods count as everything", () => {
    const changes = new MarketChanges();
    let told = 0;
    changes.onChange(() => (told += 1));
    changes.committed([]);
    assert.equal(changes.version, 0);
    assert.equal(told, 0);
    const start = changes.version;
    changes.committed(Array.from({ length: MAX_CHANGED_GOODS + 1 }, (_, index) => index + 1));
    assert.equal(changes.changedSince(start), "all");
    assert.equal(told, 1);
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

    arrived = next();
    announce(Array.from({ length: MAX_CHANGED_GOODS + 1 }, (_, index) => index + 1));
    await arrived;
    assert.equal(sent[2], "all");
  });
});
