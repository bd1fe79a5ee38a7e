import { Type } from "typebox";
import {
  GoodsId,
  MarketHashName,
  MoneyInput,
  MoneyString,
  StrictObject,
  UnixSeconds,
  Cs2Game,
  CS2_GAMES,
} from "../common.ts";
import { defineOperation } from "../operation.ts";

/** The reference's market price entry, with the sales fields of `GET /api/market/items`. */
export const ItemPriceEntry = Type.Object({
  goods_id: Type.Integer(),
  market_hash_name: Type.String(),
  name: Type.String(),
  sales: Type.Array(Type.Object({ min_price: MoneyString, pre_sell_min_price: MoneyString })),
  update_time: UnixSeconds,
});

/** GET /api/market/items: lowest listing prices of one goods or of the whole market. */
export const getMarketItems = defineOperation({
  id: "getMarketItems",
  method: "GET",
  path: "/api/market/items",
  access: "developer",
  envelope: "official",
  summary: "Lowest prices (tradable and pre-sell) of one goods, or of every goods on the market",
  tags: ["Market data"],
  limits: { daily: 500 },
  querystring: Type.Object({
    game: Cs2Game,
    min_price: Type.Optional(MoneyInput),
    goods_id: Type.Optional(GoodsId),
    market_hash_name: Type.Optional(MarketHashName),
    include_sticker: Type.Integer({ enum: [0, 1], default: 1 }),
  }),
  response: Type.Object({
    info: Type.Array(ItemPriceEntry),
    req_remaining: Type.Integer(),
    stat_time: UnixSeconds,
  }),
});

/** `game` of the enterprise price operations: CS2, or Dota 2 (answered from its catalog, empty today). */
export const EnterpriseGame = Type.Enum([...CS2_GAMES, "dota2"], {
  description: "game: cs2 (or csgo) or dota2",
});

/** A liquidity rank as the reference writes it: a percentile with two decimals, `"87.52%"`. */
export const LiquidityRank = Type.String({ pattern: "^\\d{1,3}\\.\\d{2}%$", examples: ["87.52%"] });

/** The bounds of a fixed paint-wear interval (`"0.07"`), on entries that describe one. */
const FloatBound = Type.String({ pattern: "^[01]\\.\\d{2}$", examples: ["0.07"] });

/**
 * Which part of a goods a sales entry describes (docs/design/market-data.md#market-data): none of these for the
 * whole goods, `min_float`/`max_float` for one fixed paint-wear interval, `tag_id`/`tag_name` for a
 * variant (a Doppler phase or a fade range).
 */
const SalesPart = {
  min_float: Type.Optional(FloatBound),
  max_float: Type.Optional(FloatBound),
  tag_id: Type.Optional(Type.Integer()),
  tag_name: Type.Optional(Type.String()),
};

const PriceEntryHead = {
  goods_id: Type.Integer(),
  market_hash_name: Type.String(),
  name: Type.String(),
  update_time: UnixSeconds,
};

const GoodsChoice = {
  goods_id: Type.Optional(GoodsId),
  market_hash_name: Type.Optional(MarketHashName),
  include_sticker: Type.Integer({ enum: [0, 1], default: 1 }),
};

export const FloatItemsEntry = Type.Object({
  ...PriceEntryHead,
  sales: Type.Array(
    Type.Object({
      min_price: MoneyString,
      pre_sell_min_price: MoneyString,
      sell_num: Type.Integer({ minimum: 0 }),
      pre_sell_num: Type.Integer({ minimum: 0 }),
      liquidity_rank: Type.Optional(LiquidityRank),
      ...SalesPart,
    }),
  ),
});

