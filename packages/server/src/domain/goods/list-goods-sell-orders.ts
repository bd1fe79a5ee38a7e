import { formatMoney, parseMoney, RECORD_GAME } from "@skinmarket/contract";
import { sql } from "kysely";
import type { SpecificRow } from "../../storage/schema.ts";
import { readUserInfos } from "../users/read-user-infos.ts";
import { listingMeets } from "../market/listing-meets.ts";
import { specificFilter, supportedSpecifics, type SpecificFilter } from "../market/specific.ts";
import { phaseTagsOf } from "../catalog/phases.ts";
import type { DomainContext } from "../context.ts";
import { readListingFigures } from "./listing-figures.ts";
import { platformPriceCnyFields } from "../market/platform-names.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { bookmarkedIds } from "./bookmarks.ts";
import { findGoods, unknownGoodsMessage, type GoodsRecord } from "./find-goods.ts";
import { canInspect, LISTING_TAG_CATEGORIES, tagObjects } from "./goods-tags.ts";
import { readMarketFigures, type MarketFigures } from "./goods-page-figures.ts";
import { readSellersWithShops } from "./seller-shops.ts";
import { meetsStickerSearch, parseStickerSearch } from "./sticker-search.ts";
import { toWebListing } from "./web-listing.ts";

export interface GoodsSellOrdersQuery {
  goodsId: number;
  pageNum: number;
  pageSize: number;
  sortBy: string;
  /** `1`: the seller sends the trade offer; `2`: the buyer does. */
  mode?: string;
  /** Whether listings of items still in trade cooldown (pre-sell) are shown. */
  allowTradableCooldown: boolean;
  minPaintwear?: number;
  maxPaintwear?: number;
  paintseed?: number;
  tagId?: number;
  minFade?: number;
  maxFade?: number;
  /** The sticker search (`sticker-search.ts`). */
  extraTagIds?: string;
  wearlessSticker?: number;
  /** Money strings, inclusive. */
  minPrice?: string;
  maxPrice?: string;
  /** Filters of the real website this marketplace does not have, by parameter name: refused. */
  unsupportedFilters?: string[];
  viewerId?: number;
}

/**
 * The listings of one goods (website route `goods/sell_order`), filtered by the choices its goods
 * page offers, which are the buy orders' `specific` constraints (docs/design/website-account-and-selling-routes.md#the-websites-session-and-account-routes), and
 * sorted and paged in SQL.
 */
export async function listGoodsSellOrders(ctx: DomainContext, query: GoodsSellOrdersQuery) {
  const goods = await findGoods(ctx, query.goodsId);
  if (!goods) return fail("Not Found", unknownGoodsMessage(query.goodsId));
  const [unsupported] = query.unsupportedFilters ?? [];
  if (unsupported !== undefined)
    return invalidArgument(unsupported, "this filter is not offered here; leave it out");
  const filter = parseFilters(query, goods);
  if (!filter.ok) return filter;
  const prices = parsePriceRange(query);
  if (!prices.ok) return prices;
  const stickers = await parseStickerSearch(ctx, goods, query.extraTagIds, query.wearlessSticker);
  if (!stickers.ok) return stickers;
  const now = ctx.clock.now();
  let base = ctx.db
    .selectFrom("listings")
    .where("listings.goods_id", "=", goods.goods_id)
    .where("listings.state", "=", sql.lit("ON_SALE"))
    // A page's max_paintwear includes the value itself.
    .where((eb) => listingMeets(eb, filter.value, "closed"));
  if (!query.allowTradableCooldown)
    base = base.where((eb) => eb.or([eb("tradable_after", "is", null), eb("tradable_after", "<=", now)]));
  if (query.mode) base = base.where("force_buyer_send_offer", "=", query.mode === "2");
  if (prices.value.min !== undefined) base = base.where("price", ">=", prices.value.min);
  if (prices.value.max !== undefined) base = base.where("price", "<=", prices.value.max);
  const search = stickers.value;
  if (search) base = base.where(() => meetsStickerSearch(search));
  const { total } = await base.select((eb) => eb.fn.countAll<string>().as("total")).executeTakeFirstOrThrow();
  const [field, direction] = (query.sortBy === "default" ? "price.asc" : query.sortBy).split(".") as [
    string,
    "asc" | "desc",
  ];
  const column = field === "price" ? sql`price` : field === "created" ? sql`created_at` : sql`paintwear`;
  const rows = await base
    .selectAll("listings")
    .orderBy(column, (order) => (direction === "asc" ? order.asc() : order.desc()).nullsLast())
    .orderBy("listings.listing_id", direction)
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  const sellerIds = rows.map((row) => row.user_id);
  const [figures, userInfos, shops, listingFigures, bookmarks] = await Promise.all([
    readMarketFigures(ctx, [goods.goods_id]),
    readUserInfos(ctx, sellerIds),
    readSellersWithShops(ctx, sellerIds, goods.goods_id),
    readListingFigures(ctx, rows),
    bookmarkedIds(
      ctx,
      query.viewerId,
      "sell_order",
      rows.map((row) => row.listing_id),
    ),
  ]);
  const totalCount = Number(total);
  return ok({
    goods_infos: { [String(goods.goods_id)]: toWebGoodsInfo(goods, figures.get(goods.goods_id)!) },
    has_market_stores: Object.fromEntries(
      [...new Set(sellerIds)].map((sellerId) => [String(sellerId), shops.has(sellerId)]),
    ),
    items: rows.map((row) =>
      toWebListing(row, {
        goods,
        now,
        viewerId: query.viewerId,
        bookmarked: bookmarks.has(row.listing_id),
        figures: listingFigures.get(row.listing_id)!,
      }),
    ),
    page_num: query.pageNum,
    page_size: query.pageSize,
    sort_by: query.sortBy,
    total_count: totalCount,
    total_page: Math.ceil(totalCount / query.pageSize),
    user_infos: userInfos,
  });
}

