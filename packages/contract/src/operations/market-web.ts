import { Type } from "typebox";
import {
  GoodsId,
  IdString,
  INT32_MAX,
  MoneyInput,
  MoneyString,
  PageNum,
  PageSize,
  RecordGame,
  StrictObject,
  Text,
  UnixSeconds,
  Cs2Game,
} from "../common.ts";
import { defineOperation } from "../operation.ts";
import {
  InspectInfo,
  KeychainEntry,
  ListingFigureFields,
  PlatformMarketUrlFields,
  PlatformPriceCnyFields,
  StickerEntry,
  TournamentTag,
} from "../records.ts";

/**
 * The website's goods pages (reference: Internal routes; docs/design/website-goods-routes.md#the-websites-goods-pages): goods details,
 * listings, the catalog, price history, recent trades and bookmarks. Answers are exact: a field
 * the reference does not list is refused by the schema checks of the tests.
 */

/** The internal envelope `{code: "OK", data, msg: null}` with an exact `data`. */
function InternalOk<Data extends Parameters<typeof StrictObject>[0]>(data: Data) {
  return Type.Object({ code: Type.Literal("OK"), data: StrictObject(data), msg: Type.Null() });
}

const GoodsIdQuery = GoodsId;

/** A catalog tag as the reference's tag objects. */
export const GoodsTag = StrictObject({
  id: Type.Integer(),
  category: Type.String(),
  internal_name: Type.String(),
  localized_name: Type.String(),
});

/** The reference's `user_infos` value: what the website shows of a trader. */
export const WebUserInfo = StrictObject({
  avatar: Type.String(),
  avatar_safe: Type.String(),
  nickname: Type.String(),
  shop_id: Type.String(),
  user_id: Type.String(),
  is_auto_accept: Type.Boolean(),
  is_premium_vip: Type.Boolean(),
  seller_level: Type.Integer(),
  v_types: Type.Array(Type.String()),
});

export const WebUserInfos = Type.Record(Type.String(), WebUserInfo);

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

/** The reference's tag groups of `goods_infos` and of catalog items; absent where the goods has none. */
export const GoodsTags = StrictObject({
  category: Type.Optional(GoodsTag),
  category_group: Type.Optional(GoodsTag),
  custom: Type.Optional(GoodsTag),
  exterior: Type.Optional(GoodsTag),
  itemset: Type.Optional(GoodsTag),
  model_version: Type.Optional(GoodsTag),
  quality: Type.Optional(GoodsTag),
  rarity: Type.Optional(GoodsTag),
  series: Type.Optional(GoodsTag),
  type: Type.Optional(GoodsTag),
  weapon: Type.Optional(GoodsTag),
  weaponcase: Type.Optional(GoodsTag),
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
  querystring: Type.Object({ game: Cs2Game, goods_id: GoodsIdQuery }),
  response: InternalOk(GoodsDetails.properties),
});

/**
 * The largest page of the goods pages' listings and buy-order book: the catalog's, the largest
 * page the real website's tools ask for; 10 by default as there (docs/design/website-goods-routes.md#the-websites-goods-pages).
 */
export const GOODS_PAGE_SIZE_MAX = 80;
export const GoodsPageSize = PageSize(GOODS_PAGE_SIZE_MAX, 10);

/** Sorts of the website's listings of one goods; `default` is the cheapest first. */
export const GOODS_SELL_ORDER_SORTS = [
  "default",
  "price.asc",
  "price.desc",
  "created.asc",
  "created.desc",
  "paintwear.asc",
  "paintwear.desc",
] as const;

/** Listing modes: 1 the seller sends the trade offer, 2 the buyer sends it. */
export const LISTING_MODES = ["1", "2"] as const;

/** The reference's asset_info with the website's extra fields (reference: Internal sell listing item). */
export const WebAssetInfo = StrictObject({
  assetid: Type.String(),
  classid: Type.String(),
  contextid: Type.Integer(),
  goods_id: Type.Integer(),
  id: Type.String(),
  instanceid: Type.String(),
  paintwear: Type.String(),
  action_link: Type.String(),
  appid: Type.Integer(),
  has_tradable_cooldown: Type.Boolean(),
  tradable_cooldown_text: Type.String(),
  tradable_unfrozen_time: Type.Union([UnixSeconds, Type.Null()]),
  info: StrictObject({
    fraudwarnings: Type.Union([Type.String(), Type.Null()]),
    paintindex: Type.Union([Type.Integer(), Type.Null()]),
    paintseed: Type.Union([Type.Integer(), Type.Null()]),
    stickers: Type.Array(StickerEntry),
    tournament_tags: Type.Array(TournamentTag),
    inspect_info: InspectInfo,
    keychains: Type.Array(KeychainEntry),
    icon_url: Type.String(),
    original_icon_url: Type.String(),
    inspect_en_size: Type.String(),
    inspect_en_url: Type.String(),
    inspect_mobile_size: Type.String(),
    inspect_mobile_url: Type.String(),
    inspect_size: Type.String(),
    inspect_start_at: Type.Integer(),
    inspect_state: Type.Integer(),
    inspect_trn_size: Type.String(),
    inspect_trn_url: Type.String(),
    inspect_url: Type.String(),
    inspect_version: Type.Integer(),
    inspected_at: Type.Integer(),
    metaphysic: StrictObject({
      data: StrictObject({ color: Type.String(), name: Type.String() }),
      title: Type.String(),
    }),
    phase_data: StrictObject({ color: Type.String(), name: Type.String() }),
  }),
});

