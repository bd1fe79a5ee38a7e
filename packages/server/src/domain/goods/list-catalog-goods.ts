import { formatMoney } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { parsePriceRange } from "../market/price-range.ts";
import { ok } from "../result.ts";
import type { CatalogIndex, CatalogSort } from "./catalog-index.ts";
import { LISTING_TAG_CATEGORIES, platformMarketUrl, tagObjects } from "./goods-tags.ts";
import { readMarketFigures } from "./goods-page-figures.ts";

/** Tag filters of the catalog: the query field and the tag category it matches. */
const TAG_FILTERS = ["category", "category_group", "exterior", "quality", "rarity"] as const;

export interface CatalogQuery {
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
  sortBy: string;
}

/**
 * The catalog page (website route `GET /api/market/goods`, docs/design.md section 8): every goods
 * of the catalog, found by name (Chinese or English), tags and lowest price, sorted by the live
 * market. Filters and sorts run over the in-memory catalog index (prices as of the price
 * snapshot); each page's figures then come from the same per-goods reads as the goods page.
 */
export async function listCatalogGoods(ctx: DomainContext, catalog: CatalogIndex, query: CatalogQuery) {
  const range = parsePriceRange(query.minPrice, query.maxPrice);
  if (!range.ok) return range;
  const search = query.search?.trim().toLowerCase();
  const tags = TAG_FILTERS.flatMap((category) => {
    const value = query[category];
    return value === undefined ? [] : [{ category, value }];
  });
  const { min, max } = range.value;
  const order = catalog.orders.get(query.sortBy as CatalogSort) ?? catalog.orders.get("sell_num.desc")!;
  const matching = order.filter(
    (entry) =>
      (!search || entry.names.includes(search)) &&
      tags.every(({ category, value }) =>
        entry.goods.tags.some((tag) => tag.category === category && tag.internal_name === value),
      ) &&
      (min === undefined || (entry.sellMin !== null && entry.sellMin >= min)) &&
      (max === undefined || (entry.sellMin !== null && entry.sellMin <= max)),
  );
  const offset = (query.pageNum - 1) * query.pageSize;
  const page = matching.slice(offset, offset + query.pageSize).map((entry) => entry.goods);
  const ids = page.map((goods) => goods.goods_id);
  // Names and tags are in the in-memory catalog; the short name and the icon are not.
  const [shown, figures] = await Promise.all([
    ids.length === 0
      ? []
      : ctx.db
          .selectFrom("goods")
          .select(["goods_id", "short_name", "icon_url"])
          .where("goods_id", "in", ids)
          .execute(),
    readMarketFigures(ctx, ids),
  ]);
  const display = new Map(shown.map((row) => [row.goods_id, row]));
  const totalCount = matching.length;
  return ok({
    items: page.map((goods) => {
      const market = figures.get(goods.goods_id)!;
      const { short_name, icon_url } = display.get(goods.goods_id)!;
      return {
        id: goods.goods_id,
        market_hash_name: goods.market_hash_name,
        name: goods.name,
        short_name,
        buy_max_price: formatMoney(market.buyMax),
        sell_min_price: formatMoney(market.sellMin),
        sell_reference_price: formatMoney(market.lastTradePrice),
        quick_price: formatMoney(market.buyMax),
        buy_num: market.buyNum,
        sell_num: market.sellNum,
        transacted_num: market.transactedNum,
        market_min_price: market.marketMin,
        platform_market_url: platformMarketUrl(goods.market_hash_name),
        can_bargain: market.canBargain,
        goods_info: {
          icon_url,
          original_icon_url: icon_url,
          platform_price: formatMoney(market.sellMin),
          platform_price_cny: formatMoney(market.sellMin),
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
