import { formatMoney, RECORD_GAME } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { fail, ok } from "../result.ts";
import { supportedSpecifics } from "../market/specific.ts";
import { bookmarkedIds, countGoodsBookmarks } from "./bookmarks.ts";
import { findGoods, unknownGoodsMessage, type GoodsRecord } from "./find-goods.ts";
import {
  EMPTY_MENU,
  fadeChoices,
  listingAssetTags,
  listingPaintseedFilters,
  paintwearChoices,
  sellOrderSortMenu,
} from "./goods-filters.ts";
import { platformMarketUrlFields, platformPriceCnyFields } from "../market/platform-names.ts";
import { canInspect, DETAIL_TAG_CATEGORIES, tagObjects } from "./goods-tags.ts";
import { phaseSpecificChoices } from "./goods-specific-choices.ts";
import { readMarketFigures } from "./goods-page-figures.ts";

/** Goods that take a name tag and a charm: weapons (knives take a name tag only). */
const NAME_TAG_TYPES = new Set(["weapon", "knife"]);

/**
 * The goods page (website route `goods/info`): the catalog's record, the live market and the
 * filters the other goods routes accept, so a page never offers a choice the service refuses
 * (docs/design/website-goods-routes.md#the-websites-market-data-routes). `bookmarked` is the viewer's.
 */