/** The reference's "Internal sell listing item". */
export const WebSellListing = StrictObject({
  id: Type.String(),
  user_id: Type.String(),
  user_platformid: Type.String(),
  game: RecordGame,
  price: MoneyString,
  fee: MoneyString,
  income: MoneyString,
  deliver_deposit: MoneyString,
  description: Type.String(),
  state_text: Type.String(),
  cannot_bargain_reason: Type.String(),
  appid: Type.Integer(),
  goods_id: Type.Integer(),
  created_at: UnixSeconds,
  updated_at: UnixSeconds,
  featured: Type.Integer(),
  mode: Type.Integer(),
  order_type: Type.Integer(),
  state: Type.Integer(),
  allow_bargain: Type.Boolean(),
  allow_bargain_chat: Type.Boolean(),
  allow_bargain_swap: Type.Boolean(),
  allow_pending_divide_balance: Type.Boolean(),
  bookmarked: Type.Boolean(),
  can_bargain: Type.Boolean(),
  can_bargain_chat: Type.Boolean(),
  can_bargain_swap: Type.Boolean(),
  // The reference shows sticker_premium as null here; one listing shows one premium everywhere.
  ...ListingFigureFields,
  tradable_cooldown: Type.Null(),
  supported_pay_channels: Type.Array(Type.String()),
  supported_pay_methods: Type.Array(Type.Integer()),
  asset_info: WebAssetInfo,
});

/** One entry of `goods_infos` (reference: Internal sell listing item, envelope). */
export const WebGoodsInfo = StrictObject({
  appid: Type.Integer(),
  game: RecordGame,
  goods_id: Type.Integer(),
  name: Type.String(),
  short_name: Type.String(),
  market_hash_name: Type.String(),
  icon_url: Type.String(),
  original_icon_url: Type.String(),
  ...PlatformPriceCnyFields,
  sell_min_price: MoneyString,
  sell_reference_price: MoneyString,
  market_min_price: MoneyString,
  can_inspect: Type.Boolean(),
  can_3d_inspect: Type.Boolean(),
  is_charm: Type.Boolean(),
  description: Type.Null(),
  item_id: Type.Null(),
  keychain_color_img: Type.String(),
  tags: GoodsTags,
});

/** The real website's listing filters with nothing to filter here: named in a 400, never dropped. */
export const UNSUPPORTED_SELL_ORDER_FILTERS = ["name_tag", "tier", "paintseed_group"] as const;
const UnsupportedFilter = Text({
  maxLength: 100,
  description: "a filter of the real website not offered here: refused naming it",
});

/** A price bound of the listings' filter: an amount with two decimals, or empty for none. */
const PriceBound = Type.Union([
  Type.String({ pattern: "^\\d{1,9}\\.\\d{2}$", maxLength: 12, examples: ["12.50"] }),
  Type.Literal(""),
]);

