import { formatMoney, RECORD_GAME } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { platformMarketUrlFields, platformPriceCnyFields } from "../market/platform-names.ts";
import { parsePriceRange } from "../market/price-range.ts";
import { bookmarkedIds } from "./bookmarks.ts";
import { ok } from "../result.ts";
import type { CatalogEntry, CatalogIndex, CatalogSort } from "./catalog-index.ts";
import { LISTING_TAG_CATEGORIES, tagObjects } from "./goods-tags.ts";
import { readMarketFigures } from "./goods-page-figures.ts";
import { searchOrder } from "./search-catalog.ts";
import { goodsWithListingsMatching, type CatalogListingFilters } from "./catalog-listing-filters.ts";

/** Tag filters of the catalog: the query field and the tag category it matches. */
const TAG_FILTERS = ["category", "category_group", "exterior", "quality", "rarity"] as const;

export interface CatalogQuery {
  /** The signed-in viewer, whose bookmarks the page shows. */
  viewerId?: number;
  pageNum: number;
  pageSize: number;
  search?: string;
  category?: string;
  category_group?: string;
  exterior?: string;
  quality?: string;
  rarity?: string;
  minPrice?: unknown;
  maxPrice?: unknown;
  /** The catalog's listing filters (wear, paint seed, sticker): the goods some listing on sale meets. */
  listings?: CatalogListingFilters;
  sortBy: string;
}

/**
 * The catalog page (website route `GET /api/market/goods`, docs/design/website-goods-routes.md#the-websites-goods-pages): every goods
 * of the catalog, found by name (Chinese or English), tags and lowest price, sorted by the live
 * market. Filters and sorts run over the in-memory catalog index (prices as of the price
 * snapshot), the listing filters over the listings on sale (`catalog-listing-filters.ts`); each
 * page's figures then come from the same per-goods reads as the goods page. The price range is
 * checked before the listings are read.
 */
export async function listCatalogGoods(ctx: DomainContext, catalog: CatalogIndex, query: CatalogQuery) {
  const sort = catalog.orders.has(query.sortBy as CatalogSort)
    ? (query.sortBy as CatalogSort)
    : "sell_num.desc";
  const range = parsePriceRange(query.minPrice, query.maxPrice);
  if (!range.ok) return range;
  const kept = await goodsWithListingsMatching(ctx, catalog, query.listings ?? {});
  if (!kept.ok) return kept;
  const goodsIds = kept.value;
  const searched = searchOrder(catalog, catalog.orders.get(sort)!, query.search, sort === "sell_num.desc");
  const order = goodsIds ? searched.filter((entry) => goodsIds.has(entry.goods.goods_id)) : searched;
  return catalogPage(ctx, order, query, (entry) => entry.sellMin);
}

/**
 * One page of catalog items out of `order` (already searched by name: `searchOrder`), filtered by tags and a price range over
 * `priceOf` (the lowest listing on the catalog, the best buy order on the buying tab; goods
 * without that price drop out of a range).
 */
export async function catalogPage(
  ctx: DomainContext,
  order: readonly CatalogEntry[],
  query: CatalogQuery,
  priceOf: (entry: CatalogEntry) => number | null,
) {
  const range = parsePriceRange(query.minPrice, query.maxPrice);
  if (!range.ok) return range;
  const tags = TAG_FILTERS.flatMap((category) => {
    const value = query[category];
    return value === undefined ? [] : [{ category, value }];
  });
  const { min, max } = range.value;
  const matching = order.filter((entry) => {
    const price = priceOf(entry);
    return (
      tags.every(({ category, value }) =>
        entry.goods.tags.some((tag) => tag.category === category && tag.internal_name === value),
      ) &&
      (min === undefined || (price !== null && price >= min)) &&
      (max === undefined || (price !== null && price <= max))
    );
  });
  const offset = (query.pageNum - 1) * query.pageSize;
  const page = matching.slice(offset, offset + query.pageSize).map((entry) => entry.goods);
  const ids = page.map((goods) => goods.goods_id);
  // Names and tags are in the in-memory catalog; the short name and the icon are not.
  const [shown, figures, bookmarked] = await Promise.all([
    ids.length === 0
      ? []
      : ctx.db
          .selectFrom("goods")
          .select(["goods_id", "short_name", "icon_url"])
          .where("goods_id", "in", ids)
          .execute(),
    readMarketFigures(ctx, ids),
    bookmarkedIds(ctx, query.viewerId, "goods", ids),
  ]);
  const display = new Map(shown.map((row) => [row.goods_id, row]));
  const totalCount = matching.length;
  return ok({
    items: page.map((goods) => {
      const market = figures.get(goods.goods_id)!;
      const { short_name, icon_url } = display.get(goods.goods_id)!;
      return {
        id: goods.goods_id,
        appid: 730,
        game: RECORD_GAME,
        market_hash_name: goods.market_hash_name,
        name: goods.name,
        short_name,
        description: null,
        buy_max_price: formatMoney(market.buyMax),
        sell_min_price: formatMoney(market.sellMin),
        sell_reference_price: formatMoney(market.lastTradePrice),
        quick_price: formatMoney(market.buyMax),
        buy_num: market.buyNum,
        sell_num: market.sellNum,
        transacted_num: market.transactedNum,
        market_min_price: formatMoney(market.marketMin),
        ...platformMarketUrlFields(goods.market_hash_name),
        can_bargain: market.canBargain,
        bookmarked: bookmarked.has(goods.goods_id),
        // The goods page's rules for the same two flags (read-goods-info.ts): a price history
        // exists once a trade completed; no route filters by tournament.
        has_buff_price_history: market.transactedNum > 0,
        can_search_by_tournament: false,
        goods_info: {
          icon_url,
          original_icon_url: icon_url,
          item_id: null,
          ...platformPriceCnyFields(market.platformPrice),
          info: { tags: tagObjects(goods.tags, LISTING_TAG_CATEGORIES) },
        },
      };
    }),
    page_num: query.pageNum,
    page_size: query.pageSize,
    total_count: totalCount,
    total_page: Math.ceil(totalCount / query.pageSize),
  });
}
