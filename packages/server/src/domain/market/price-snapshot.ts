import { isDeepStrictEqual } from "node:util";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import type { MarketChanges } from "./market-changes.ts";
import { Rebuilds } from "./rebuilds.ts";
import {
  computeMarketFigures,
  NO_FIGURES,
  type GoodsChoice,
  type GoodsFigures,
  type GoodsRange,
} from "./market-figures.ts";
import { marketCatalog, type MarketCatalog, type MarketGoods } from "./market-goods.ts";

/** Goods the price lists leave out with `include_sticker=0`: stickers, sticker slabs, sealed graffiti. */
const STICKER_TYPES = new Set(["sticker", "sticker_slab", "graffiti"]);

/** One goods of the snapshot: its names and type, its market figures and its liquidity rank. */
export interface PriceEntry extends GoodsFigures {
  goods_id: number;
  market_hash_name: string;
  name: string;
  type: string;
  /** Liquidity rank in hundredths of a percent (0 without trades in the last 30 days). */
  liquidityRank: number;
  /**
   * When these figures were found (the entry's `update_time`): the time of the build or update
   * that found them, kept while later ones find the same figures (the entry is then kept, the same
   * object).
   */
  foundAt: Date;
}

export interface PriceSnapshot {
  builtAt: Date;
  /** Every goods with a listing on sale or a buy order in the public book, by goods id, in id order. */
  entries: Map<number, PriceEntry>;
  /** The catalog the snapshot was built on: single-goods lookups by id or name read it. */
  catalog: MarketCatalog;
  /** Liquidity ranks (hundredths of a percent) of the goods traded in the last 30 days. */
  liquidity: Map<number, number>;
  /**
   * When the first listing still in trade cooldown becomes tradable (null when none is): from then
   * on the snapshot's pre-sell and tradable figures are out of date.
   */
  nextCooldownEnd: Date | null;
}

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

  async #build(ctx: DomainContext): Promise<PriceSnapshot> {
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
    const built = await buildSnapshot(ctx, this.#listingsPerChunk);
    const previous = current?.snapshot;
    const snapshot = previous ? await keepUnchangedEntries(previous, built) : built;
    const builtAt = built.builtAt.getTime();
    const recheckAt = Number.isFinite(this.#maxAgeMs) ? builtAt + this.#intervalMs : Infinity;
    this.#current = { snapshot, version, checkedAt: builtAt, recheckAt, recheckFrom: 0 };
    this.#onBuild({ kind: "whole" });
    return snapshot;
  }
}

/** A slice of the rolling recheck: its goods, the range of ids they span, where the next begins. */
export interface RecheckSlice {
  goods: readonly number[];
  range: GoodsRange | undefined;
  next: number;
}

/** What each goods of the catalog weighs in a recheck: 1 + its listings on sale (the rows read). */
function recheckWeight(entry: PriceEntry | undefined): number {
  return entry ? 1 + entry.whole.sellNum + entry.whole.preSellNum : 1;
}

const totalWeights = new WeakMap<PriceSnapshot, number>();

/**
 * The rolling recheck's slice of `snapshot`'s catalog from index `from` (in id order) that weighs
 * `share` of the whole catalog's weight (its listings and goods), at least one goods.
 */
export function recheckSlice(snapshot: PriceSnapshot, from: number, share: number): RecheckSlice {
  const ids = goodsIdsOf(snapshot.catalog);
  if (ids.length === 0) return { goods: [], range: undefined, next: 0 };
  let total = totalWeights.get(snapshot);
  if (total === undefined) {
    total = 0;
    for (const goodsId of ids) total += recheckWeight(snapshot.entries.get(goodsId));
    totalWeights.set(snapshot, total);
  }
  const wanted = Math.ceil(total * share);
  const start = from < ids.length ? from : 0;
  let end = start;
  for (let weight = 0; end < ids.length && (end === start || weight < wanted); end++)
    weight += recheckWeight(snapshot.entries.get(ids[end]!));
  return {
    goods: ids.slice(start, end),
    range: { from: ids[start]!, to: ids[end - 1]! },
    next: end < ids.length ? end : 0,
  };
}