/** POST /api/market/float/items: figures per goods, per fixed paint-wear interval and per variant. */
export const getFloatItems = defineOperation({
  id: "getFloatItems",
  method: "POST",
  path: "/api/market/float/items",
  access: "developer",
  envelope: "official",
  summary: "Lowest prices and quantities of goods, per paint-wear interval and per phase or fade range",
  tags: ["Market data"],
  readOnly: true,
  limits: {
    daily: 500,
    distinctGoods: { perDay: 200, fields: ["goods_ids", "market_hash_names"], in: "body" },
  },
  // `game` may be left out (the tools of the real service do): this operation answers CS2 only.
  // `min_price` is sent by those tools too; it filters as on `GET /api/market/items`.
  body: StrictObject({
    game: Type.Optional(Cs2Game),
    goods_ids: Type.Optional(Type.Array(GoodsId, { maxItems: 200 })),
    market_hash_names: Type.Optional(Type.Array(MarketHashName, { maxItems: 200 })),
    min_price: Type.Optional(MoneyInput),
  }),
  response: Type.Object({
    info: Type.Array(FloatItemsEntry),
    req_remaining: Type.Integer(),
    stat_time: UnixSeconds,
  }),
});

export const EnterpriseItemEntry = Type.Object({
  ...PriceEntryHead,
  sales: Type.Array(
    Type.Object({ min_price: MoneyString, pre_sell_min_price: MoneyString, buy_max_price: MoneyString }),
  ),
});

/** GET /api/market/enterprise/items: lowest listing and best buy order of one goods or every goods. */
export const getEnterpriseItems = defineOperation({
  id: "getEnterpriseItems",
  method: "GET",
  path: "/api/market/enterprise/items",
  access: "enterprise",
  envelope: "official",
  summary: "Lowest prices and the best buy order of one goods, or of every goods on the market",
  tags: ["Enterprise"],
  limits: { daily: 5000 },
  querystring: Type.Object({
    game: EnterpriseGame,
    min_price: Type.Optional(MoneyInput),
    ...GoodsChoice,
    high_liquidity: Type.Integer({ enum: [0, 1], default: 0 }),
  }),
  response: Type.Object({
    info: Type.Array(EnterpriseItemEntry),
    req_remaining: Type.Integer(),
    stat_time: UnixSeconds,
  }),
});

export const EnterpriseFloatEntry = Type.Object({
  ...PriceEntryHead,
  sales: Type.Array(
    Type.Object({
      min_price: MoneyString,
      pre_sell_min_price: MoneyString,
      avg_min_price: MoneyString,
      buy_max_price: MoneyString,
      sell_num: Type.Integer({ minimum: 0 }),
      pre_sell_num: Type.Integer({ minimum: 0 }),
      buy_order_num: Type.Integer({ minimum: 0 }),
      ...SalesPart,
    }),
  ),
});

/** GET /api/market/enterprise/float/items: the full figures per goods, paint-wear interval and variant. */
export const getEnterpriseFloatItems = defineOperation({
  id: "getEnterpriseFloatItems",
  method: "GET",
  path: "/api/market/enterprise/float/items",
  access: "enterprise",
  envelope: "official",
  summary:
    "Lowest prices, quantities, mean of the 10 lowest and buy orders, per goods, paint-wear interval and variant",
  tags: ["Enterprise"],
  limits: { daily: 5000 },
  querystring: Type.Object({ game: EnterpriseGame, min_price: Type.Optional(MoneyInput), ...GoodsChoice }),
  response: Type.Object({
    info: Type.Array(EnterpriseFloatEntry),
    req_remaining: Type.Integer(),
    stat_time: UnixSeconds,
  }),
});

export const LiquidityRankEntry = Type.Object({
  goods_id: Type.Integer(),
  market_hash_name: Type.String(),
  update_time: UnixSeconds,
  sales: Type.Array(
    Type.Object({ liquidity_rank: LiquidityRank, tag_id: Type.Integer(), tag_name: Type.String() }),
  ),
});

/** GET /api/market/enterprise/items/liquidity_rank: each goods' liquidity percentile of the last 30 days. */
export const getLiquidityRanks = defineOperation({
  id: "getLiquidityRanks",
  method: "GET",
  path: "/api/market/enterprise/items/liquidity_rank",
  access: "enterprise",
  envelope: "official",
  summary:
    "Liquidity rank (percentile of the last 30 days' trades) of one goods, or of every goods on the market",
  tags: ["Enterprise"],
  limits: { daily: 5000 },
  querystring: Type.Object({ game: Cs2Game, ...GoodsChoice }),
  response: Type.Object({
    info: Type.Array(LiquidityRankEntry),
    req_remaining: Type.Integer(),
    stat_time: UnixSeconds,
  }),
});
