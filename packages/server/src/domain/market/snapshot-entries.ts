import type { PriceEntry } from "./price-snapshot.ts";

/**
 * How many changed entries a layer holds at most, given its base's size: past it, the next
 * update folds them into a new base. A larger layer makes each update copy more of it, a smaller
 * one makes the whole-market copy more frequent; near the square root of the market balances the
 * two (docs/design/market-snapshots.md#entries-shared-between-snapshots).
 */
function layerLimit(baseSize: number): number {
  return Math.max(64, Math.ceil(4 * Math.sqrt(baseSize)));
}

/**
 * The entries of a price snapshot, by goods id, in id order: a base map (in id order) shared
 * with the snapshots it came from, and the entries changed since (a removed goods as
 * `undefined`). Neither is written once the object exists, so every snapshot keeps its view
 * while later ones are made from it; `withChanges` costs the changes and the layer, not the
 * market (docs/design/market-snapshots.md#entries-shared-between-snapshots).
 */
export class SnapshotEntries implements ReadonlyMap<number, PriceEntry> {
  readonly size: number;
  readonly #base: ReadonlyMap<number, PriceEntry>;
  readonly #changes: ReadonlyMap<number, PriceEntry | undefined>;
  /** The entries in id order, once walked (`#merged`). */
  #walked: { ids: number[]; values: PriceEntry[] } | undefined;

  constructor(
    base: ReadonlyMap<number, PriceEntry>,
    changes: ReadonlyMap<number, PriceEntry | undefined> = new Map(),
  ) {
    this.#base = base;
    this.#changes = changes;
    let size = base.size;
    for (const [goodsId, entry] of changes) size += (entry ? 1 : 0) - (base.has(goodsId) ? 1 : 0);
    this.size = size;
  }

  /** `entries` as snapshot entries: a plain map (a whole build's, in id order) becomes the base. */
  static of(entries: ReadonlyMap<number, PriceEntry>): SnapshotEntries {
    return entries instanceof SnapshotEntries ? entries : new SnapshotEntries(entries);
  }

  /**
   * These entries with `changes` applied (an `undefined` entry removes its goods), as a new
   * object: this one is left as it is. Entries kept are the same objects.
   */
  withChanges(changes: ReadonlyMap<number, PriceEntry | undefined>): SnapshotEntries {
    if (changes.size === 0) return this;
    const merged = new Map(this.#changes);
    for (const [goodsId, entry] of changes) merged.set(goodsId, entry);
    if (merged.size <= layerLimit(this.#base.size)) return new SnapshotEntries(this.#base, merged);
    // Folded into a new base, in id order: the old base stays whole for the snapshots holding it.
    const { ids, values } = new SnapshotEntries(this.#base, merged).#merged();
    const folded = new Map<number, PriceEntry>();
    for (const [index, goodsId] of ids.entries()) folded.set(goodsId, values[index]!);
    return new SnapshotEntries(folded);
  }

  get(goodsId: number): PriceEntry | undefined {
    return this.#changes.has(goodsId) ? this.#changes.get(goodsId) : this.#base.get(goodsId);
  }

  has(goodsId: number): boolean {
    return this.get(goodsId) !== undefined;
  }

  /** Base and changes merged in goods-id order (the base is in id order). */
  entries(): MapIterator<[number, PriceEntry]> {
    if (this.#changes.size === 0) return this.#base.entries();
    const ids = this.#merged().ids;
    const values = this.#merged().values;
    return ids.map((goodsId, index): [number, PriceEntry] => [goodsId, values[index]!]).values();
  }

  keys(): MapIterator<number> {
    if (this.#changes.size === 0) return this.#base.keys();
    return this.#merged().ids.values();
  }

  values(): MapIterator<PriceEntry> {
    if (this.#changes.size === 0) return this.#base.values();
    return this.#merged().values.values();
  }

  [Symbol.iterator](): MapIterator<[number, PriceEntry]> {
    return this.entries();
  }

  /**
   * The goods ids and entries in id order, merged once, on the first walk over this snapshot's
   * entries: readers walk the whole market for every answer, and an array's iterator allocates
   * nothing where a merging iterator allocated for every entry of every walk.
   */
  #merged(): { ids: number[]; values: PriceEntry[] } {
    if (this.#walked) return this.#walked;
    const changes = this.#changes;
    const changed = [...changes.keys()].sort((a, b) => a - b);
    // Sized at once and filled by `forEach` (no pair per entry, no growing): the first walk of
    // a snapshot costs these two arrays.
    const ids = new Array<number>(this.size);
    const values = new Array<PriceEntry>(this.size);
    let at = 0;
    let next = 0;
    const take = (goodsId: number) => {
      const entry = changes.get(goodsId);
      if (entry) {
        ids[at] = goodsId;
        values[at++] = entry;
      }
    };
    this.#base.forEach((entry, goodsId) => {
      for (; next < changed.length && changed[next]! < goodsId; next++) take(changed[next]!);
      if (next < changed.length && changed[next] === goodsId) take(changed[next++]!);
      else {
        ids[at] = goodsId;
        values[at++] = entry;
      }
    });
    for (; next < changed.length; next++) take(changed[next]!);
    return (this.#walked = { ids, values });
  }

  forEach(
    callback: (entry: PriceEntry, goodsId: number, map: ReadonlyMap<number, PriceEntry>) => void,
    thisArg?: unknown,
  ): void {
    for (const [goodsId, entry] of this.entries()) callback.call(thisArg, entry, goodsId, this);
  }
}
