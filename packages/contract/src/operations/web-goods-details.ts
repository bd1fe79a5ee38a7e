import { Type } from "typebox";
import { Cs2Game, GoodsId, MoneyString, RecordGame, StrictObject } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { PlatformMarketUrlFields, PlatformPriceCnyFields } from "../records.ts";
import { GoodsTag } from "./web-shapes.ts";

/**
 * The website's goods details (reference: Internal routes, "Goods details"; docs/design/website-goods-routes.md#the-websites-goods-pages): one goods' catalog record, live market figures and the filter and sort menus its pages show.
 */

/** The internal envelope `{code: "OK", data, msg: null}` with an exact `data`. */
function InternalOk<Data extends Parameters<typeof StrictObject>[0]>(data: Data) {
  return Type.Object({ code: Type.Literal("OK"), data: StrictObject(data), msg: Type.Null() });
}

/** `{title, list[{attribute, default_value, list[{title, value}]}]}`: a filter or sort menu. */
const ChoiceMenu = StrictObject({
  title: Type.String(),
  list: Type.Array(
    StrictObject({
      attribute: Type.String(),
      default_value: Type.String(),
      list: Type.Array(StrictObject({ title: Type.String(), value: Type.String() })),
    }),
  ),
});

/** A `[min, max]` pair of decimal strings (paintwear) or percentages (fade). */
const RangePair = Type.Tuple([Type.String(), Type.String()]);

const AssetTagGroup = StrictObject({
  category: Type.String(),
  depth: Type.Integer(),
  items: Type.Array(StrictObject({ category: Type.String(), id: Type.Integer(), name: Type.String() })),
  name: Type.String(),
  type: Type.String(),
});

const PaintseedFilter = StrictObject({
  max: Type.Integer(),
  name: Type.String(),
  placeholder: Type.String(),
  search: Type.Boolean(),
  type: Type.String(),
});

const RankType = StrictObject({
  depth: Type.Integer(),
  items: Type.Array(StrictObject({ name: Type.String(), value: Type.String() })),
  name: Type.String(),
  type: Type.String(),
});

const SpecificChoice = StrictObject({
  items: Type.Array(
    StrictObject({
      buy_max_price: MoneyString,
      name: Type.String(),
      sell_min_price: MoneyString,
      value: Type.Integer(),
    }),
  ),
  limit: Type.Integer(),
  name: Type.String(),
  specific_type: Type.String(),
  type: Type.String(),
});

/** The five tag groups of goods details; a goods without one (a sticker has no weapon) omits it. */
const DetailTags = StrictObject({
  type: Type.Optional(GoodsTag),
  rarity: Type.Optional(GoodsTag),
  weapon: Type.Optional(GoodsTag),
  quality: Type.Optional(GoodsTag),
  exterior: Type.Optional(GoodsTag),
});

const RelativeGoods = StrictObject({
  auction_num: Type.Integer(),
  goods_id: Type.Integer(),
  goods_name: Type.String(),
  is_change: Type.Boolean(),
  sell_min_price: MoneyString,
  sell_num: Type.Integer(),
  tag: Type.String(),
  tag_name: Type.String(),
});

