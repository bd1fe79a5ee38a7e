import { formatMoney } from "@skinmarket/contract";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { parsePriceRange } from "../market/price-range.ts";
import { ok } from "../result.ts";
import { LISTING_TAG_CATEGORIES, platformMarketUrl, tagObjects } from "./goods-tags.ts";
import { readMarketFigures } from "./market-figures.ts";

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
 * market. Sorting and filtering read one aggregate of the listings on sale and the completed
 * trades; each page's figures then come from the same per-goods reads as the goods page.
 */
export async function listCatalogGoods(ctx: DomainContext, query: CatalogQuery) {
  const range = parsePriceRange(query.minPrice, query.maxPrice);
  if (!range.ok) return range;
  const now = ctx.clock.now();
  let base = ctx.db
    .selectFrom("goods")
    .leftJoin(
      (eb) =>
        eb
          .selectFrom("listings")
          .select(["goods_id", sql<number>`min(price)`.as("sell_min"), sql<string>`count(*)`.as("sell_num")])
          .where("state", "=", sql.lit("ON_SALE"))
          .where((inner) =>
            inner.or([inner("tradable_after", "is", null), inner("tradable_after", "<=", now)]),
          )
          .groupBy("goods_id")
          .as("sells"),
      (join) => join.onRef("sells.goods_id", "=", "goods.goods_id"),
    )
    .leftJoin(
      (eb) =>
        eb
          .selectFrom("trades")
          .select(["goods_id", sql<string>`count(*)`.as("transacted")])
          .where("state", "=", sql.lit("SUCCESS"))
          .groupBy("goods_id")
          .as("done"),
      (join) => join.onRef("done.goods_id", "=", "goods.goods_id"),
    );
  if (query.search) {
    const pattern = `%${query.search.trim().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    base = base.where((eb) =>
      eb.or([eb("goods.name", "ilike", pattern), eb("goods.market_hash_name", "ilike", pattern)]),
    );
  }
  for (const category of TAG_FILTERS) {
    const value = query[category];
    if (value === undefined) continue;
    const wanted = JSON.stringify([{ category, internal_name: value }]);
    base = base.where(sql<boolean>`goods.tags @> ${wanted}::jsonb`);
  }
  if (range.value.min !== undefined) base = base.where("sells.sell_min", ">=", range.value.min);
  if (range.value.max !== undefined) base = base.where("sells.sell_min", "<=", range.value.max);
  const { total } = await base.select((eb) => eb.fn.countAll<string>().as("total")).executeTakeFirstOrThrow();
  let page = base.select([
    "goods.goods_id",
    "goods.market_hash_name",
    "goods.name",
    "goods.short_name",
    "goods.icon_url",
    "goods.tags",
  ]);
  switch (query.sortBy) {
    case "price.asc":
      page = page.orderBy("sells.sell_min", (order) => order.asc().nullsLast());
      break;
    case "price.desc":
      page = page.orderBy("sells.sell_min", (order) => order.desc().nullsLast());
      break;
    case "transacted_num.desc":
      page = page.orderBy(sql`coalesce(done.transacted, 0)`, "desc");
      break;
    case "sell_num.desc":
      page = page.orderBy(sql`coalesce(sells.sell_num, 0)`, "desc");
      break;
  }
  // Goods ids grow with the catalog: the newest goods have the highest ids, and ties end there.
  const rows = await page
    .orderBy("goods.goods_id", "desc")
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  const figures = await readMarketFigures(
    ctx,
    rows.map((row) => row.goods_id),
  );
  const totalCount = Number(total);
  return ok({
    items: rows.map((row) => {
      const market = figures.get(row.goods_id)!;
      return {
        id: row.goods_id,
        market_hash_name: row.market_hash_name,
        name: row.name,
        short_name: row.short_name,
        buy_max_price: formatMoney(market.buyMax),
        sell_min_price: formatMoney(market.sellMin),
        sell_reference_price: formatMoney(market.lastTradePrice),
        quick_price: formatMoney(market.buyMax),
        buy_num: market.buyNum,
        sell_num: market.sellNum,
        transacted_num: market.transactedNum,
        market_min_price: market.marketMin,
        platform_market_url: platformMarketUrl(row.market_hash_name),
        can_bargain: market.canBargain,
        goods_info: {
          icon_url: row.icon_url,
          original_icon_url: row.icon_url,
          platform_price: formatMoney(market.sellMin),
          platform_price_cny: formatMoney(market.sellMin),
          info: { tags: tagObjects(row.tags, LISTING_TAG_CATEGORIES) },
        },
      };
    }),
    page_num: query.pageNum,
    page_size: query.pageSize,
    total_count: totalCount,
    total_page: Math.ceil(totalCount / query.pageSize),
  });
}
