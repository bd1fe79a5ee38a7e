import { Type, type TSchema } from "typebox";
import {
  CS2_GAMES,
  GoodsId,
  MarketHashName,
  MoneyInput,
  MoneyString,
  PageNum,
  PageSize,
  StrictObject,
  Text,
  UnixSeconds,
} from "../common.ts";
import { defineOperation } from "../operation.ts";
import { AssetInfo, PlatformPriceFields } from "../records.ts";
import { WebGoodsInfo, WebSellListing, WebUserInfos } from "./web-shapes.ts";
import { INVENTORY_SORTS } from "./platform.ts";
import { SellOrderHistoryRecord } from "./purchases.ts";
import { ON_SALE_SORTS } from "./sell-orders.ts";

/**
 * The website's own selling routes (docs/design/website-account-and-selling-routes.md#the-websites-selling-routes): the signed-in user's inventory, listings and sales, and listing, repricing and
 * delisting, on the same domain verbs as the official `sell_order/*` and `platform/inventory`.
 * Bodies accept every field the real tools send (Steamauto, and the others named there); fields
 * our model has no use for are bounded and ignored.
 */

/** The real website takes `game` as optional and means CS2 by default. */
const WebGame = Type.Enum([...CS2_GAMES], { default: "csgo", description: "cs2 or csgo; csgo when absent" });

/** `appid` as tools send it in a query: 730 is the only game. */
const QueryAppId = Type.Literal(730, { description: "730 (CS2), the only game" });

/** `appid` in a body: Steamauto sends the text "730", pydantic models the number. */
const BodyAppId = Type.Union([Type.Literal(730), Type.Literal("730")], {
  description: "730 (CS2) as a number or a text",
});

/** Platform ids (classid, instanceid, contextid) as texts or numbers: the tools send both. */
const PlatformNumber = Type.Union([
  Type.String({ pattern: "^\\d{1,20}$", description: "decimal digits" }),
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
]);

const AssetId = Type.String({ pattern: "^\\d{1,15}$", description: "an assetid of at most 15 digits" });
const SellOrderId = Type.String({
  pattern: "^[1-9]\\d{0,14}$",
  description: "a sell order id of at most 15 digits",
});

/**
 * `income` as the tools send it: ignored (the fee is the marketplace's), but bounded. One tool
 * sends it as a one-entry list (a Python tuple), which the real service takes.
 */
const IgnoredIncome = Type.Union([MoneyInput, Type.Array(MoneyInput, { maxItems: 1 })], {
  description: "ignored: what the seller receives is the price less the marketplace's fee",
});

const Description = Text({ maxLength: 200, multiline: true, description: "the listing's description" });

/** `{code: "OK", data, msg: null}` around any data schema. */
function InternalAnswer<Data extends TSchema>(data: Data) {
  return Type.Object({ code: Type.Literal("OK"), data, msg: Type.Null() });
}

/** Per-item outcomes of the batch writes: each id maps to `OK` or why not. */
const PerItem = Type.Record(Type.String(), Type.String());

const GoodsInfos = Type.Record(Type.String(), WebGoodsInfo);

/** The reference's asset_info with `appid` (BuffAutoComment keys items by appid and assetid). */
const WebItemAssetInfo = StrictObject({ ...AssetInfo.properties, appid: Type.Integer() });

/**
 * One item of the website's inventory: the official inventory record under the real website's
 * names, with its listing when on sale. `state` and `progress` are the website's codes.
 */
export const WebInventoryItem = StrictObject({
  appid: Type.Integer(),
  game: Type.Literal("csgo"),
  assetid: Type.String(),
  classid: Type.String(),
  contextid: Type.Integer(),
  instanceid: Type.String(),
  goods_id: Type.Integer(),
  market_hash_name: Type.String(),
  name: Type.String(),
  short_name: Type.String(),
  icon_url: Type.String(),
  original_icon_url: Type.String(),
  ...PlatformPriceFields,
  sell_min_price: MoneyString,
  buy_max_price: MoneyString,
  // The best price another user's order in the public book offers for the goods ("0.00": none),
  // what selling now fetches; buy_max_price counts the caller's own orders too.
  sell_now_price: MoneyString,
  tradable: Type.Boolean(),
  tradeable: Type.Boolean({ description: "the real website's spelling of tradable" }),
  tradable_time: Type.Union([UnixSeconds, Type.Null()]),
  state: Type.Integer({ description: "3 tradable, 1 not tradable (trade cooldown)" }),
  state_text: Type.String(),
  state_toast: Type.Union([Type.String(), Type.Null()]),
  progress: Type.Integer({ description: "0 idle, 1 on sale" }),
  progress_text: Type.String(),
  sell_order_id: Type.Union([Type.String(), Type.Null()]),
  sell_order_price: Type.String({ description: "the listing's price; empty when not on sale" }),
  sell_order_income: Type.String({ description: "the price less the fee; empty when not on sale" }),
  sell_order_mode: Type.Integer({ description: "1 the seller sends the offer, 2 the buyer; 0 not on sale" }),
  open_trade_id: Type.Union([Type.String(), Type.Null()], {
    description:
      "ours: the trade the item is sold in and not yet delivered (paying, awaiting or in its offer); it cannot be listed or sold again; null otherwise",
  }),
  asset_info: WebItemAssetInfo,
});