/** GET /api/market/goods/sell_order: the listings of one goods (website route). */
export const getGoodsSellOrders = defineOperation({
  id: "getGoodsSellOrders",
  method: "GET",
  path: "/api/market/goods/sell_order",
  access: "public",
  envelope: "internal",
  summary:
    "Listings of one goods, 10 a page (up to 80), with their goods, sellers and the viewer's bookmarks",
  tags: ["Website"],
  querystring: Type.Object({
    game: Cs2Game,
    goods_id: GoodsIdQuery,
    page_num: PageNum,
    page_size: GoodsPageSize,
    sort_by: Type.Enum([...GOODS_SELL_ORDER_SORTS], { default: "default" }),
    mode: Type.Optional(Type.Enum([...LISTING_MODES])),
    allow_tradable_cooldown: Type.Integer({ enum: [0, 1], default: 1 }),
    min_paintwear: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    max_paintwear: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    paintseed: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    tag_ids: Type.Optional(
      Type.Integer({ minimum: 1, maximum: INT32_MAX, description: "a phase tag of the goods" }),
    ),
    min_fade: Type.Optional(Type.Number({ minimum: 80, maximum: 100 })),
    max_fade: Type.Optional(Type.Number({ minimum: 80, maximum: 100 })),
    appid: Type.Optional(Type.Literal(730, { description: "730 (CS2), the only game" })),
    extra_tag_ids: Type.Optional(
      Text({
        maxLength: 100,
        description:
          "sticker search: empty, non_empty, squad_combos (four or more of one kit), or up to 5 comma-separated sticker kit ids (the game's), each optionally as slot_<0-4>_<id>",
        examples: ["non_empty", "49", "slot_0_49,55"],
      }),
    ),
    wearless_sticker: Type.Optional(
      Type.Integer({ enum: [0, 1], description: "1: the stickers searched for are unscraped (wear 0)" }),
    ),
    min_price: Type.Optional(PriceBound),
    max_price: Type.Optional(PriceBound),
    name_tag: Type.Optional(UnsupportedFilter),
    tier: Type.Optional(UnsupportedFilter),
    paintseed_group: Type.Optional(UnsupportedFilter),
  }),
  response: InternalOk({
    goods_infos: Type.Record(Type.String(), WebGoodsInfo),
    has_market_stores: Type.Record(Type.String(), Type.Boolean()),
    items: Type.Array(WebSellListing),
    page_num: Type.Integer(),
    page_size: Type.Integer(),
    sort_by: Type.String(),
    total_count: Type.Integer(),
    total_page: Type.Integer(),
    user_infos: WebUserInfos,
  }),
});

/** Sorts of the catalog (docs/design/official-operations.md#the-30-operations). */
export const CATALOG_SORTS = [
  "sell_num.desc",
  "price.asc",
  "price.desc",
  "created.desc",
  "transacted_num.desc",
] as const;

/**
 * The reference's "Catalog item", with the fields the real service's catalog carries and its
 * tools read (docs/design/website-goods-routes.md#the-websites-goods-pages): `market_min_price` is a money string as there.
 */
export const CatalogItem = StrictObject({
  id: Type.Integer(),
  appid: Type.Integer(),
  game: RecordGame,
  market_hash_name: Type.String(),
  name: Type.String(),
  short_name: Type.String(),
  description: Type.Null(),
  buy_max_price: MoneyString,
  sell_min_price: MoneyString,
  sell_reference_price: MoneyString,
  quick_price: MoneyString,
  buy_num: Type.Integer(),
  sell_num: Type.Integer(),
  transacted_num: Type.Integer(),
  market_min_price: MoneyString,
  ...PlatformMarketUrlFields,
  can_bargain: Type.Boolean(),
  bookmarked: Type.Boolean({ description: "the signed-in viewer bookmarked the goods" }),
  has_buff_price_history: Type.Boolean({
    description: "the goods has a completed trade, so a price history",
  }),
  can_search_by_tournament: Type.Boolean({ description: "always false: no route filters by tournament" }),
  goods_info: StrictObject({
    icon_url: Type.String({ format: "uri" }),
    original_icon_url: Type.String({ format: "uri" }),
    item_id: Type.Null(),
    ...PlatformPriceCnyFields,
    info: StrictObject({ tags: GoodsTags }),
  }),
});

const TagFilter = Text({ minLength: 1, maxLength: 64, description: "a tag's internal name" });

/** GET /api/market/goods: the catalog with market figures (website route, signed in). */
export const listCatalogGoods = defineOperation({
  id: "listCatalogGoods",
  method: "GET",
  path: "/api/market/goods",
  access: "session",
  envelope: "internal",
  summary: "The catalog with each goods' market figures: search, tag and price filters, sorts",
  tags: ["Website"],
  querystring: Type.Object({
    game: Cs2Game,
    page_num: PageNum,
    page_size: PageSize(80, 20),
    search: Type.Optional(Text({ minLength: 1, maxLength: 100 })),
    category: Type.Optional(TagFilter),
    category_group: Type.Optional(TagFilter),
    exterior: Type.Optional(TagFilter),
    quality: Type.Optional(TagFilter),
    rarity: Type.Optional(TagFilter),
    min_price: Type.Optional(MoneyInput),
    max_price: Type.Optional(MoneyInput),
    sort_by: Type.Enum([...CATALOG_SORTS], { default: "sell_num.desc" }),
  }),
  response: InternalOk({
    items: Type.Array(CatalogItem),
    page_num: Type.Integer(),
    page_size: Type.Integer(),
    total_count: Type.Integer(),
    total_page: Type.Integer(),
  }),
});