/** `min_price`/`max_price` in fen, both inclusive. */
function parsePriceRange(query: GoodsSellOrdersQuery): Result<{ min?: number; max?: number }> {
  const range: { min?: number; max?: number } = {};
  for (const [field, value, key] of [
    ["min_price", query.minPrice, "min"],
    ["max_price", query.maxPrice, "max"],
  ] as const) {
    if (value === undefined || value === "") continue;
    const parsed = parseMoney(value);
    if (!parsed.ok) return invalidArgument(field, parsed.reason);
    range[key] = parsed.fen;
  }
  if (range.min !== undefined && range.max !== undefined && range.min > range.max)
    return invalidArgument("min_price", "must not be greater than max_price");
  return ok(range);
}

/** The page's filters as buy-order constraints, refused where the goods' items cannot meet them. */
function parseFilters(query: GoodsSellOrdersQuery, goods: GoodsRecord): Result<SpecificFilter> {
  const supported = supportedSpecifics(goods);
  const rows: SpecificRow[] = [];
  if (query.minPaintwear !== undefined || query.maxPaintwear !== undefined) {
    const field = query.minPaintwear !== undefined ? "min_paintwear" : "max_paintwear";
    if (!supported.has("paintwear")) return invalidArgument(field, `${goods.market_hash_name} has no wear`);
    const min = query.minPaintwear ?? 0;
    const max = query.maxPaintwear ?? 1;
    if (min > max) return invalidArgument("min_paintwear", "must not be greater than max_paintwear");
    rows.push({ type: "paintwear", values: [String(min), String(max)] });
  }
  if (query.paintseed !== undefined) {
    if (!supported.has("paintseed"))
      return invalidArgument("paintseed", `${goods.market_hash_name} has no pattern`);
    rows.push({ type: "paintseed", values: [String(query.paintseed)] });
  }
  if (query.tagId !== undefined) {
    const phases = phaseTagsOf(goods);
    const phase = phases.find((tag) => tag.id === query.tagId);
    if (!phase)
      return invalidArgument(
        "tag_ids",
        phases.length === 0
          ? `${goods.market_hash_name} has no phases`
          : `must be a phase of this goods: ${phases.map((tag) => tag.id).join(", ")}`,
      );
    rows.push({ type: "phase", values: [phase.internal_name] });
  }
  if (query.minFade !== undefined || query.maxFade !== undefined) {
    const field = query.minFade !== undefined ? "min_fade" : "max_fade";
    if (!supported.has("fade")) return invalidArgument(field, `${goods.market_hash_name} has no fade`);
    const min = query.minFade ?? 80;
    const max = query.maxFade ?? 100;
    if (min > max) return invalidArgument("min_fade", "must not be greater than max_fade");
    rows.push({ type: "fade", values: [String(min), String(max)] });
  }
  return ok(specificFilter(rows, goods));
}

/** A goods as the listings page's `goods_infos` shows it. */
export function toWebGoodsInfo(goods: GoodsRecord, figures: MarketFigures) {
  return {
    appid: 730,
    game: RECORD_GAME,
    goods_id: goods.goods_id,
    name: goods.name,
    short_name: goods.short_name,
    market_hash_name: goods.market_hash_name,
    icon_url: goods.icon_url,
    original_icon_url: goods.icon_url,
    ...platformPriceCnyFields(figures.platformPrice),
    sell_min_price: formatMoney(figures.sellMin),
    sell_reference_price: formatMoney(figures.lastTradePrice),
    market_min_price: formatMoney(figures.marketMin),
    can_inspect: canInspect(goods.type),
    can_3d_inspect: false,
    is_charm: goods.type === "charm",
    description: null,
    item_id: null,
    keychain_color_img: "",
    tags: tagObjects(goods.tags, LISTING_TAG_CATEGORIES),
  };
}