/**
 * The fee the marketplace takes from a sale, as it applies it: the price times `basis_points`
 * / 10000, rounded up to the fen, and never less than `min`; the seller receives the rest.
 */
export const SellerFeeRule = StrictObject({
  basis_points: Type.Integer({ minimum: 0, maximum: 10_000, description: "the rate, 250 = 2.5 %" }),
  min: MoneyString,
});

const InventoryQuery = {
  game: WebGame,
  appid: Type.Optional(QueryAppId),
  page_num: PageNum,
  page_size: PageSize(500, 50),
  force: Type.Integer({
    enum: [0, 1],
    default: 0,
    description: "1: read the platform with the stored cookies",
  }),
  force_wear: Type.Optional(Type.Integer({ enum: [0, 1], description: "ignored: wear is always known" })),
  sort_by: Type.Enum(INVENTORY_SORTS, { default: "time.desc" }),
  state: Type.Enum(["all", "tradable", "cansell", "onsale"], { default: "all" }),
  search: Type.Optional(Text({ maxLength: 100 })),
  min_price: Type.Optional(MoneyInput),
  max_price: Type.Optional(MoneyInput),
  min_paintwear: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  max_paintwear: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
};

const PageFields = {
  page_num: Type.Integer(),
  page_size: Type.Integer(),
  total_count: Type.Integer(),
  total_page: Type.Integer(),
};

/** GET /api/market/steam_inventory: the inventory of the signed-in user's bound platform account. */
export const getWebInventory = defineOperation({
  id: "getWebInventory",
  method: "GET",
  path: "/api/market/steam_inventory",
  access: "session",
  envelope: "internal",
  summary: "The inventory of the signed-in user's bound platform account, with each item's listing",
  tags: ["Website selling"],
  querystring: Type.Object(InventoryQuery),
  response: InternalAnswer(
    StrictObject({
      items: Type.Array(WebInventoryItem),
      goods_infos: GoodsInfos,
      ...PageFields,
      seller_fee: SellerFeeRule,
      bought_prices: Type.Record(AssetId, MoneyString, {
        description:
          "what the user paid on the marketplace for the items of this page bought here, by assetid (the latest purchase); items not bought here are absent",
      }),
    }),
  ),
});

/** GET /api/market/backpack: items the marketplace holds for the user; there never are any. */
export const getWebBackpack = defineOperation({
  id: "getWebBackpack",
  method: "GET",
  path: "/api/market/backpack",
  access: "session",
  envelope: "internal",
  summary: "Items held by the marketplace for the signed-in user: always none, items stay on the platform",
  description:
    "Items the marketplace holds for the user: this marketplace never holds any, so the list is empty; the real website's tools call it.",
  tags: ["Website selling"],
  querystring: Type.Object({
    game: WebGame,
    appid: Type.Optional(QueryAppId),
    page_num: PageNum,
    page_size: PageSize(500, 60),
  }),
  response: InternalAnswer(
    StrictObject({
      items: Type.Array(WebInventoryItem),
      goods_infos: GoodsInfos,
      backpack_count: Type.Integer(),
      ...PageFields,
    }),
  ),
});

/** One of the user's listings as the website's on-sale page shows it. */
export const WebOnSaleListing = StrictObject({
  ...WebSellListing.properties,
  user_steamid: Type.String({ description: "the real website's name of user_platformid" }),
});

/** GET /api/market/sell_order/on_sale: the signed-in user's listings on sale. */
export const getWebOnSale = defineOperation({
  id: "getWebOnSale",
  method: "GET",
  path: "/api/market/sell_order/on_sale",
  access: "session",
  envelope: "internal",
  summary: "The signed-in user's listings on sale, up to 1000 a page",
  tags: ["Website selling"],
  querystring: Type.Object({
    game: WebGame,
    appid: Type.Optional(QueryAppId),
    page_num: PageNum,
    page_size: PageSize(1000, 20),
    mode: Type.Optional(
      Type.String({ pattern: "^\\d{1,2}(,\\d{1,2}){0,9}$", description: "ignored: every listing is shown" }),
    ),
    fold: Type.Optional(Type.Integer({ enum: [0, 1], description: "ignored: listings are never folded" })),
    sort_by: Type.Enum(ON_SALE_SORTS, { default: "updated.desc" }),
    search: Type.Optional(Text({ maxLength: 100 })),
    min_price: Type.Optional(MoneyInput),
    max_price: Type.Optional(MoneyInput),
    min_paintwear: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    max_paintwear: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  }),
  response: InternalAnswer(
    StrictObject({
      items: Type.Array(WebOnSaleListing),
      goods_infos: GoodsInfos,
      user_infos: WebUserInfos,
      ...PageFields,
    }),
  ),
});

