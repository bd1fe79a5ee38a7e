import { isDeepStrictEqual } from "node:util";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import type { MarketChanges } from "./market-changes.ts";
import { Rebuilds } from "./rebuilds.ts";
import { computeMarketFigures, NO_FIGURES, type GoodsFigures } from "./market-figures.ts";
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
 * A snapshot older than this is rebuilt even without a counted change, for writes made behind the
 * service's back (docs/design.md section 4).
 */
const DEFAULT_MAX_AGE_MS = 60_000;

/**
 * The market's prices as of one moment (docs/design.md section 4): price answers are read from it
 * instead of the database. It is rebuilt on the next request once it is at least `intervalMs` old
 * and out of date: a change was counted since it was built (`MarketChanges`), a listing's trade
 * cooldown ended since, or it is `maxAgeMs` old (a minute; never on the embedded database, which
 * no other process writes). One rebuild runs at a time (`Rebuilds`): with
 * `serveStale` (a server: over a million listings a rebuild takes seconds, and no request should
 * wait for it) callers meanwhile get the snapshot there is; without (the tests, which need the
 * change they just made) they wait. A rebuild that finds the same figures keeps the snapshot it
 * had, with its `builtAt` (the time the figures hold since) and its prebuilt bytes, so its ETag
 * stays valid.
 */
export class PriceSnapshots {
  readonly #changes: MarketChanges;
  readonly #intervalMs: number;
  readonly #maxAgeMs: number;
  #current: { snapshot: PriceSnapshot; version: number; checkedAt: number } | undefined;
  readonly #rebuilds: Rebuilds<PriceSnapshot>;

  constructor(
    changes: MarketChanges,
    intervalMs = 1000,
    options: { serveStale?: boolean; maxAgeMs?: number } = {},
  ) {
    this.#changes = changes;
    this.#intervalMs = intervalMs;
    this.#maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
    this.#rebuilds = new Rebuilds("price snapshot", options.serveStale ?? false);
  }

  /** The snapshot to answer from: at once while it is up to date, else once rebuilt (or stale). */
  current(ctx: DomainContext): PriceSnapshot | Promise<PriceSnapshot> {
    const current = this.#current;
    if (current && !this.#outOfDate(current, ctx.clock.now().getTime())) return current.snapshot;
    return this.#rebuilds.next(ctx, current?.snapshot, () => this.#rebuild(ctx));
  }

  #outOfDate(current: { snapshot: PriceSnapshot; version: number; checkedAt: number }, now: number): boolean {
    const age = now - current.checkedAt;
    if (age < this.#intervalMs) return false;
    const cooldownEnded =
      current.snapshot.nextCooldownEnd !== null && now >= current.snapshot.nextCooldownEnd.getTime();
    return current.version !== this.#changes.version || cooldownEnded || age >= this.#maxAgeMs;
  }

  async #rebuild(ctx: DomainContext): Promise<PriceSnapshot> {
    // Changes counted from here on may be missing from this build: they leave it out of date.
    const version = this.#changes.version;
    const built = await buildSnapshot(ctx);
    const previous = this.#current?.snapshot;
    const snapshot = previous && sameFigures(previous, built) ? previous : built;
    this.#current = { snapshot, version, checkedAt: built.builtAt.getTime() };
    return snapshot;
  }
}

function sameFigures(a: PriceSnapshot, b: PriceSnapshot): boolean {
  return (
    a.catalog === b.catalog &&
    a.nextCooldownEnd?.getTime() === b.nextCooldownEnd?.getTime() &&
    isDeepStrictEqual(a.liquidity, b.liquidity) &&
    isDeepStrictEqual(a.entries, b.entries)
  );
}

/** Builds a snapshot of the whole market now: plain data, nothing serialized yet. */
export async function buildSnapshot(ctx: DomainContext): Promise<PriceSnapshot> {
  const builtAt = ctx.clock.now();
  const catalog = await marketCatalog(ctx);
  const [figures, ranks, cooldown] = await Promise.all([
    computeMarketFigures(ctx, catalog, { now: builtAt }),
    ctx.db.selectFrom("liquidity_ranks").select(["goods_id", "rank_hundredths"]).execute(),
    ctx.db
      .selectFrom("listings")
      .select((eb) => eb.fn.min("tradable_after").as("next"))
      .where("state", "=", sql.lit("ON_SALE"))
      .where("tradable_after", ">", builtAt)
      .executeTakeFirst(),
  ]);
  const liquidity = new Map(ranks.map((row) => [row.goods_id, row.rank_hundredths]));
  const entries = new Map<number, PriceEntry>();
  for (const goodsId of [...figures.keys()].sort((a, b) => a - b)) {
    const goods = catalog.byId.get(goodsId);
    if (goods) entries.set(goodsId, toPriceEntry(goods, figures.get(goodsId)!, liquidity.get(goodsId) ?? 0));
  }
  return { builtAt, entries, catalog, liquidity, nextCooldownEnd: cooldown?.next ?? null };
}

function toPriceEntry(goods: MarketGoods, figures: GoodsFigures, liquidityRank: number): PriceEntry {
  return {
    goods_id: goods.goods_id,
    market_hash_name: goods.market_hash_name,
    name: goods.name,
    type: goods.type,
    ...figures,
    liquidityRank,
  };
}

/** The snapshot's entry of a goods, or an empty one (no listings, no buy orders) when it is off the market. */
export function entryOf(snapshot: PriceSnapshot, goods: MarketGoods): PriceEntry {
  return (
    snapshot.entries.get(goods.goods_id) ??
    toPriceEntry(
      goods,
      { whole: NO_FIGURES, intervals: [], variants: [] },
      snapshot.liquidity.get(goods.goods_id) ?? 0,
    )
  );
}

export function isStickerLike(entry: { type: string }): boolean {
  return STICKER_TYPES.has(entry.type);
}
