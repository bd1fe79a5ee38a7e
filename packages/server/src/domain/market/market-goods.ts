import { createHash } from "node:crypto";
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
/** Goods read per statement, and made per turn of the event loop, when the catalog is read again. */
const CATALOG_PAGE = 500;

/** The goods columns the market reads; part of a saved read's key, as they are its shape. */
const GOODS_COLUMNS = [
  "goods_id",
  "market_hash_name",
  "name",
  "type",
  "paintwear_min",
  "paintwear_max",
  "paint_index",
  "tags",
] as const;
type GoodsRow = Omit<MarketGoods, "phased" | "fade">;

/**
 * The catalog as the market's answers read it, kept in memory per database and read again only
 * when the loaded catalog file changed (its checksum): a snapshot of 20,000 goods then costs one
 * small query for the catalog instead of a goods query per build, and single-goods lookups by id or
 * name need no query at all. The goods' rows are also saved for the next process
 * (`ctx.savedReads`), under a key naming this load of this catalog file into this database
 * (docs/design/architecture.md#the-catalogs-read-is-saved): a process that finds them reads no goods.
 */
export async function marketCatalog(ctx: DomainContext): Promise<MarketCatalog> {
  const state = await ctx.db.selectFrom("catalog_state").select(["checksum", "loaded_at"]).executeTakeFirst();
  if (!state) return EMPTY;
  const known = cached.get(ctx.db);
  if (known?.checksum === state.checksum) return known;
  const key = savedReadKey(state.checksum, state.loaded_at);
  const saved = await ctx.savedReads?.load(SAVED_READ_KIND, key);
  const rows = Array.isArray(saved) ? (saved as GoodsRow[]) : await readGoodsRows(ctx);
  if (!Array.isArray(saved)) await ctx.savedReads?.save(SAVED_READ_KIND, key, rows);
  const byId = new Map<number, MarketGoods>();
  const byName = new Map<string, MarketGoods>();
  for (const [position, row] of rows.entries()) {
    // The fade tables of a page's Fade-style weapons together held the loop for 200-300 ms.
    const newFadeTable = !fadeTableKnown(row);
    const goods: MarketGoods = { ...row, phased: hasPhases(row), fade: fadePercentages(row) };
    byId.set(goods.goods_id, goods);
    byName.set(goods.market_hash_name, goods);
    if (newFadeTable || (position + 1) % CATALOG_PAGE === 0)
      await new Promise((resolve) => setImmediate(resolve));
  }
  const catalog = { checksum: state.checksum, byId, byName };
  cached.set(ctx.db, catalog);
  return catalog;
}

const SAVED_READ_KIND = "catalog-goods";

/**
 * The goods table holds what every catalog load wrote (goods are never deleted), so the checksum
 * of the file loaded last does not name its rows alone: the time of that load in this database
 * (copied with it, as a template's copies hold the same rows) does. The columns read are the
 * saved rows' shape.
 */
function savedReadKey(checksum: string, loadedAt: Date): string {
  return createHash("sha256")
    .update(JSON.stringify([checksum, loadedAt.toISOString(), GOODS_COLUMNS]))
    .digest("hex")
    .slice(0, 32);
}

/** Every goods' row in id order, goods that carry the same tag sharing one object of it. */
async function readGoodsRows(ctx: DomainContext): Promise<GoodsRow[]> {
  const all: GoodsRow[] = [];
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
      .select(GOODS_COLUMNS)
      .where("goods_id", ">", after)
      .orderBy("goods_id")
      .limit(CATALOG_PAGE)
      .execute();
    for (const row of rows) all.push({ ...row, tags: row.tags.map((tag) => sharedTag(tags, tag)) });
    if (rows.length < CATALOG_PAGE) break;
    after = rows[rows.length - 1]!.goods_id;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return all;
}

function sharedTag(tags: Map<number, GoodsTagRow>, tag: GoodsTagRow): GoodsTagRow {
  const known = tags.get(tag.id);
  if (known) return known;
  tags.set(tag.id, tag);
  return tag;
}
