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
  /** The changed goods ids in id order, sorted on the first walk over the entries. */
  #changedIds: number[] | undefined;

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
    return new SnapshotEntries(new Map(new SnapshotEntries(this.#base, merged)));
  }

  get(goodsId: number): PriceEntry | undefined {
    return this.#changes.has(goodsId) ? this.#changes.get(goodsId) : this.#base.get(goodsId);
  }

  has(goodsId: number): boolean {
    return this.get(goodsId) !== undefined;
  }

  /** Base and changes merged in goods-id order (the base is in id order). */
  *entries(): MapIterator<[number, PriceEntry]> {
    if (this.#changes.size === 0) {
      yield* this.#base;
      return;
    }
    const changed = (this.#changedIds ??= [...this.#changes.keys()].sort((a, b) => a - b));
    let next = 0;
    for (const [goodsId, entry] of this.#base) {
      for (; next < changed.length && changed[next]! < goodsId; next++) {
        const added = this.#changes.get(changed[next]!);
        if (added) yield [changed[next]!, added];
      }
      if (next < changed.length && changed[next] === goodsId) {
        next++;
        const replaced = this.#changes.get(goodsId);
        if (replaced) yield [goodsId, replaced];
      } else yield [goodsId, entry];
    }
    for (; next < changed.length; next++) {
      const added = this.#changes.get(changed[next]!);
      if (added) yield [changed[next]!, added];
    }
  }

  *keys(): MapIterator<number> {
    for (const [goodsId] of this.entries()) yield goodsId;
  }

  *values(): MapIterator<PriceEntry> {
    for (const [, entry] of this.entries()) yield entry;
  }

  [Symbol.iterator](): MapIterator<[number, PriceEntry]> {
    return this.entries();
  }

  forEach(
    callback: (entry: PriceEntry, goodsId: number, map: ReadonlyMap<number, PriceEntry>) => void,
    thisArg?: unknown,
  ): void {
    for (const [goodsId, entry] of this.entries()) callback.call(thisArg, entry, goodsId, this);
  }
}
