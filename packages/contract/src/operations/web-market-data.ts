import { Type } from "typebox";
import { Cs2Game, GoodsId, MoneyInput, PageNum, PageSize, StrictObject, Text } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { CATALOG_SORTS, CatalogItem, WebGoodsInfo, WebSellListing, WebUserInfos } from "./web-shapes.ts";

/**
 * The website's market-data routes that the tools written for the real service call
 * (docs/design/website-goods-routes.md#the-websites-market-data-routes): name suggestions,
 * the buying tab, the home page's popular listings and the price trend's two layouts.
 */

/** The internal envelope `{code: "OK", data, msg: null}` with an exact `data`. */
function InternalOk<Data extends Parameters<typeof StrictObject>[0]>(data: Data) {
  return Type.Object({ code: Type.Literal("OK"), data: StrictObject(data), msg: Type.Null() });
}

/** The cache-buster `_` the real website's pages and tools add to every GET (a timestamp). */
const CacheBuster = Type.Optional(Text({ maxLength: 32, description: "a cache-buster, ignored" }));

/** Suggestions per answer of `search/suggest`. */
export const SUGGESTION_COUNT = 10;

/**
 * GET /api/market/search/suggest: goods names matching a typed text (website route, anyone; a
 * presented session that has ended is refused, as tools probe their cookie with it).
 */
export const searchSuggest = defineOperation({
  id: "searchSuggest",
  method: "GET",
  path: "/api/market/search/suggest",
  access: "public",
  envelope: "internal",
  summary: "Up to 10 goods found by the forgiving name search, the closest and most traded first",
  description:
    "Case, punctuation and word order do not matter; every word must match a word of the Chinese or English name or an abbreviation (FN MW FT WW BS, ST for StatTrak). Anyone may call it (visitors 60 times in 10 s per address, with the catalog); a session cookie that has ended is Login Required.",
  tags: ["Website"],
  querystring: Type.Object({
    game: Cs2Game,
    text: Type.Optional(Text({ maxLength: 100, description: "absent or blank: no suggestions" })),
    _: CacheBuster,
  }),
  response: InternalOk({
    suggestions: Type.Array(
      StrictObject({
        goods_ids: Type.String({ description: "the goods id, as a decimal string" }),
        option: Type.String({ description: "the goods' name in the language the text matched" }),
        sell_min_price: Type.String({ description: 'the lowest tradable listing, yuan; "0.00" without one' }),
        sell_num: Type.Integer({ description: "tradable listings" }),
      }),
    ),
  }),
});

/**
 * Sorts of the buying tab: the catalog's, where `price` is the best buy order, and
 * `buy_num.desc` (the default), the goods whose buy orders want the most units first.
 */
export const BUYING_SORTS = ["buy_num.desc", ...CATALOG_SORTS] as const;

const TagFilter = Text({ minLength: 1, maxLength: 64, description: "a tag's internal name" });

const BuyingQuery = Type.Object({
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
  sort_by: Type.Enum([...BUYING_SORTS], { default: "buy_num.desc" }),
  tab: Type.Optional(Type.Enum(["buying"], { description: "the website's tab name, as its pages send" })),
  use_suggestion: Type.Optional(Type.Integer({ enum: [0, 1], description: "accepted and ignored" })),
  _: CacheBuster,
});

const BuyingAnswer = InternalOk({
  items: Type.Array(CatalogItem),
  page_num: Type.Integer(),
  page_size: Type.Integer(),
  total_count: Type.Integer(),
  total_page: Type.Integer(),
});

const BUYING_SUMMARY =
  "The catalog's goods that have buy orders in the public book, filtered and sorted by the best buy order";

/** GET /api/market/goods/buying: the market's buying tab (website route, signed in). */
export const listBuyingGoods = defineOperation({
  id: "listBuyingGoods",
  method: "GET",
  path: "/api/market/goods/buying",
  access: "session",
  envelope: "internal",
  summary: BUYING_SUMMARY,
  tags: ["Website"],
  querystring: BuyingQuery,
  response: BuyingAnswer,
});

