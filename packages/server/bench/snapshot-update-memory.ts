/**
 * Bytes allocated and CPU time per snapshot update of the entries map alone (the database reads
 * are the same either way): the whole map copied per update (and sorted again when a goods is
 * new to the market), against the changed entries laid over the snapshot's (`SnapshotEntries`).
 * A market of 22,000 goods, updates of 10 changed goods, a quarter of them with a goods new to
 * the market, 240 updates in a row (a minute at four a second), the folds into a new base
 * included (`NEWCOMERS=0`: none new to the market). Run: node_modules/.bin/node --expose-gc --max-semi-space-size=256 packages/server/bench/snapshot-update-memory.ts
 */
import { NO_FIGURES } from "../src/domain/market/market-figures.ts";
import type { PriceEntry } from "../src/domain/market/price-snapshot.ts";
import { SnapshotEntries } from "../src/domain/market/snapshot-entries.ts";

const GOODS = 22_000;
const UPDATES = 240;
const CHANGED = 10;
const foundAt = new Date();
const entryOf = (goodsId: number, minPrice: number): PriceEntry => ({
  goods_id: goodsId,
  market_hash_name: `goods ${goodsId}`,
  name: `goods ${goodsId}`,
  type: "weapon",
  whole: { ...NO_FIGURES, minPrice },
  intervals: [],
  variants: [],
  liquidityRank: 0,
  foundAt,
});

// Goods ids 0, 2, 4, ...: the odd ids are new to the market when they come.
const base = new Map<number, PriceEntry>();
for (let index = 0; index < GOODS; index++) base.set(index * 2, entryOf(index * 2, 100));
let seed = 1;
const random = (below: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % below;
const updates: Map<number, PriceEntry | undefined>[] = [];
for (let update = 0; update < UPDATES; update++) {
  const changes = new Map<number, PriceEntry | undefined>();
  while (changes.size < CHANGED) {
    const goodsId = random(GOODS) * 2;
    changes.set(goodsId, entryOf(goodsId, update));
  }
  if (update % 4 === 0 && process.env.NEWCOMERS !== "0") {
    const newcomer = random(GOODS) * 2 + 1;
    changes.set(newcomer, entryOf(newcomer, update));
  }
  updates.push(changes);
}

/** The update before: the whole map copied, and sorted again when a goods is new to it. */
function copied(entries: ReadonlyMap<number, PriceEntry>, changes: Map<number, PriceEntry | undefined>) {
  const next = new Map(entries);
  let added = false;
  for (const [goodsId, entry] of changes)
    if (!entry) next.delete(goodsId);
    else {
      added ||= !next.has(goodsId);
      next.set(goodsId, entry);
    }
  return added ? new Map([...next].sort(([a], [b]) => a - b)) : next;
}

const layered = (entries: ReadonlyMap<number, PriceEntry>, changes: Map<number, PriceEntry | undefined>) =>
  SnapshotEntries.of(entries).withChanges(changes);

const collect = (globalThis as { gc?: () => void }).gc!;

/**
 * Bytes: the heap's growth over each update alone, collected before each (a collection during one
 * would hide its garbage). CPU: the process's user and system time over all updates in a row.
 * Walk: a reader's pass over the last snapshot's entries (an answer's build): the first one's
 * bytes (the layered entries merge then), the CPU of the next ones.
 */
function measure(
  name: string,
  update: (
    entries: ReadonlyMap<number, PriceEntry>,
    changes: Map<number, PriceEntry | undefined>,
  ) => ReadonlyMap<number, PriceEntry>,
) {
  let bytes = 0;
  let entries: ReadonlyMap<number, PriceEntry> = base;
  for (const changes of updates) {
    collect();
    const heap = process.memoryUsage().heapUsed;
    entries = update(entries, changes);
    bytes += process.memoryUsage().heapUsed - heap;
  }
  const rounds = 5;
  const cpu = process.cpuUsage();
  for (let round = 0; round < rounds; round++) {
    entries = base;
    for (const changes of updates) entries = update(entries, changes);
  }
  const used = process.cpuUsage(cpu);
  let walked = 0;
  collect();
  const heap = process.memoryUsage().heapUsed;
  for (const entry of entries.values()) walked += entry.whole.minPrice;
  const walkBytes = process.memoryUsage().heapUsed - heap;
  const walkCpu = process.cpuUsage();
  for (let round = 0; round < 100; round++)
    for (const entry of entries.values()) walked += entry.whole.minPrice;
  const walkUsed = process.cpuUsage(walkCpu);
  if (walked < 0 || entries.size < GOODS) throw new Error("lost entries");
  console.log(
    `${name}: ${(bytes / UPDATES / 1024).toFixed(1)} KiB allocated and ` +
      `${((used.user + used.system) / UPDATES / rounds).toFixed(1)} µs CPU per update; a walk over ` +
      `${entries.size} entries: ${(walkBytes / 1024).toFixed(1)} KiB, ` +
      `${((walkUsed.user + walkUsed.system) / 100).toFixed(0)} µs CPU`,
  );
}

if (!collect) throw new Error("run with --expose-gc");
for (let round = 0; round < 3; round++) {
  measure("whole map copied", copied);
  measure("changes laid over", layered);
}
