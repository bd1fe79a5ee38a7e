import { Type } from "typebox";
import { MarketHashName, MoneyString, PageNum, PageSize, RecordGame, Cs2Game } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { AssetInfo, ListingFigureFields } from "../records.ts";

/**
 * The reference's fixed paint-wear intervals of `enterprise/goods/sell_order`, as `[min, max]`
 * decimal strings. They are closed: an item whose wear is exactly a boundary (0.07) belongs to both
 * intervals that share it. A custom range is filtered by the client (reference: Enterprise operations).
 */
export const PAINTWEAR_INTERVALS = [
  ["0.00", "0.01"],
  ["0.01", "0.02"],
  ["0.02", "0.03"],
  ["0.03", "0.04"],
  ["0.04", "0.07"],
  ["0.07", "0.08"],
  ["0.08", "0.09"],
  ["0.09", "0.10"],
  ["0.10", "0.11"],
  ["0.11", "0.15"],
  ["0.15", "0.18"],
  ["0.18", "0.21"],
  ["0.21", "0.24"],
  ["0.24", "0.27"],
  ["0.27", "0.38"],
  ["0.38", "0.39"],
  ["0.39", "0.40"],
  ["0.40", "0.41"],
  ["0.41", "0.42"],
  ["0.42", "0.45"],
  ["0.45", "0.50"],
  ["0.50", "0.63"],
  ["0.63", "0.76"],
  ["0.76", "0.90"],
  ["0.90", "1.00"],
] as const;

export const ENTERPRISE_SELL_ORDER_SORTS = [
  "price.asc",
  "price.desc",
  "paintwear.asc",
  "paintwear.desc",
  "created.asc",
  "created.desc",
] as const;

/** Seller pay-method filter: the listing accepts that way of paying. */
export const SELLER_PAY_METHODS = ["epay", "wallet", "pending_divide_balance"] as const;

/** The reference's enterprise listing record. */
export const EnterpriseListing = Type.Object({
  id: Type.String(),
  user_id: Type.String(),
  game: RecordGame,
  goods_id: Type.Integer(),
  price: MoneyString,
  asset_info: AssetInfo,
  allow_wallet_zft: Type.Boolean(),
  allow_epay: Type.Boolean(),
  allow_pending_divide_balance: Type.Boolean(),
  force_buyer_send_offer: Type.Boolean(),
  ...ListingFigureFields,
});

/** GET /api/market/enterprise/goods/sell_order: the listings on sale of one goods. */
export const getEnterpriseSellOrders = defineOperation({
  id: "getEnterpriseSellOrders",
  method: "GET",
  path: "/api/market/enterprise/goods/sell_order",
  access: "enterprise",
  envelope: "official",
  summary:
    "Listings on sale of one goods, filtered by a fixed paint-wear interval, paint seed, paint index and pay method",
  tags: ["Enterprise"],
  limits: {
    rate: { points: 3, seconds: 1 },
    distinctGoods: { perDay: 200, field: "market_hash_name", in: "query" },
  },
  querystring: Type.Object({
    game: Cs2Game,
    market_hash_name: MarketHashName,
    min_paintwear: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, description: "with max_paintwear: one of the fixed intervals" }),
    ),
    max_paintwear: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, description: "with min_paintwear: one of the fixed intervals" }),
    ),
    paintseed: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    paintindex: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000 })),
    sort_by: Type.Enum(ENTERPRISE_SELL_ORDER_SORTS, { default: "price.asc" }),
    page_num: PageNum,
    page_size: PageSize(10, 10),
    pay_method: Type.Optional(Type.Enum(SELLER_PAY_METHODS)),
  }),
  response: Type.Object({
    items: Type.Array(EnterpriseListing),
    page_num: Type.Integer(),
    page_size: Type.Integer(),
    total_count: Type.Integer(),
    total_page: Type.Integer(),
  }),
});
