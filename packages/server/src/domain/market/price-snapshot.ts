import { isDeepStrictEqual } from "node:util";
import { NO_FIGURES, type GoodsFigures } from "./market-figures.ts";
import type { MarketCatalog, MarketGoods } from "./market-goods.ts";

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
  /**
   * Every goods with a listing on sale or a buy order in the public book, by goods id, in id
   * order. Never written once the snapshot is published: an update makes new entries that share
   * this snapshot's (`SnapshotEntries`).
   */
  entries: ReadonlyMap<number, PriceEntry>;
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

/** Whether two entries hold the same goods, figures and rank, whenever each was found. */
export function sameEntry(a: PriceEntry, b: PriceEntry): boolean {
  return a === b || isDeepStrictEqual(a, a.foundAt === b.foundAt ? b : { ...b, foundAt: a.foundAt });
}

/** The entry of `goods` with the figures and rank found at `foundAt`. */
export function toPriceEntry(
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
