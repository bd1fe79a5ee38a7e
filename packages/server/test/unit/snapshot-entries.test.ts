import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { PriceEntry } from "../../src/domain/market/price-snapshot.ts";
import { SnapshotEntries } from "../../src/domain/market/snapshot-entries.ts";
import { priceEntry } from "../support/price-entries.ts";

const foundAt = new Date("2026-01-01T00:00:00Z");
const mapOf = (ids: number[], price = 100) =>
  new Map(ids.map((id): [number, PriceEntry] => [id, priceEntry(id, price, foundAt)]));
/** What a plain map would hold after the same changes, in id order. */
function expected(base: Map<number, PriceEntry>, changes: Map<number, PriceEntry | undefined>[]) {
  const map = new Map(base);
  for (const step of changes)
    for (const [id, entry] of step)
      if (entry) map.set(id, entry);
      else map.delete(id);
  return [...map].sort(([a], [b]) => a - b);
}

describe("snapshot entries shared between snapshots", () => {
  test("changes replace, add in id order and remove; the entries they came from keep their view", () => {
    const base = mapOf([10, 20, 30, 40]);
    const first = SnapshotEntries.of(base);
    const changes = new Map<number, PriceEntry | undefined>([
      [45, priceEntry(45, 1, foundAt)],
      [20, priceEntry(20, 2, foundAt)],
      [5, priceEntry(5, 3, foundAt)],
      [30, undefined],
      [25, priceEntry(25, 4, foundAt)],
      [99, undefined],
    ]);
    const second = first.withChanges(changes);
    assert.deepEqual([...second], expected(base, [changes]));
    assert.deepEqual([...second.keys()], [5, 10, 20, 25, 40, 45]);
    assert.equal(second.size, 6);
    assert.equal(second.get(30), undefined);
    assert.equal(second.has(30), false);
    assert.equal(second.has(25), true);
    assert.equal(second.get(10), base.get(10), "an entry kept is the same object");
    assert.deepEqual([...first], [...base], "the earlier entries are untouched");
    assert.equal(first.size, 4);
    const third = second.withChanges(new Map([[30, priceEntry(30, 5, foundAt)]]));
    assert.deepEqual([...third.keys()], [5, 10, 20, 25, 30, 40, 45]);
    assert.deepEqual([...second.keys()], [5, 10, 20, 25, 40, 45]);
    const seen: number[] = [];
    third.forEach((entry, id, map) => {
      assert.equal(entry.goods_id, id);
      assert.equal(map, third);
      seen.push(id);
    });
    assert.deepEqual(seen, [...third.keys()]);
    assert.equal(second.withChanges(new Map()), second, "no change, the same entries");
  });

  test("many updates fold into a new base now and then; every version keeps its view", () => {
    const base = mapOf(Array.from({ length: 2000 }, (_, index) => index * 2));
    let entries = SnapshotEntries.of(base);
    const steps: Map<number, PriceEntry | undefined>[] = [];
    const versions: [SnapshotEntries, [number, PriceEntry][]][] = [];
    let seed = 7;
    const random = (below: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % below;
    for (let step = 0; step < 300; step++) {
      const changes = new Map<number, PriceEntry | undefined>();
      for (let change = 0; change < 1 + random(12); change++) {
        const id = random(4100);
        changes.set(id, random(4) === 0 ? undefined : priceEntry(id, step, foundAt));
      }
      steps.push(changes);
      entries = entries.withChanges(changes);
      versions.push([entries, expected(base, steps)]);
    }
    for (const [version, want] of versions) {
      assert.deepEqual([...version], want);
      assert.equal(version.size, want.length);
      for (const [id, entry] of want) assert.equal(version.get(id), entry);
    }
  });
});
