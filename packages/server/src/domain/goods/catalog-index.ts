import { BUYING_SORTS, CATALOG_SORTS } from "@skinmarket/contract";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import type { MarketChanges } from "../market/market-changes.ts";
import type { MarketGoods } from "../market/market-goods.ts";
import type { PriceSnapshot } from "../market/price-snapshot.ts";
import type { PriceSnapshots } from "../market/price-snapshots.ts";
import { Rebuilds } from "../market/rebuilds.ts";
import { catalogWords, type WordIndex } from "./goods-search.ts";

export type CatalogSort = (typeof CATALOG_SORTS)[number];
export type BuyingSort = (typeof BUYING_SORTS)[number];

/** One goods as the catalog page filters and sorts it. */
export interface CatalogEntry {
  goods: MarketGoods;
  /** Cheapest tradable listing in fen; null while there is none. */
  sellMin: number | null;
  sellNum: number;
  /** Completed trades, all time. */
  transacted: number;
  /** Best buy order of the public book in fen, and the units it still wants; null and 0 without. */
  buyMax: number | null;
  buyNum: number;
  /** The Chinese and English names as runs of letters and digits, for ranking the name search. */
  nameCompact: string;
  hashNameCompact: string;
}

/** Every goods of the catalog in each of the catalog's orders. */
export interface CatalogIndex {
  orders: ReadonlyMap<CatalogSort, readonly CatalogEntry[]>;
  /** The goods with buy orders in the public book, in each of the buying tab's orders. */
  buying: ReadonlyMap<BuyingSort, readonly CatalogEntry[]>;
  /** Every entry by its goods id (a user's bookmarks). */
  byId: ReadonlyMap<number, CatalogEntry>;
  /** The forgiving name search over every goods (docs/design/website-goods-routes.md#the-name-search). */
  search: WordIndex<MarketGoods>;
}

/**
 * The catalog page's filters and sorts over every goods (docs/design/website-goods-routes.md#the-websites-goods-pages), kept in memory
 * so that a page reads no aggregate of the listings or trades: the prices and counts come from
 * the price snapshot, the completed trades' counts from one grouped read of the trades. It is
 * built again when the snapshot changes, or when a change was counted since it was built and it is
 * at least `intervalMs` old (a completed trade moves no price but moves the trade counts).
 */
export class CatalogIndexes {
  readonly #snapshots: PriceSnapshots;
  readonly #changes: MarketChanges;
  readonly #intervalMs: number;
  #current: { index: CatalogIndex; snapshot: PriceSnapshot; version: number; builtAt: number } | undefined;
  readonly #rebuilds: Rebuilds<CatalogIndex>;

  /** `serveStale`: while a rebuild runs, answer from the index there is (as `PriceSnapshots`). */
  constructor(
    snapshots: PriceSnapshots,
    changes: MarketChanges,
    intervalMs: number,
    options: { serveStale?: boolean } = {},
  ) {
    this.#snapshots = snapshots;
    this.#changes = changes;
    this.#intervalMs = intervalMs;
    this.#rebuilds = new Rebuilds("catalog index", options.serveStale ?? false);
  }

  async current(ctx: DomainContext): Promise<CatalogIndex> {
    const snapshot = await this.#snapshots.current(ctx);
    const current = this.#current;
    const now = ctx.clock.now().getTime();
    if (
      current?.snapshot === snapshot &&
      (current.version === this.#changes.version || now - current.builtAt < this.#intervalMs)
    )
      return current.index;
    return this.#rebuilds.next(ctx, current?.index, () => this.#rebuild(ctx, snapshot, now));
  }

  async #rebuild(ctx: DomainContext, snapshot: PriceSnapshot, now: number): Promise<CatalogIndex> {
    const version = this.#changes.version;
    const index = await buildCatalogIndex(ctx, snapshot);
    this.#current = { index, snapshot, version, builtAt: now };
    return index;
  }
}

export async function buildCatalogIndex(ctx: DomainContext, snapshot: PriceSnapshot): Promise<CatalogIndex> {
  const traded = await ctx.db
    .selectFrom("trades")
    .select(["goods_id", sql<string>`count(*)`.as("n")])
    .where("state", "=", sql.lit("SUCCESS"))
    .groupBy("goods_id")
    .execute();
  const transacted = new Map(traded.map((row) => [row.goods_id, Number(row.n)]));
  const words = catalogWords(snapshot.catalog);
  const entries: CatalogEntry[] = [];
  for (const goods of snapshot.catalog.byId.values()) {
    const figures = snapshot.entries.get(goods.goods_id)?.whole;
    // The words were made from this very catalog: every goods has its names there.
    const names = words.compact.get(goods)!;
    entries.push({
      goods,
      sellMin: figures && figures.minPrice > 0 ? figures.minPrice : null,
      sellNum: figures?.sellNum ?? 0,
      transacted: transacted.get(goods.goods_id) ?? 0,
      buyMax: figures && figures.buyOrderNum > 0 ? figures.buyMaxPrice : null,
      buyNum: figures?.buyOrderNum ?? 0,
      nameCompact: names.name,
      hashNameCompact: names.hashName,
    });
  }
  // Every order ends with the newest goods (the highest id) first among equals.
  const newestFirst = (a: CatalogEntry, b: CatalogEntry) => b.goods.goods_id - a.goods.goods_id;
  // Goods without the price sorted on (no listing, or no buy order) come last.
  const byPrice =
    (price: (entry: CatalogEntry) => number | null, direction: 1 | -1) =>
    (a: CatalogEntry, b: CatalogEntry) => {
      const [left, right] = [price(a), price(b)];
      if (left === null || right === null) return left === right ? newestFirst(a, b) : left === null ? 1 : -1;
      return direction * (left - right) || newestFirst(a, b);
    };
  const compare: Record<CatalogSort, (a: CatalogEntry, b: CatalogEntry) => number> = {
    "sell_num.desc": (a, b) => b.sellNum - a.sellNum || newestFirst(a, b),
    "price.asc": byPrice((entry) => entry.sellMin, 1),
    "price.desc": byPrice((entry) => entry.sellMin, -1),
    "created.desc": newestFirst,
    "transacted_num.desc": (a, b) => b.transacted - a.transacted || newestFirst(a, b),
  };
  // The buying tab's price is the best buy order (docs/design/website-goods-routes.md#the-websites-market-data-routes).
  const compareBuying: Record<BuyingSort, (a: CatalogEntry, b: CatalogEntry) => number> = {
    ...compare,
    "buy_num.desc": (a, b) => b.buyNum - a.buyNum || newestFirst(a, b),
    "price.asc": byPrice((entry) => entry.buyMax, 1),
    "price.desc": byPrice((entry) => entry.buyMax, -1),
  };
  const wanted = entries.filter((entry) => entry.buyNum > 0);
  return {
    orders: new Map(CATALOG_SORTS.map((sort) => [sort, [...entries].sort(compare[sort])])),
    buying: new Map(BUYING_SORTS.map((sort) => [sort, [...wanted].sort(compareBuying[sort])])),
    byId: new Map(entries.map((entry) => [entry.goods.goods_id, entry])),
    search: words.index,
  };
}