/** The catalog's goods ids in id order, kept per catalog (the recheck walks them). */
const sortedGoodsIds = new WeakMap<MarketCatalog, readonly number[]>();

function goodsIdsOf(catalog: MarketCatalog): readonly number[] {
  let ids = sortedGoodsIds.get(catalog);
  if (!ids) {
    ids = [...catalog.byId.keys()].sort((a, b) => a - b);
    sortedGoodsIds.set(catalog, ids);
  }
  return ids;
}

/**
 * Goods an update reads per set of statements: a larger batch (many changed goods, many
 * cooldowns ended at once) is read in slices, with a turn of the event loop between them, rather
 * than the whole market (docs/design/market-snapshots.md#updates-per-changed-goods). Above the recheck's slice (about 620 goods of
 * the 37,000-goods catalog), so that a recheck with the changes of its second is one set.
 */
const GOODS_PER_UPDATE = 1000;

/**
 * The snapshot with the figures of `changed` read again from the database now (docs/design/market-snapshots.md#the-rolling-recheck), a slice of `GOODS_PER_UPDATE` goods at a time, and with `ranks` the liquidity ranks
 * read again: the other goods keep their entries (the same objects), and a goods whose figures
 * and rank came out the same keeps its entry too; the snapshot itself when nothing differs.
 * Undefined when the catalog changed since the snapshot was built: the whole market is read then.
 */
export async function updateSnapshot(
  ctx: DomainContext,
  snapshot: PriceSnapshot,
  changed: ReadonlySet<number>,
  options: { cooldownEnded?: boolean; ranks?: boolean; range?: GoodsRange } = {},
): Promise<PriceSnapshot | undefined> {
  const { cooldownEnded = false, ranks = false, range } = options;
  const catalog = await marketCatalog(ctx);
  if (catalog !== snapshot.catalog) return undefined;
  const goodsIds = [...changed].filter((goodsId) => catalog.byId.has(goodsId)).sort((a, b) => a - b);
  if (goodsIds.length === 0 && !cooldownEnded && !ranks) return snapshot;
  const builtAt = ctx.clock.now();
  const readRanks = ranks ? await readLiquidityRanks(ctx) : snapshot.liquidity;
  const liquidity = isDeepStrictEqual(readRanks, snapshot.liquidity) ? snapshot.liquidity : readRanks;
  const figures = new Map<number, GoodsFigures>();
  // After a cooldown's end the next one is the market's, read from its index; else the earliest
  // among the goods read.
  let cooldown = cooldownEnded ? await nextCooldownEnd(ctx, builtAt) : null;
  // The goods of `range` are read as a range of ids (the plan of a whole build's chunk: one pass
  // over the listings' goods index), the others by their ids, a slice at a time.
  const inRange = (goodsId: number) => range !== undefined && goodsId >= range.from && goodsId <= range.to;
  const reads: ({ goodsIds: readonly number[] } | { goodsRange: GoodsRange })[] = range
    ? [{ goodsRange: range }]
    : [];
  const byIds = goodsIds.filter((goodsId) => !inRange(goodsId));
  for (let start = 0; start < byIds.length; start += GOODS_PER_UPDATE)
    reads.push({ goodsIds: byIds.slice(start, start + GOODS_PER_UPDATE) });
  for (const [index, choice] of reads.entries()) {
    if (index > 0) await new Promise((resolve) => setImmediate(resolve));
    const [readFigures, readCooldown] = await Promise.all([
      computeMarketFigures(ctx, catalog, { now: builtAt, ...choice }),
      cooldownEnded ? null : nextCooldownEnd(ctx, builtAt, choice),
    ]);
    for (const [goodsId, goodsFigures] of readFigures) figures.set(goodsId, goodsFigures);
    if (readCooldown && (!cooldown || readCooldown < cooldown)) cooldown = readCooldown;
  }
  let differs = liquidity !== snapshot.liquidity;
  let added = false;
  const entries = new Map(snapshot.entries);
  if (liquidity !== snapshot.liquidity)
    for (const [goodsId, entry] of entries) {
      const liquidityRank = liquidity.get(goodsId) ?? 0;
      // A new rank is a new figure of the entry's: it takes the moment it was found.
      if (entry.liquidityRank !== liquidityRank)
        entries.set(goodsId, { ...entry, liquidityRank, foundAt: builtAt });
    }
  for (const goodsId of goodsIds) {
    const before = entries.get(goodsId);
    const goodsFigures = figures.get(goodsId);
    if (!goodsFigures) {
      if (before) differs = entries.delete(goodsId);
      continue;
    }
    const after = toPriceEntry(
      catalog.byId.get(goodsId)!,
      goodsFigures,
      liquidity.get(goodsId) ?? 0,
      builtAt,
    );
    if (before && sameEntry(before, after)) continue;
    differs = true;
    added ||= !before;
    entries.set(goodsId, after);
  }
  // A cooldown ending among the goods read may come before the snapshot's next one; one that
  // ended or went away leaves the snapshot's, which at worst updates early.
  const previous = snapshot.nextCooldownEnd;
  const next = cooldownEnded
    ? cooldown
    : cooldown && (!previous || cooldown < previous)
      ? cooldown
      : previous;
  if (!differs && next === previous) return snapshot;
  return {
    ...snapshot,
    builtAt,
    // A goods new to the market goes to its place in id order, as a whole build puts it.
    entries: added ? new Map([...entries].sort(([a], [b]) => a - b)) : entries,
    liquidity,
    nextCooldownEnd: next,
  };
}