/** GET /api/market/goods_buying: the buying tab under the name the issue gives it. */
export const listGoodsBuying = defineOperation({
  id: "listGoodsBuying",
  method: "GET",
  path: "/api/market/goods_buying",
  access: "session",
  envelope: "internal",
  summary: `${BUYING_SUMMARY} (the same as GET /api/market/goods/buying)`,
  tags: ["Website"],
  querystring: BuyingQuery,
  response: BuyingAnswer,
});

/** Listings of the home page's popular goods. */
export const POPULAR_COUNT = 20;

/** GET /api/index/popular_sell_order: the home page's popular listings (website route, anonymous). */
export const getPopularSellOrders = defineOperation({
  id: "getPopularSellOrders",
  method: "GET",
  path: "/api/index/popular_sell_order",
  access: "public",
  envelope: "internal",
  summary: "The cheapest tradable listing of each of the 20 most traded goods on sale",
  tags: ["Website"],
  querystring: Type.Object({ game: Type.Optional(Cs2Game), _: CacheBuster }),
  response: InternalOk({
    goods_infos: Type.Record(Type.String(), WebGoodsInfo),
    items: Type.Array(WebSellListing),
    show_game_cms_icon: Type.Boolean(),
    user_infos: WebUserInfos,
  }),
});

/** The price trend's query, both layouts: the real website's page and tools send all of it. */
const BuffHistoryQuery = Type.Object({
  game: Cs2Game,
  goods_id: GoodsId,
  currency: Type.Enum(["CNY"], { default: "CNY", description: "prices are in yuan only" }),
  days: Type.Integer({ minimum: 1, maximum: 365, default: 30 }),
  buff_price_type: Type.Optional(Type.Integer({ enum: [1, 2], description: "accepted; one series" })),
  with_sell_num: Type.Optional(Type.Boolean({ description: "accepted; no listing-count series" })),
  _: CacheBuster,
});

/** A point of the trend: `[unix milliseconds, price in yuan as a number]`, as the tools parse it. */
const TrendPoint = Type.Tuple([Type.Integer({ minimum: 0 }), Type.Number({ minimum: 0 })]);

/** A day's volume: `[unix milliseconds, completed trades]`, one for each point of the trend. */
const VolumePoint = Type.Tuple([Type.Integer({ minimum: 0 }), Type.Integer({ minimum: 1 })]);

const TrendHeader = {
  currency: Type.Literal("CNY"),
  currency_symbol: Type.Literal("¥"),
  days: Type.Integer(),
  price_type: Type.Literal("median"),
};

/** GET /api/market/goods/price_history/buff: the daily median and count of completed trades, in numbers. */
export const getBuffPriceHistory = defineOperation({
  id: "getBuffPriceHistory",
  method: "GET",
  path: "/api/market/goods/price_history/buff",
  access: "public",
  envelope: "internal",
  summary: "Daily median price and count of one goods' completed trades, points by milliseconds, 1-365 days",
  tags: ["Website"],
  querystring: BuffHistoryQuery,
  response: InternalOk({
    ...TrendHeader,
    steam_price_currency: Type.Literal("CNY"),
    price_history: Type.Array(TrendPoint),
    volume_history: Type.Array(VolumePoint, {
      description: "the same days' counts of completed trades, [milliseconds, trades]",
    }),
  }),
});

/** GET /api/market/goods/price_history/buff/v2: the same series as one line of a chart. */
export const getBuffPriceHistoryV2 = defineOperation({
  id: "getBuffPriceHistoryV2",
  method: "GET",
  path: "/api/market/goods/price_history/buff/v2",
  access: "public",
  envelope: "internal",
  summary: "The price trend as chart lines: the daily median of completed trades (sell_price_history)",
  tags: ["Website"],
  querystring: BuffHistoryQuery,
  response: InternalOk({
    ...TrendHeader,
    lines: Type.Array(
      StrictObject({
        key: Type.Literal("sell_price_history"),
        name: Type.String(),
        chart_type: Type.Literal("price"),
        color: Type.String(),
        allow: Type.Boolean(),
        show: Type.Boolean(),
        points: Type.Array(TrendPoint),
        disabled_confirm: Type.Null(),
      }),
    ),
  }),
});
