import type { DomainContext } from "../context.ts";
import { buildSnapshot, EMBEDDED_LISTINGS_PER_CHUNK, keepUnchangedEntries } from "./build-price-snapshot.ts";
import type { MarketChanges } from "./market-changes.ts";
import type { PriceSnapshot } from "./price-snapshot.ts";
import { goodsOutOfCooldown } from "./price-snapshot-reads.ts";
import { Rebuilds } from "./rebuilds.ts";
import { recheckSlice, type RecheckSlice } from "./recheck-slice.ts";
import { readGoodsSnapshot, updateSnapshot } from "./update-price-snapshot.ts";

/**
 * Every goods of the catalog is read again at least once in this time even without a counted
 * change, a slice each `intervalMs` (the rolling recheck), for writes made behind the service's
 * back (docs/design/market-snapshots.md#when-a-snapshot-is-rebuilt).
 */
export const DEFAULT_MAX_AGE_MS = 60_000;

/** The longest a timer may wait in Node (about 24.8 days); a later moment is checked again then. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

interface CurrentSnapshot {
  snapshot: PriceSnapshot;
  /** The change count the build started from: a higher count means the snapshot may be out of date. */
  version: number;
  checkedAt: number;
  /** When the next slice of the rolling recheck is due (marketplace clock, ms; never: Infinity). */
  recheckAt: number;
  /** Where the rolling recheck goes on: an index into the catalog's goods ids, in id order. */
  recheckFrom: number;
}

/** What a build did, for an observer (tests, the bench): how many goods it read. */
export type SnapshotBuild =
  { kind: "whole" } | { kind: "update"; goods: number; rechecked: number; ranks: boolean };

/**
 * The market's prices as of one moment (docs/design/market-snapshots.md#when-a-snapshot-is-rebuilt): price answers are read from it
 * instead of the database. It is out of date once it is at least `intervalMs` old and a change was
 * counted since it was built (`MarketChanges`), once a listing's trade cooldown ended since, and
 * each `intervalMs` for the next slice of the rolling recheck (with `maxAgeMs`; never on the
 * embedded database, which no other process writes).
 *
 * - `keepFresh` (the server) rebuilds it as soon as it is out of date, without waiting for a
 *   request: the first request after a quiet spell finds the snapshot of the last change, never
 *   one from minutes before.
 * - One rebuild runs at a time (`Rebuilds`): with `serveStale` (a server: no request waits for the
 *   whole market) callers meanwhile get the snapshot there is; without (tests) they wait.
 * - A rebuild is an update (`updateSnapshot`): it re-reads the goods changed since
 *   (`MarketChanges.changedSince`, however many: in slices of `GOODS_PER_UPDATE`), the goods whose
 *   listings left their trade cooldown, and the recheck's slice, and keeps every other goods'
 *   entry as it was, the same object, so that what is derived from an entry (its serialized
 *   fragments, `PriceAnswers`) is reused. A recomputation of the liquidity ranks reads the ranks
 *   table again and changes the entries whose rank moved, no figure.
 * - The rolling recheck (with `maxAgeMs`) re-reads a slice of the catalog's goods each
 *   `intervalMs`, in id order, goods off the market included (one may have gained a listing
 *   behind the service's back), so that every goods is read again within `maxAgeMs`; when it has
 *   gone round the catalog it reads the liquidity ranks again too.
 * - The whole market is read only to build the first snapshot (the server builds it before it
 *   listens), after a change to everything (a sandbox reset, a demo build, a write that names no
 *   goods, another instance's notice without goods, a lost notification connection), and on a new
 *   catalog.
 * - `forGoods` answers the goods a request names: from the snapshot while no change to those
 *   goods was counted since it was built, else from the database for those goods alone, so that
 *   a change is in the very next single-goods answer (read-your-writes).
 *
 * A rebuild that finds the same figures keeps the snapshot it had, with its `builtAt` (the time
 * the figures hold since) and its prebuilt bytes, so its ETag stays valid.
 */
export class PriceSnapshots {
  readonly #changes: MarketChanges;
  readonly #intervalMs: number;
  readonly #updateIntervalMs: number;
  readonly #maxAgeMs: number;
  readonly #listingsPerChunk: number;
  readonly #onBuild: (build: SnapshotBuild) => void;
  #current: CurrentSnapshot | undefined;
  readonly #rebuilds: Rebuilds<PriceSnapshot>;