/** The liquidity ranks (hundredths of a percent) of the goods traded in the last 30 days. */
async function readLiquidityRanks(ctx: DomainContext): Promise<Map<number, number>> {
  const ranks = await ctx.db
    .selectFrom("liquidity_ranks")
    .select(["goods_id", "rank_hundredths"])
    .orderBy("goods_id")
    .execute();
  return new Map(ranks.map((row) => [row.goods_id, row.rank_hundredths]));
}

/**
 * The first end of a listing's trade cooldown after `after`, among the goods named or the whole
 * market (`listings_cooldown_end_idx`, which holds only listings with a cooldown end).
 */
async function nextCooldownEnd(ctx: DomainContext, after: Date, goods?: GoodsChoice): Promise<Date | null> {
  let query = ctx.db
    .selectFrom("listings")
    .select((eb) => eb.fn.min("tradable_after").as("next"))
    .where("state", "=", sql.lit("ON_SALE"))
    .where("tradable_after", ">", after);
  if (goods && "goodsIds" in goods)
    query = query.where("goods_id", "in", goods.goodsIds.length > 0 ? goods.goodsIds : [-1]);
  if (goods && "goodsRange" in goods)
    query = query.where("goods_id", ">=", goods.goodsRange.from).where("goods_id", "<=", goods.goodsRange.to);
  return (await query.executeTakeFirst())?.next ?? null;
}

/**
 * The goods with a listing whose trade cooldown ended from `from` to `to` (its pre-sell price
 * turned tradable): however many, the update reads them in slices (a jump of the sandbox clock may
 * end most cooldowns at once).
 */
async function goodsOutOfCooldown(ctx: DomainContext, from: Date, to: Date): Promise<number[]> {
  const rows = await ctx.db
    .selectFrom("listings")
    .select("goods_id")
    .distinct()
    .where("state", "=", sql.lit("ON_SALE"))
    .where("tradable_after", ">=", from)
    .where("tradable_after", "<=", to)
    .execute();
  return rows.map((row) => row.goods_id);
}

