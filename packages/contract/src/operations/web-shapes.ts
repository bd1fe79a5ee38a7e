import { Type } from "typebox";
import { MoneyString, PageSize, RecordGame, StrictObject, UnixSeconds } from "../common.ts";
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
 * The website's record shapes that several of its routes answer (reference: Internal routes;
 * docs/design/website-goods-routes.md#the-websites-goods-pages): tags, traders, listings with their assets, goods entries and catalog
 * items, and the goods pages' page size. The routes are in the `web-*.ts` files beside this one.
 */

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

/**
 * The largest page of the goods pages' listings and buy-order book: the catalog's, the largest
 * page the real website's tools ask for; 10 by default as there (docs/design/website-goods-routes.md#the-websites-goods-pages).
 */
export const GOODS_PAGE_SIZE_MAX = 80;
export const GoodsPageSize = PageSize(GOODS_PAGE_SIZE_MAX, 10);

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

/** Sorts of the catalog (docs/design/website-goods-routes.md#the-websites-goods-pages). */
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
