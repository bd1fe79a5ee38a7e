import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { gunzipSync } from "node:zlib";
import { toUnixSeconds } from "../../src/domain/clock.ts";
import type { MarketCatalog } from "../../src/domain/market/market-goods.ts";
import { priceListJson, priceListParts, type ItemShape } from "../../src/domain/market/price-entries.ts";
import { keepUnchangedEntries, type BuiltSnapshot } from "../../src/domain/market/build-price-snapshot.ts";
import type { PriceEntry, PriceSnapshot } from "../../src/domain/market/price-snapshot.ts";
import { PrebuiltBodies } from "../../src/http/prebuilt-bodies.ts";
import { PrebuiltJson } from "../../src/http/prebuilt-json.ts";
import { priceEntry } from "../support/price-entries.ts";

/**
 * The work a whole-market answer or a whole rebuild does is cut into parts with turns of the event
 * loop between them (docs/design/performance.md#no-stall-at-start-or-during-a-rebuild: no stall over 100 ms). Not timed: each test counts
 * the turns another task got while the work ran.
 */

const statTime = new Date("2026-11-26T10:00:00Z");

const entry = (goodsId: number, minPrice = 100, foundAt = statTime): PriceEntry =>
  priceEntry(goodsId, minPrice, foundAt);

const shape: ItemShape = (item) => ({
  goods_id: item.goods_id,
  market_hash_name: item.market_hash_name,
  min_price: item.whole.minPrice,
  update_time: toUnixSeconds(item.foundAt),
});

/** Counts turns of the event loop (a task queued again and again with `setImmediate`) until stopped. */
function turnCounter(): { readonly turns: number; stop(): void } {
  let turns = 0;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    turns += 1;
    setImmediate(next);
  };
  setImmediate(next);
  return {
    get turns() {
      return turns;
    },
    stop() {
      stopped = true;
    },
  };
}

const entries = Array.from({ length: 5500 }, (_, index) => entry(index + 1, 100 + index));

describe("whole-market answers are put together a part at a time", () => {
  test("the parts of a price list join to the list serialized at once, empty or not", () => {
    for (const list of [[], entries.slice(0, 1), entries.slice(0, 5)]) {
      const joined = [...priceListParts(list, statTime, shape, 2)].map((part) => part.text()).join("");
      assert.equal(joined, priceListJson(list, statTime, shape));
      assert.deepEqual(JSON.parse(`${joined}}`), {
        info: list.map((item) => shape(item)),
        stat_time: toUnixSeconds(statTime),
      });
    }
  });

  test("an answer made of parts lets other work run between them, and is the answer made at once", async () => {
    const counter = turnCounter();
    const seen: number[] = [];
    const parts = function* () {
      for (const part of priceListParts(entries, statTime, shape, 1000)) {
        yield {
          made: part.made,
          text: () => {
            seen.push(counter.turns);
            return part.text();
          },
        };
      }
    };
    // A turn after every part (no time budget), so that the test does not depend on the machine.
    const built = await PrebuiltJson.ofParts(parts(), undefined, 0);
    counter.stop();
    assert.ok(seen.length >= 7, `at least six parts of entries and the closing part (${seen.length})`);
    for (let index = 1; index < seen.length; index++)
      assert.ok(seen[index]! > seen[index - 1]!, `another task ran before part ${index + 1}`);
    const atOnce = PrebuiltJson.ofJson(priceListJson(entries, statTime, shape));
    const tail = { req_remaining: 7 };
    assert.deepEqual(
      Buffer.concat(await built.chunks("identity", tail)),
      Buffer.concat(await atOnce.chunks("identity", tail)),
    );
    // The gzip trailer's check sum is combined from the parts'.
    assert.deepEqual(
      JSON.parse(gunzipSync(Buffer.concat(await built.chunks("gzip", tail))).toString("utf8")),
      JSON.parse(`${priceListJson(entries, statTime, shape)},"req_remaining":7}`),
    );
  });

  test("callers asking while an answer is built share the one build, then find it built", async () => {
    const bodies = new PrebuiltBodies();
    const snapshot = {};
    let built = 0;
    const parts = () => {
      built += 1;
      return priceListParts(entries, statTime, shape);
    };
    const first = bodies.build(snapshot, "items", parts);
    assert.equal(bodies.building(snapshot, "items"), first);
    assert.equal(bodies.build(snapshot, "items", parts), first);
    assert.equal(bodies.get(snapshot, "items"), undefined, "not ready in the turn it was asked for");
    const answer = await first;
    assert.equal(built, 1);
    assert.equal(bodies.get(snapshot, "items"), answer);
    assert.equal(bodies.building(snapshot, "items"), undefined);
  });
});

describe("whole snapshots are compared a slice at a time", () => {
  const catalog: MarketCatalog = { checksum: "c", byId: new Map(), byName: new Map() };
  const snapshotOf = (list: PriceEntry[]): BuiltSnapshot => ({
    builtAt: statTime,
    entries: new Map(list.map((item) => [item.goods_id, item])),
    catalog,
    liquidity: new Map(),
    nextCooldownEnd: null,
  });

  const sameFigures = async (a: PriceSnapshot, b: BuiltSnapshot) => (await keepUnchangedEntries(a, b)) === a;
  const later = new Date(statTime.getTime() + 60_000);

  test("equal figures are found equal, whenever they were found, with other work run meanwhile", async () => {
    const copies = entries.map((item) => ({ ...structuredClone(item), foundAt: later }));
    const counter = turnCounter();
    const same = await sameFigures(snapshotOf(entries), snapshotOf(copies));
    counter.stop();
    assert.equal(same, true);
    assert.ok(counter.turns >= 2, `other work ran during the comparison (${counter.turns} turns)`);
  });

  test("one differing figure, a missing goods or another order of goods differ", async () => {
    const changed = entries.map((item, index) => (index === 4321 ? entry(item.goods_id, 1) : item));
    assert.equal(await sameFigures(snapshotOf(entries), snapshotOf(changed)), false);
    assert.equal(await sameFigures(snapshotOf(entries), snapshotOf(entries.slice(1))), false);
    const swapped = [entries[1]!, entries[0]!, ...entries.slice(2)];
    assert.equal(await sameFigures(snapshotOf(entries), snapshotOf(swapped)), false);
  });

  test("a whole build keeps the entries whose figures did not change, with the time they were found", async () => {
    const rebuilt = entries.map((item, index) =>
      index === 4321 ? entry(item.goods_id, 1, later) : { ...structuredClone(item), foundAt: later },
    );
    const kept = await keepUnchangedEntries(snapshotOf(entries), snapshotOf(rebuilt));
    assert.equal(kept.entries.get(entries[0]!.goods_id), entries[0], "the same object as before");
    assert.equal(kept.entries.get(entries[4321]!.goods_id)?.foundAt, later, "found again, later");
    assert.equal(kept.entries.get(entries[4321]!.goods_id)?.whole.minPrice, 1);
    assert.deepEqual(
      [...kept.entries.values()].filter((item) => item.foundAt === later).map((item) => item.goods_id),
      [entries[4321]!.goods_id],
    );
  });
});