/** The reference's "Goods details". */
export const GoodsDetails = StrictObject({
  id: Type.Integer(),
  appid: Type.Integer(),
  transacted_num: Type.Integer(),
  user_show_count: Type.Integer(),
  recent_sold_count: Type.Integer(),
  buy_num: Type.Integer(),
  sell_num: Type.Integer(),
  rent_num: Type.Integer(),
  auction_num: Type.Integer(),
  pre_sell_num: Type.Integer(),
  game: RecordGame,
  name: Type.String(),
  short_name: Type.String(),
  super_short_name: Type.String(),
  market_hash_name: Type.String(),
  ...PlatformMarketUrlFields,
  container_type: Type.String(),
  buy_max_price: MoneyString,
  sell_min_price: MoneyString,
  sell_reference_price: MoneyString,
  quick_price: MoneyString,
  market_min_price: MoneyString,
  pre_sell_min_price: MoneyString,
  description: Type.Null(),
  item_id: Type.Null(),
  wiki_link: Type.Null(),
  has_fade_name: Type.Boolean(),
  can_buy: Type.Boolean(),
  can_sort_by_heat: Type.Boolean(),
  support_name_tag: Type.Boolean(),
  support_charm: Type.Boolean(),
  has_paintwear_rank: Type.Boolean(),
  bookmarked: Type.Boolean(),
  has_rune: Type.Boolean(),
  has_overprint_name: Type.Boolean(),
  is_container: Type.Boolean(),
  has_related: Type.Boolean(),
  has_buff_price_history: Type.Boolean(),
  allow_bundle_inventory: Type.Boolean(),
  has_bundle_inventory_order: Type.Boolean(),
  has_rent_order: Type.Boolean(),
  is_charm: Type.Boolean(),
  show_game_cms_icon: Type.Boolean(),
  paintwear_range: Type.Array(Type.String()),
  paintwear_choices: Type.Array(RangePair),
  rent_day_choices: Type.Array(Type.Integer()),
  fade_choices: Type.Array(RangePair),
  containers: Type.Array(StrictObject({ internal_name: Type.String(), name: Type.String() })),
  asset_tags: Type.Array(AssetTagGroup),
  asset_tags_history: Type.Array(AssetTagGroup),
  asset_tags_buy_order: Type.Array(AssetTagGroup),
  paintseed_filters: Type.Array(PaintseedFilter),
  paintseed_filters_history: Type.Array(PaintseedFilter),
  paintseed_filters_buy_order: Type.Array(PaintseedFilter),
  rank_types: Type.Array(RankType),
  relative_goods: Type.Array(RelativeGoods),
  goods_info: StrictObject({
    icon_url: Type.String(),
    original_icon_url: Type.String(),
    normal_icon_url: Type.String(),
    ...PlatformPriceCnyFields,
    item_id: Type.Null(),
    search_tag: Type.Null(),
    info: StrictObject({ tags: DetailTags }),
    can_inspect: Type.Boolean(),
    can_3d_inspect: Type.Boolean(),
    can_display_inspect: Type.Boolean(),
    can_preview: Type.Boolean(),
    can_preview_upload: Type.Boolean(),
    can_search_by_sticker: Type.Boolean(),
    can_search_by_patch: Type.Boolean(),
    can_search_by_tournament: Type.Boolean(),
    can_specific_buy: Type.Boolean(),
    can_specific_paintwear_buy: Type.Boolean(),
    can_specific_fade_buy: Type.Boolean(),
    specific: Type.Array(SpecificChoice),
    specific_paintwear_buying_choices: Type.Array(RangePair),
    specific_fade_buying_ranges: Type.Array(RangePair),
    wear_rank_order_list: Type.Array(
      StrictObject({ display_text: Type.String(), order_type: Type.String() }),
    ),
  }),
  deliver_deposit_filters: ChoiceMenu,
  history_order_type_filters: ChoiceMenu,
  sort_by_fields: ChoiceMenu,
  rent_sort_by_fields: ChoiceMenu,
  auction_sort_by_fields: ChoiceMenu,
  pre_sell_sort_by_fields: ChoiceMenu,
  share_data: StrictObject({
    share_task_type: Type.Integer(),
    content: Type.String(),
    thumbnail: Type.String(),
    title: Type.String(),
    url: Type.String(),
  }),
  keychain_color_img: Type.String(),
});

/** GET /api/market/goods/info: one goods' details (website route, anonymous or signed in). */
export const getGoodsInfo = defineOperation({
  id: "getGoodsInfo",
  method: "GET",
  path: "/api/market/goods/info",
  access: "public",
  envelope: "internal",
  summary: "One goods' catalog details, live market figures and the filters its pages accept",
  tags: ["Website"],
  querystring: Type.Object({ game: Cs2Game, goods_id: GoodsId }),
  response: InternalOk(GoodsDetails.properties),
});
