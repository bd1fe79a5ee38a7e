import { Type } from "typebox";
import {
  Cs2Game,
  GoodsId,
  INT32_MAX,
  MoneyInput,
  MoneyString,
  PageNum,
  PageSize,
  RecordGame,
  StrictObject,
  Text,
  UnixSeconds,
} from "../common.ts";
import { defineOperation } from "../operation.ts";
import { KeychainEntry, StickerEntry } from "../records.ts";
import {
  CATALOG_SORTS,
  CatalogItem,
  GoodsPageSize,
  WebGoodsInfo,
  WebSellListing,
  WebUserInfos,
} from "./web-shapes.ts";

/**
 * The website's goods pages (reference: Internal routes; docs/design/website-goods-routes.md#the-websites-goods-pages): the listings of
 * one goods, the catalog, price history and recent trades. Answers are exact: a field the
 * reference does not list is refused by the schema checks of the tests.
 */

/** The internal envelope `{code: "OK", data, msg: null}` with an exact `data`. */
function InternalOk<Data extends Parameters<typeof StrictObject>[0]>(data: Data) {
  return Type.Object({ code: Type.Literal("OK"), data: StrictObject(data), msg: Type.Null() });
}

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
    goods_id: GoodsId,
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

const TagFilter = Text({ minLength: 1, maxLength: 64, description: "a tag's internal name" });

/** GET /api/market/goods: the catalog with market figures (website route, anyone). */
export const listCatalogGoods = defineOperation({
  id: "listCatalogGoods",
  method: "GET",
  path: "/api/market/goods",
  access: "public",
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
    min_paintwear: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: "goods with a listing on sale of at least this wear",
      }),
    ),
    max_paintwear: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: "goods with a listing on sale of at most this wear",
      }),
    ),
    paintseed: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1000,
        description: "goods with a listing on sale of this paint seed",
      }),
    ),
    sticker: Type.Optional(
      Text({
        minLength: 1,
        maxLength: 100,
        description:
          "goods with a listing on sale carrying a sticker (or patch) this text finds by name, as the catalog's name search finds goods",
        examples: ["crown foil", "Katowice 2014"],
      }),
    ),
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
    goods_id: GoodsId,
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

/** Completed trades per page of `bill_order` unless `page_size` says otherwise. */
export const BILL_ORDER_COUNT = 20;

/** GET /api/market/goods/bill_order: the completed trades of one goods, a page at a time. */
export const getBillOrders = defineOperation({
  id: "getBillOrders",
  method: "GET",
  path: "/api/market/goods/bill_order",
  access: "public",
  envelope: "internal",
  summary: "The completed trades of one goods, newest first, 20 a page (up to 80)",
  description:
    "Without `page_num` and `page_size` the answer is the 20 latest trades, as tools expect; `total_count` counts every completed trade of the goods.",
  tags: ["Website"],
  querystring: Type.Object({
    game: Cs2Game,
    goods_id: GoodsId,
    page_num: PageNum,
    page_size: PageSize(80, BILL_ORDER_COUNT),
  }),
  response: InternalOk({
    items: Type.Array(BillOrder),
    page_num: Type.Integer(),
    page_size: Type.Integer(),
    total_count: Type.Integer({ description: "every completed trade of the goods" }),
    total_page: Type.Integer(),
  }),
});
