import type { Kysely } from "kysely";
import type { Database, GoodsTagRow } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";
import { fadePercentages, fadeTableKnown, hasPhases } from "./market-variants.ts";

/** What the price answers need of a goods: its names, its type, and what its variants are. */
export interface MarketGoods {
  goods_id: number;
  market_hash_name: string;
  name: string;
  type: string;
  paintwear_min: string | null;
  paintwear_max: string | null;
  paint_index: number | null;
  tags: GoodsTagRow[];
  /** A Doppler-style finish: its items differ by phase. */
  phased: boolean;
  /** A Fade-style finish: the fade percentage of each paint seed. */
  fade: Map<number, number> | undefined;
}

export interface MarketCatalog {
  checksum: string;
  byId: ReadonlyMap<number, MarketGoods>;
  byName: ReadonlyMap<string, MarketGoods>;
}

const EMPTY: MarketCatalog = { checksum: "", byId: new Map(), byName: new Map() };
const cached = new WeakMap<Kysely<Database>, MarketCatalog>();
/** Goods read per statement when the catalog is read again. */
const CATALOG_PAGE = 500;

/**
 * The catalog as the market's answers read it, kept in memory per database and read again only
 * when the loaded catalog file changed (its checksum): a snapshot of 20,000 goods then costs one
 * small query for the catalog instead of a goods query per build, and single-goods lookups by id or
 * name need no query at all.
 */
export async function marketCatalog(ctx: DomainContext): Promise<MarketCatalog> {
  const state = await ctx.db.selectFrom("catalog_state").select("checksum").executeTakeFirst();
  if (!state) return EMPTY;
  const known = cached.get(ctx.db);
  if (known?.checksum === state.checksum) return known;
  const byId = new Map<number, MarketGoods>();
  const byName = new Map<string, MarketGoods>();
  // Goods that carry the same tag share one object of it: 37,000 goods carry 270,000 tags of some
  // 800 kinds, and a copy per goods held 40 MB of the server's heap for as long as it ran
  // (docs/design/performance.md#a-quiet-server-and-its-memory). Nothing changes a tag once read.
  const tags = new Map<number, GoodsTagRow>();
  // A page at a time, other work between pages: the embedded database runs in this thread, and
  // the whole catalog in one result (37,000 goods with their tags) held it for a second under load
  // (docs/design/performance.md#a-quiet-server-and-its-memory).
  for (let after = -1; ;) {
    const rows = await ctx.db
      .selectFrom("goods")
      .select([
        "goods_id",
        "market_hash_name",
        "name",
        "type",
        "paintwear_min",
        "paintwear_max",
        "paint_index",
        "tags",
      ])
      .where("goods_id", ">", after)
      .orderBy("goods_id")
      .limit(CATALOG_PAGE)
      .execute();
    for (const row of rows) {
      // The fade tables of a page's Fade-style weapons together held the loop for 200-300 ms.
      const newFadeTable = !fadeTableKnown(row);
      const goods: MarketGoods = {
        ...row,
        tags: row.tags.map((tag) => sharedTag(tags, tag)),
        phased: hasPhases(row),
        fade: fadePercentages(row),
      };
      byId.set(goods.goods_id, goods);
      byName.set(goods.market_hash_name, goods);
      if (newFadeTable) await new Promise((resolve) => setImmediate(resolve));
    }
    if (rows.length < CATALOG_PAGE) break;
    after = rows[rows.length - 1]!.goods_id;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const catalog = { checksum: state.checksum, byId, byName };
  cached.set(ctx.db, catalog);
  return catalog;
}

function sharedTag(tags: Map<number, GoodsTagRow>, tag: GoodsTagRow): GoodsTagRow {
  const known = tags.get(tag.id);
  if (known) return known;
  tags.set(tag.id, tag);
  return tag;
}