/** GET /api/market/goods/price_history: the daily median of completed trades. */
export const getPriceHistory = defineOperation({
  id: "getPriceHistory",
  method: "GET",
  path: "/api/market/goods/price_history",
  access: "public",
  envelope: "internal",
  summary: "Daily median price of one goods' completed trades over 7, 30 or 180 days (UTC days)",
  tags: ["Website"],
  querystring: Type.Object({
    game: Cs2Game,
    goods_id: GoodsIdQuery,
    days: Type.Integer({ enum: [7, 30, 180], default: 30 }),
  }),
  response: InternalOk({
    goods_id: Type.Integer(),
    days: Type.Integer(),
    price_type: Type.Literal("median"),
    price_history: Type.Array(Type.Tuple([UnixSeconds, MoneyString])),
  }),
});

/** One completed trade as anyone may see it: no buyer, seller or account data. */
export const BillOrder = StrictObject({
  id: Type.String(),
  appid: Type.Integer(),
  game: RecordGame,
  goods_id: Type.Integer(),
  price: MoneyString,
  type: Type.Integer({ description: "1 a listing bought, 2 a buy order filled" }),
  transact_time: UnixSeconds,
  asset_info: StrictObject({
    paintwear: Type.String(),
    paintseed: Type.Union([Type.Integer(), Type.Null()]),
    paintindex: Type.Union([Type.Integer(), Type.Null()]),
    stickers: Type.Array(StickerEntry),
    keychains: Type.Array(KeychainEntry),
    icon_url: Type.String(),
  }),
});

/** Completed trades per page of `bill_order`. */
export const BILL_ORDER_COUNT = 20;

/** GET /api/market/goods/bill_order: the latest completed trades of one goods. */
export const getBillOrders = defineOperation({
  id: "getBillOrders",
  method: "GET",
  path: "/api/market/goods/bill_order",
  access: "public",
  envelope: "internal",
  summary: "The 20 latest completed trades of one goods, newest first",
  tags: ["Website"],
  querystring: Type.Object({ game: Cs2Game, goods_id: GoodsIdQuery }),
  response: InternalOk({ items: Type.Array(BillOrder), total_count: Type.Integer() }),
});

const BookmarkBody = StrictObject({
  type: Type.Enum(["goods", "sell_order"]),
  id: IdString,
});

const BookmarkAnswer = InternalOk({
  type: Type.String(),
  id: Type.String(),
  bookmarked: Type.Boolean(),
});

/** POST /api/market/goods/bookmark: the signed-in user bookmarks a goods or a listing. */
export const addBookmark = defineOperation({
  id: "addBookmark",
  method: "POST",
  path: "/api/market/goods/bookmark",
  access: "session",
  envelope: "internal",
  summary: "Bookmarks a goods or a listing on sale for the signed-in user (again: no change)",
  tags: ["Website"],
  body: BookmarkBody,
  response: BookmarkAnswer,
});

/** GET /api/market/goods/bookmark: the signed-in user's bookmarks, newest first. */
export const listBookmarks = defineOperation({
  id: "listBookmarks",
  method: "GET",
  path: "/api/market/goods/bookmark",
  access: "session",
  envelope: "internal",
  summary:
    "The signed-in user's bookmarks, newest first: each goods with its market figures, each listing with its price and whether it is still on sale",
  tags: ["Website"],
  querystring: Type.Object({
    game: Type.Optional(Cs2Game),
    type: Type.Enum(["goods", "sell_order"], { default: "goods" }),
    page_num: PageNum,
    page_size: PageSize(80, 20),
  }),
  response: InternalOk({
    items: Type.Array(
      StrictObject({
        type: Type.Enum(["goods", "sell_order"]),
        id: Type.String({ description: "the goods id, or the listing's id" }),
        created_at: Type.Integer({ description: "when it was bookmarked, Unix seconds" }),
        goods: CatalogItem,
        sell_order: Type.Union([
          StrictObject({
            id: Type.String(),
            price: MoneyString,
            on_sale: Type.Boolean({ description: "false once sold or withdrawn: the bookmark stays" }),
          }),
          Type.Null(),
        ]),
      }),
    ),
    page_num: Type.Integer(),
    page_size: Type.Integer(),
    total_count: Type.Integer(),
    total_page: Type.Integer(),
  }),
});

/** DELETE /api/market/goods/bookmark: removes one of the signed-in user's bookmarks. */
export const removeBookmark = defineOperation({
  id: "removeBookmark",
  method: "DELETE",
  path: "/api/market/goods/bookmark",
  access: "session",
  envelope: "internal",
  summary: "Removes a bookmark of the signed-in user (none: no change)",
  tags: ["Website"],
  body: BookmarkBody,
  response: BookmarkAnswer,
});
