import { sql, type Expression, type SqlBool } from "kysely";
import type { DomainContext } from "../context.ts";
import { invalidArgument, ok, type Result } from "../result.ts";
import type { CatalogIndex } from "./catalog-index.ts";
import { matchCatalog } from "./search-catalog.ts";

/**
 * The catalog's listing filters (docs/design/website-goods-routes.md#the-catalogs-listing-filters):
 * a goods stays when one of its listings on sale (in trade cooldown too, as the goods page lists
 * them) has a wear within `[minPaintwear, maxPaintwear]`, the paint seed, and a sticker the
 * `sticker` text finds by name; all the given filters hold for the same listing.
 */
export interface CatalogListingFilters {
  minPaintwear?: number;
  maxPaintwear?: number;
  paintseed?: number;
  sticker?: string;
}

/** The stickers (and patches) one text may name: the closest this many of those it finds. */
const STICKER_KITS_MAX = 50;
const STICKERED = new Set(["sticker", "patch"]);

/** The goods ids the filters keep; undefined when no filter is given (every goods stays). */
export async function goodsWithListingsMatching(
  ctx: DomainContext,
  catalog: CatalogIndex,
  filters: CatalogListingFilters,
): Promise<Result<ReadonlySet<number> | undefined>> {
  const { minPaintwear, maxPaintwear, paintseed, sticker } = filters;
  if (
    minPaintwear === undefined &&
    maxPaintwear === undefined &&
    paintseed === undefined &&
    sticker === undefined
  )
    return ok(undefined);
  if (minPaintwear !== undefined && maxPaintwear !== undefined && minPaintwear > maxPaintwear)
    return invalidArgument("min_paintwear", "must not be greater than max_paintwear");
  let kits: number[] | undefined;
  if (sticker !== undefined) {
    const resolved = await stickerKits(ctx, catalog, sticker);
    if (!resolved.ok) return resolved;
    kits = resolved.value;
  }
  let query = ctx.db
    .selectFrom("listings")
    .where("listings.state", "=", sql.lit("ON_SALE"))
    .select("listings.goods_id")
    .distinct();
  if (minPaintwear !== undefined)
    query = query.where(sql<SqlBool>`listings.paintwear >= ${String(minPaintwear)}`);
  if (maxPaintwear !== undefined)
    query = query.where(sql<SqlBool>`listings.paintwear <= ${String(maxPaintwear)}`);
  if (paintseed !== undefined) query = query.where("listings.paintseed", "=", paintseed);
  if (kits !== undefined) {
    const terms: Expression<SqlBool>[] = kits.map(
      (kit) =>
        sql<SqlBool>`(listings.asset -> 'info' -> 'stickers') @> ${JSON.stringify([{ sticker_id: kit }])}::jsonb`,
    );
    query = query.where((eb) => eb.or(terms));
  }
  const rows = await query.execute();
  return ok(new Set(rows.map((row) => row.goods_id)));
}

/**
 * The game's kit ids of the stickers and patches a text finds by name (the catalog's name
 * search), closest first; a text that finds none is refused naming `sticker`, since an empty
 * catalog would not say that the sticker was not recognised.
 */
async function stickerKits(
  ctx: DomainContext,
  catalog: CatalogIndex,
  text: string,
): Promise<Result<number[]>> {
  const matches = matchCatalog(catalog, text);
  if (matches === undefined)
    return invalidArgument("sticker", "needs a letter or a digit of a sticker's name");
  const ids = matches
    .filter((match) => STICKERED.has(match.entry.goods.type))
    .sort((a, b) => a.tier - b.tier || b.entry.transacted - a.entry.transacted)
    .slice(0, STICKER_KITS_MAX)
    .map((match) => match.entry.goods.goods_id);
  const rows =
    ids.length === 0
      ? []
      : await ctx.db
          .selectFrom("goods")
          .select("game_index")
          .where("goods_id", "in", ids)
          .where("game_index", "is not", null)
          .execute();
  if (rows.length === 0)
    return invalidArgument("sticker", `no sticker or patch is named like ${JSON.stringify(text)}`);
  return ok([...new Set(rows.map((row) => row.game_index!))]);
}