  constructor(
    changes: MarketChanges,
    intervalMs = 1000,
    options: {
      serveStale?: boolean;
      /** Every goods is read again within this time (the rolling recheck); Infinity: never. */
      maxAgeMs?: number;
      listingsPerChunk?: number;
      /** The least time between per-goods updates (default `intervalMs`, as whole rebuilds). */
      updateIntervalMs?: number;
      /** Told after each build that replaced the snapshot's state (tests and the bench count them). */
      onBuild?: (build: SnapshotBuild) => void;
    } = {},
  ) {
    this.#changes = changes;
    this.#intervalMs = intervalMs;
    this.#updateIntervalMs = Math.min(intervalMs, options.updateIntervalMs ?? intervalMs);
    this.#maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
    this.#listingsPerChunk = options.listingsPerChunk ?? EMBEDDED_LISTINGS_PER_CHUNK;
    this.#onBuild = options.onBuild ?? (() => undefined);
    this.#rebuilds = new Rebuilds("price snapshot", options.serveStale ?? false);
  }

  /** The snapshot to answer from: at once while it is up to date, else once rebuilt (or stale). */
  current(ctx: DomainContext): PriceSnapshot | Promise<PriceSnapshot> {
    const current = this.#current;
    if (current && !this.#outOfDate(current, ctx.clock.now().getTime())) return current.snapshot;
    return this.#rebuild(ctx, current);
  }

  /**
   * The first snapshot, read in chunks of `listingsPerChunk` listings: the server builds it before
   * it listens, when no request can be waiting for the event loop, so the embedded database reads
   * the market in a few large chunks (each chunk's statements cost about as much whatever its size;
   * small chunks only keep the loop free for requests). Later whole builds keep the usual chunks.
   */
  first(ctx: DomainContext, listingsPerChunk: number): Promise<PriceSnapshot> {
    const current = this.#current;
    if (current) return Promise.resolve(this.current(ctx));
    return this.#rebuilds.next(ctx, undefined, () => this.#build(ctx, listingsPerChunk));
  }

  /**
   * A snapshot holding the up-to-date figures of the goods named (by id or by name; names the
   * catalog does not know are left for the operation to refuse): the snapshot itself while nothing
   * changed since it was built, else those goods read from the database now.
   */
  forGoods(
    ctx: DomainContext,
    goods: { goodsIds?: readonly number[]; marketHashNames?: readonly string[] },
  ): PriceSnapshot | Promise<PriceSnapshot> {
    const current = this.#current;
    if (!current) return Promise.resolve(this.current(ctx)).then(() => this.forGoods(ctx, goods));
    const now = ctx.clock.now().getTime();
    if (!this.#goodsChangedSince(current, now, goods)) return current.snapshot;
    // The change must show in this answer: these goods are read now, and the whole market follows
    // (a failed rebuild is logged by `Rebuilds`).
    if (this.#outOfDate(current, now)) this.#rebuild(ctx, current).catch(() => undefined);
    const ranks = this.#changes.ranksChangedSince(current.version);
    return readGoodsSnapshot(ctx, current.snapshot, goods, ranks);
  }

  /**
   * Rebuilds the snapshot whenever it goes out of date (a change, a cooldown's end, the recheck's
   * next slice), at most once per `intervalMs` (per `updateIntervalMs` for an update), with `ctx`
   * (the server's system context), telling `onRebuilt` after each rebuild; answers a function that
   * stops it.
   */
  keepFresh(
    ctx: DomainContext,
    onRebuilt: (snapshot: PriceSnapshot, milliseconds: number) => void = () => undefined,
  ): () => void {
    let timer: NodeJS.Timeout | undefined;
    let running = false;
    let stopped = false;
    const arm = () => {
      clearTimeout(timer);
      timer = undefined;
      const current = this.#current;
      if (stopped || !current) return;
      const wait = Math.max(0, this.#outOfDateAt(current) - ctx.clock.now().getTime());
      if (wait === Infinity) return;
      timer = setTimeout(run, Math.min(wait, LONGEST_TIMER_MS));
      timer.unref();
    };
    const run = () => {
      timer = undefined;
      const current = this.#current;
      if (!current || !this.#outOfDate(current, ctx.clock.now().getTime())) return arm();
      const started = performance.now();
      running = true;
      // Waits for the rebuild itself (not the snapshot served meanwhile); a failed one (logged by
      // `Rebuilds`) is tried again after `intervalMs`.
      this.#rebuild(ctx, undefined).then(
        (snapshot) => {
          running = false;
          onRebuilt(snapshot, performance.now() - started);
          arm();
        },
        () => {
          running = false;
          if (stopped) return;
          timer = setTimeout(run, this.#intervalMs);
          timer.unref();
        },
      );
    };
    // A change may bring the moment nearer (a timer may wait for a cooldown's end days away); while
    // a rebuild runs, its end arms the timer.
    const stopListening = this.#changes.onChange(() => {
      if (!running) arm();
    });
    arm();
    return () => {
      stopped = true;
      stopListening();
      clearTimeout(timer);
    };
  }

  #rebuild(ctx: DomainContext, current: CurrentSnapshot | undefined): Promise<PriceSnapshot> {
    return this.#rebuilds.next(ctx, current?.snapshot, () => this.#build(ctx));
  }

  /** Whether a change to the goods named, to the ranks, or a cooldown's end was counted since the build. */
  #goodsChangedSince(
    current: CurrentSnapshot,
    now: number,
    goods: { goodsIds?: readonly number[]; marketHashNames?: readonly string[] },
  ): boolean {
    if (this.#cooldownEnded(current, now)) return true;
    if (current.version === this.#changes.version) return false;
    if (this.#changes.ranksChangedSince(current.version)) return true;
    const changed = (goodsId: number) => this.#changes.goodsChangedSince(goodsId, current.version);
    return (
      (goods.goodsIds ?? []).some(changed) ||
      (goods.marketHashNames ?? []).some((name) => {
        const known = current.snapshot.catalog.byName.get(name);
        return known !== undefined && changed(known.goods_id);
      })
    );
  }

  #cooldownEnded(current: CurrentSnapshot, now: number): boolean {
    const cooldownEnd = current.snapshot.nextCooldownEnd;
    return cooldownEnd !== null && now >= cooldownEnd.getTime();
  }

  #outOfDate(current: CurrentSnapshot, now: number): boolean {
    return now >= this.#outOfDateAt(current);
  }

  /** The moment (marketplace clock, ms) the snapshot goes out of date as things stand. */
  #outOfDateAt(current: CurrentSnapshot): number {
    const earliest = current.checkedAt + this.#intervalMs;
    if (current.version !== this.#changes.version)
      return this.#changes.everythingSince(current.version)
        ? earliest
        : current.checkedAt + this.#updateIntervalMs;
    const cooldownEnd = current.snapshot.nextCooldownEnd?.getTime() ?? Infinity;
    const recheck = Math.max(current.checkedAt + this.#updateIntervalMs, current.recheckAt);
    return Math.min(Math.max(earliest, cooldownEnd), recheck);
  }

  /**
   * The recheck's next slice: the goods of the catalog (in id order, from where the last slice
   * ended) that hold a share `intervalMs / maxAgeMs` of the market's listings (each goods counting
   * one more, so that goods off the market are read too), so that the whole catalog
   * is read within `maxAgeMs` at a slice each `intervalMs` and each slice reads about as many rows;
   * the range of ids it spans, and where the next slice starts (0 when this one ends the round).
   */
  #recheckSlice(current: CurrentSnapshot): RecheckSlice {
    return recheckSlice(current.snapshot, current.recheckFrom, this.#intervalMs / this.#maxAgeMs);
  }

  async #build(ctx: DomainContext, listingsPerChunk = this.#listingsPerChunk): Promise<PriceSnapshot> {
    // Changes counted from here on may be missing from this build: they leave it out of date.
    const version = this.#changes.version;
    const current = this.#current;
    const now = ctx.clock.now().getTime();
    const changed = current ? this.#changes.changedSince(current.version) : "all";
    if (current && changed !== "all") {
      // A cooldown's end changes the goods of the listings whose cooldown ended, not the market:
      // a whole rebuild each time cost seconds per million listings, every few seconds at ten million.
      const cooldownEnded = this.#cooldownEnded(current, now);
      const ended = cooldownEnded
        ? await goodsOutOfCooldown(ctx, current.snapshot.nextCooldownEnd!, new Date(now))
        : [];
      const recheck = now >= current.recheckAt ? this.#recheckSlice(current) : undefined;
      const goods = new Set([...changed, ...ended, ...(recheck?.goods ?? [])]);
      // Ranks move only when recomputed (a counted change); the end of a recheck round reads them
      // again for a recomputation another process made without telling.
      const ranks = this.#changes.ranksChangedSince(current.version) || recheck?.next === 0;
      const updated = await updateSnapshot(ctx, current.snapshot, goods, {
        cooldownEnded,
        ranks,
        range: recheck?.range,
      });
      if (updated) {
        this.#current = {
          snapshot: updated,
          version,
          checkedAt: now,
          recheckAt: recheck ? now + this.#intervalMs : current.recheckAt,
          recheckFrom: recheck ? recheck.next : current.recheckFrom,
        };
        this.#onBuild({ kind: "update", goods: goods.size, rechecked: recheck?.goods.length ?? 0, ranks });
        return updated;
      }
    }
    const built = await buildSnapshot(ctx, listingsPerChunk);
    const previous = current?.snapshot;
    const snapshot = previous ? await keepUnchangedEntries(previous, built) : built;
    const builtAt = built.builtAt.getTime();
    const recheckAt = Number.isFinite(this.#maxAgeMs) ? builtAt + this.#intervalMs : Infinity;
    this.#current = { snapshot, version, checkedAt: builtAt, recheckAt, recheckFrom: 0 };
    this.#onBuild({ kind: "whole" });
    return snapshot;
  }
}