/**
 * The snapshot's catalog and liquidity ranks with the figures of the goods named read from the
 * database now (index-backed: each query keeps to those goods' listings and buy orders), and
 * their ranks too when the ranks changed since the snapshot was built.
 */
async function readGoodsSnapshot(
  ctx: DomainContext,
  snapshot: PriceSnapshot,
  goods: { goodsIds?: readonly number[]; marketHashNames?: readonly string[] },
  ranks: boolean,
): Promise<PriceSnapshot> {
  const ids = new Set<number>();
  for (const id of goods.goodsIds ?? []) if (snapshot.catalog.byId.has(id)) ids.add(id);
  for (const name of goods.marketHashNames ?? []) {
    const known = snapshot.catalog.byName.get(name);
    if (known) ids.add(known.goods_id);
  }
  const builtAt = ctx.clock.now();
  const [figures, liquidity] = await Promise.all([
    computeMarketFigures(ctx, snapshot.catalog, { now: builtAt, goodsIds: [...ids] }),
    ranks && ids.size > 0 ? readGoodsRanks(ctx, snapshot.liquidity, [...ids]) : snapshot.liquidity,
  ]);
  const entries = new Map<number, PriceEntry>();
  for (const [goodsId, goodsFigures] of figures) {
    const known = snapshot.catalog.byId.get(goodsId)!;
    const read = toPriceEntry(known, goodsFigures, liquidity.get(goodsId) ?? 0, builtAt);
    // Figures the snapshot holds already keep the time they were found, as an update keeps them.
    const held = snapshot.entries.get(goodsId);
    entries.set(goodsId, held && sameEntry(held, read) ? held : read);
  }
  return { ...snapshot, builtAt, entries, liquidity };
}

/** `liquidity` with the ranks of `goodsIds` read from the database now (its primary key). */
async function readGoodsRanks(
  ctx: DomainContext,
  liquidity: ReadonlyMap<number, number>,
  goodsIds: readonly number[],
): Promise<Map<number, number>> {
  const rows = await ctx.db
    .selectFrom("liquidity_ranks")
    .select(["goods_id", "rank_hundredths"])
    .where("goods_id", "in", goodsIds)
    .execute();
  const read = new Map<number, number>(liquidity);
  for (const goodsId of goodsIds) read.delete(goodsId);
  for (const row of rows) read.set(row.goods_id, row.rank_hundredths);
  return read;
}

/** Entries compared per turn of the event loop by `keepUnchangedEntries`. */
const COMPARED_PER_TURN = 2000;

/** Whether two entries hold the same goods, figures and rank, whenever each was found. */
export function sameEntry(a: PriceEntry, b: PriceEntry): boolean {
  return a === b || isDeepStrictEqual(a, a.foundAt === b.foundAt ? b : { ...b, foundAt: a.foundAt });
}

/**
 * What a whole build `built` should leave as the snapshot, given the one it replaces: `previous`
 * itself when both hold the same figures (its `builtAt` is the time they hold since, and its
 * prebuilt bytes and their ETag stay valid); else `built`, where each entry whose figures equal
 * `previous`' entry of that goods is replaced by that entry (the same object, with the time its
 * figures were found and what was serialized of it). The entries are compared a slice per turn
 * of the event loop: the whole market compared at once (tens of thousands of entries, deeply)
 * stalled it.
 */