/** POST /api/market/sell_order/create/manual_plus: puts items of the user's inventory on sale. */
export const createWebSellOrders = defineOperation({
  id: "createWebSellOrders",
  method: "POST",
  path: "/api/market/sell_order/create/manual_plus",
  access: "session",
  envelope: "internal",
  summary: "Puts up to 200 items on sale; answers OK or a message per assetid",
  tags: ["Website selling"],
  body: StrictObject({
    appid: Type.Optional(BodyAppId),
    game: WebGame,
    assets: Type.Array(
      StrictObject({
        assetid: AssetId,
        price: MoneyInput,
        desc: Type.Optional(Description),
        appid: Type.Optional(BodyAppId),
        game: Type.Optional(WebGame),
        classid: Type.Optional(PlatformNumber),
        instanceid: Type.Optional(PlatformNumber),
        contextid: Type.Optional(PlatformNumber),
        goods_id: Type.Optional(GoodsId),
        market_hash_name: Type.Optional(MarketHashName),
        income: Type.Optional(IgnoredIncome),
        has_market_min_price: Type.Optional(Type.Boolean()),
        reward_points: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
        cdkey_id: Type.Optional(Text({ maxLength: 64 })),
        orderNo: Type.Optional(Text({ maxLength: 64, description: "ignored: a tool's own reference" })),
      }),
      { minItems: 1, maxItems: 200 },
    ),
  }),
  response: InternalAnswer(PerItem),
});

/** POST /api/market/sell_order/change: changes the prices of the user's listings. */
export const changeWebSellOrders = defineOperation({
  id: "changeWebSellOrders",
  method: "POST",
  path: "/api/market/sell_order/change",
  access: "session",
  envelope: "internal",
  summary:
    "Changes the prices of up to 200 of the user's listings; answers OK or a message per sell order id",
  tags: ["Website selling"],
  body: StrictObject({
    appid: Type.Optional(BodyAppId),
    game: WebGame,
    sell_orders: Type.Array(
      StrictObject({
        sell_order_id: SellOrderId,
        price: MoneyInput,
        desc: Type.Optional(Description),
        income: Type.Optional(IgnoredIncome),
        origin_price: Type.Optional(MoneyInput),
        goods_id: Type.Optional(GoodsId),
        paintwear: Type.Optional(Text({ maxLength: 32 })),
        has_market_min_price: Type.Optional(Type.Boolean()),
        reward_points: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
        cdkey_id: Type.Optional(Text({ maxLength: 64 })),
      }),
      { minItems: 1, maxItems: 200 },
    ),
  }),
  response: InternalAnswer(PerItem),
});

/** POST /api/market/sell_order/cancel: takes the user's listings off sale. */
export const cancelWebSellOrders = defineOperation({
  id: "cancelWebSellOrders",
  method: "POST",
  path: "/api/market/sell_order/cancel",
  access: "session",
  envelope: "internal",
  summary: "Takes up to 50 of the user's listings off sale; answers OK or a message per sell order id",
  tags: ["Website selling"],
  body: StrictObject({
    appid: Type.Optional(BodyAppId),
    game: WebGame,
    sell_orders: Type.Array(SellOrderId, { minItems: 1, maxItems: 50 }),
    exclude_sell_orders: Type.Optional(
      Type.Array(SellOrderId, { maxItems: 50, description: "ids of sell_orders to leave on sale" }),
    ),
  }),
  response: InternalAnswer(PerItem),
});

/** One sale as the website's history shows it: the official record with the website's fields. */
export const WebSellHistoryRecord = StrictObject({
  ...SellOrderHistoryRecord.properties,
  appid: Type.Integer(),
  asset_info: WebItemAssetInfo,
  transact_time: Type.Union([UnixSeconds, Type.Null()], {
    description: "when the trade completed; null until it has",
  }),
  sell_min_price: MoneyString,
});

/** GET /api/market/sell_order/history: the signed-in user's sales in any state. */
export const getWebSellHistory = defineOperation({
  id: "getWebSellHistory",
  method: "GET",
  path: "/api/market/sell_order/history",
  access: "session",
  envelope: "internal",
  summary: "The signed-in user's sales in any state, newest first",
  tags: ["Website selling"],
  querystring: Type.Object({
    game: WebGame,
    appid: Type.Optional(QueryAppId),
    page_num: PageNum,
    page_size: PageSize(100, 20),
    state: Type.Optional(Type.Enum(["PAYING", "SELLER_TO_SEND_OFFER", "TRADING", "SUCCESS", "FAIL"])),
    goods_id: Type.Optional(GoodsId),
    start_time: Type.Optional(UnixSeconds),
    end_time: Type.Optional(UnixSeconds),
  }),
  response: InternalAnswer(
    StrictObject({ items: Type.Array(WebSellHistoryRecord), goods_infos: GoodsInfos, ...PageFields }),
  ),
});