export async function readGoodsInfo(ctx: DomainContext, input: { goodsId: number; viewerId?: number }) {
  const goods = await findGoods(ctx, input.goodsId);
  if (!goods) return fail("Not Found", unknownGoodsMessage(input.goodsId));
  const related = await relatedGoods(ctx, goods);
  const [figuresById, bookmarked, userShowCount, specific] = await Promise.all([
    readMarketFigures(ctx, [goods.goods_id, ...related.map((entry) => entry.goods_id)]),
    bookmarkedIds(ctx, input.viewerId, "goods", [goods.goods_id]),
    countGoodsBookmarks(ctx, goods.goods_id),
    phaseSpecificChoices(ctx, goods),
  ]);
  const figures = figuresById.get(goods.goods_id)!;
  const specifics = supportedSpecifics(goods);
  const wearChoices = paintwearChoices(goods);
  const fades = fadeChoices(goods);
  const sortMenu = sellOrderSortMenu(goods);
  const shortName = goods.short_name;
  return ok({
    id: goods.goods_id,
    appid: 730,
    transacted_num: figures.transactedNum,
    user_show_count: userShowCount,
    recent_sold_count: figures.recentSoldCount,
    buy_num: figures.buyNum,
    sell_num: figures.sellNum,
    rent_num: 0,
    auction_num: 0,
    pre_sell_num: figures.preSellNum,
    game: RECORD_GAME,
    name: goods.name,
    short_name: shortName,
    super_short_name: shortName.includes(" | ") ? shortName.slice(shortName.indexOf(" | ") + 3) : shortName,
    market_hash_name: goods.market_hash_name,
    ...platformMarketUrlFields(goods.market_hash_name),
    container_type: goods.type === "container" ? "weaponcase" : "",
    buy_max_price: formatMoney(figures.buyMax),
    sell_min_price: formatMoney(figures.sellMin),
    sell_reference_price: formatMoney(figures.lastTradePrice),
    quick_price: formatMoney(figures.buyMax),
    market_min_price: formatMoney(figures.marketMin),
    pre_sell_min_price: formatMoney(figures.preSellMin),
    description: null,
    item_id: null,
    wiki_link: null,
    has_fade_name: fades.length > 0,
    can_buy: goods.is_standard,
    can_sort_by_heat: false,
    support_name_tag: NAME_TAG_TYPES.has(goods.type),
    support_charm: goods.type === "weapon",
    has_paintwear_rank: false,
    bookmarked: bookmarked.has(goods.goods_id),
    has_rune: false,
    has_overprint_name: false,
    is_container: goods.type === "container",
    has_related: related.length > 1,
    has_buff_price_history: figures.transactedNum > 0,
    allow_bundle_inventory: false,
    has_bundle_inventory_order: false,
    has_rent_order: false,
    is_charm: goods.type === "charm",
    show_game_cms_icon: false,
    paintwear_range:
      goods.paintwear_min === null || goods.paintwear_max === null
        ? []
        : [goods.paintwear_min, goods.paintwear_max],
    paintwear_choices: wearChoices,
    rent_day_choices: [],
    fade_choices: fades,
    containers: goods.tags
      .filter((tag) => tag.category === "weaponcase")
      .map((tag) => ({ internal_name: tag.internal_name, name: tag.localized_name })),
    asset_tags: listingAssetTags(goods),
    asset_tags_history: [],
    asset_tags_buy_order: [],
    paintseed_filters: listingPaintseedFilters(goods),
    paintseed_filters_history: [],
    paintseed_filters_buy_order: [],
    rank_types: [],
    relative_goods:
      related.length > 1
        ? related.map((entry) => {
            const other = figuresById.get(entry.goods_id)!;
            return {
              auction_num: 0,
              goods_id: entry.goods_id,
              goods_name: entry.name,
              is_change: entry.goods_id !== goods.goods_id,
              sell_min_price: formatMoney(other.sellMin),
              sell_num: other.sellNum,
              tag: entry.tag,
              tag_name: entry.tagName,
            };
          })
        : [],
    goods_info: {
      icon_url: goods.icon_url,
      original_icon_url: goods.icon_url,
      normal_icon_url: goods.icon_url,
      ...platformPriceCnyFields(figures.platformPrice),
      item_id: null,
      search_tag: null,
      info: { tags: tagObjects(goods.tags, DETAIL_TAG_CATEGORIES) },
      can_inspect: canInspect(goods.type),
      can_3d_inspect: false,
      can_display_inspect: false,
      can_preview: false,
      can_preview_upload: false,
      can_search_by_sticker: false,
      can_search_by_patch: false,
      can_search_by_tournament: false,
      can_specific_buy: specifics.size > 0,
      can_specific_paintwear_buy: specifics.has("paintwear"),
      can_specific_fade_buy: specifics.has("fade"),
      specific,
      specific_paintwear_buying_choices: specifics.has("paintwear") ? wearChoices : [],
      specific_fade_buying_ranges: fades,
      wear_rank_order_list: [],
    },
    deliver_deposit_filters: EMPTY_MENU,
    history_order_type_filters: EMPTY_MENU,
    sort_by_fields: sortMenu,
    rent_sort_by_fields: EMPTY_MENU,
    auction_sort_by_fields: EMPTY_MENU,
    pre_sell_sort_by_fields: sortMenu,
    share_data: {
      share_task_type: 0,
      content: goods.market_hash_name,
      thumbnail: goods.icon_url,
      title: goods.name,
      url: `/api/market/goods/info?game=csgo&goods_id=${goods.goods_id}`,
    },
    keychain_color_img: "",
  });
}

/**
 * The same skin in its other exteriors and qualities (one family: same short name and type),
 * the goods itself included; only skins with an exterior have a family.
 */
async function relatedGoods(ctx: DomainContext, goods: GoodsRecord) {
  if (goods.exterior === null) return [];
  const rows = await ctx.db
    .selectFrom("goods")
    .select(["goods_id", "name", "exterior", "quality", "tags"])
    .where("short_name", "=", goods.short_name)
    .where("type", "=", goods.type)
    .where("exterior", "is not", null)
    .orderBy("goods_id")
    .execute();
  return rows.map((row) => {
    const tags = tagObjects(row.tags, ["exterior", "quality"] as const);
    const exterior = tags.exterior?.localized_name ?? "";
    const quality = tags.quality;
    const plain = !quality || quality.internal_name === "normal";
    return {
      goods_id: row.goods_id,
      name: row.name,
      tag: `${quality?.internal_name ?? "normal"}.${row.exterior}`,
      tagName: plain ? exterior : `${quality.localized_name} ${exterior}`,
    };
  });
}