export async function keepUnchangedEntries(
  previous: PriceSnapshot,
  built: PriceSnapshot,
): Promise<PriceSnapshot> {
  let differs =
    previous.catalog !== built.catalog ||
    previous.nextCooldownEnd?.getTime() !== built.nextCooldownEnd?.getTime() ||
    previous.entries.size !== built.entries.size ||
    !isDeepStrictEqual(previous.liquidity, built.liquidity);
  const theirs = previous.entries.entries();
  let compared = 0;
  for (const [goodsId, entry] of built.entries) {
    const other = theirs.next().value;
    // Both are in goods id order: the same goods in the same places, with the same figures.
    const inPlace = other !== undefined && other[0] === goodsId;
    if (!inPlace) differs = true;
    const held = inPlace ? other[1] : previous.entries.get(goodsId);
    // Setting a key the map holds keeps its place.
    if (held && sameEntry(held, entry)) built.entries.set(goodsId, held);
    else differs = true;
    if (++compared % COMPARED_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  return differs ? built : previous;
}

/**
 * Listings a snapshot build reads at a time (about) on the embedded database: each chunk's
 * queries keep to a range of goods ids, found by walking the listings' goods index, and the event
 * loop runs other work between chunks. The embedded database executes in this thread: the whole
 * market in one set of statements stalled it for 1.1-3.2 s. A PostgreSQL server runs the
 * statements elsewhere, so the server gives it larger chunks (fewer round trips).
 */
const EMBEDDED_LISTINGS_PER_CHUNK = 500;

/** Above every goods id: the last chunk reaches it, for goods with buy orders alone. */
const LAST_GOODS_ID = 2 ** 31 - 1;

/** Builds a snapshot of the whole market now: plain data, nothing serialized yet. */
export async function buildSnapshot(
  ctx: DomainContext,
  listingsPerChunk = EMBEDDED_LISTINGS_PER_CHUNK,
): Promise<PriceSnapshot> {
  const builtAt = ctx.clock.now();
  const catalog = await marketCatalog(ctx);
  const [liquidity, cooldown] = await Promise.all([readLiquidityRanks(ctx), nextCooldownEnd(ctx, builtAt)]);
  const entries = new Map<number, PriceEntry>();
  for (let from = 0; from < LAST_GOODS_ID;) {
    await new Promise((resolve) => setImmediate(resolve));
    const to = await chunkEnd(ctx, from, listingsPerChunk);
    const goodsRange = { from, to };
    const figures = await computeMarketFigures(ctx, catalog, { now: builtAt, goodsRange });
    for (const goodsId of [...figures.keys()].sort((a, b) => a - b)) {
      const goods = catalog.byId.get(goodsId);
      if (goods)
        entries.set(
          goodsId,
          toPriceEntry(goods, figures.get(goodsId)!, liquidity.get(goodsId) ?? 0, builtAt),
        );
    }
    from = to + 1;
  }
  return { builtAt, entries, catalog, liquidity, nextCooldownEnd: cooldown };
}

/** The last goods id of a chunk starting at `from`: about `listings` listings on sale on. */
async function chunkEnd(ctx: DomainContext, from: number, listings: number): Promise<number> {
  const boundary = await ctx.db
    .selectFrom("listings")
    .select("goods_id")
    .where("state", "=", sql.lit("ON_SALE"))
    .where("goods_id", ">=", from)
    .orderBy("goods_id")
    .offset(listings)
    .limit(1)
    .executeTakeFirst();
  return boundary?.goods_id ?? LAST_GOODS_ID;
}

function toPriceEntry(
  goods: MarketGoods,
  figures: GoodsFigures,
  liquidityRank: number,
  foundAt: Date,
): PriceEntry {
  return {
    goods_id: goods.goods_id,
    market_hash_name: goods.market_hash_name,
    name: goods.name,
    type: goods.type,
    ...figures,
    liquidityRank,
    foundAt,
  };
}

/**
 * The snapshot's entry of a goods, or an empty one (no listings, no buy orders) when it is off the
 * market, found so at the snapshot's time.
 */
export function entryOf(snapshot: PriceSnapshot, goods: MarketGoods): PriceEntry {
  return (
    snapshot.entries.get(goods.goods_id) ??
    toPriceEntry(
      goods,
      { whole: NO_FIGURES, intervals: [], variants: [] },
      snapshot.liquidity.get(goods.goods_id) ?? 0,
      snapshot.builtAt,
    )
  );
}

export function isStickerLike(entry: { type: string }): boolean {
  return STICKER_TYPES.has(entry.type);
}
