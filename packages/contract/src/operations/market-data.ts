import { Type } from "typebox";
import { MoneyInput, MoneyString, UnixSeconds } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { OfficialGame } from "./platform.ts";

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
    game: OfficialGame,
    min_price: Type.Optional(MoneyInput),
    goods_id: Type.Optional(Type.Integer({ minimum: 1 })),
    market_hash_name: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    include_sticker: Type.Integer({ enum: [0, 1], default: 1 }),
  }),
  response: Type.Object({
    info: Type.Array(ItemPriceEntry),
    req_remaining: Type.Integer(),
    stat_time: UnixSeconds,
  }),
});
