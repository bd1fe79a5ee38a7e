import { Type } from "typebox";
import { Cs2Game, GoodsId, MoneyString, StrictObject, Text } from "../common.ts";
import { defineOperation } from "../operation.ts";

/**
 * The goods page's price context (docs/design/website-goods-routes.md#price-context-on-the-goods-page):
 * the buy-order book summed by price, and where a listing's wear ranks among the goods' listings.
 * Our own routes (the real service has no such answers); anyone may call them, as the goods pages.
 */

/** The internal envelope `{code: "OK", data, msg: null}` with an exact `data`. */
function InternalOk<Data extends Parameters<typeof StrictObject>[0]>(data: Data) {
  return Type.Object({ code: Type.Literal("OK"), data: StrictObject(data), msg: Type.Null() });
}

/** At most this many price levels in one answer (the best ones). */
export const BUY_ORDER_DEPTH_LEVELS_MAX = 50;

/** GET /api/market/goods/buy_order_depth: the public buy-order book summed by price. */
export const getBuyOrderDepth = defineOperation({
  id: "getBuyOrderDepth",
  method: "GET",
  path: "/api/market/goods/buy_order_depth",
  access: "public",
  envelope: "internal",
  summary: "The public buy-order book of one goods summed by price: each price with the units wanted",
  description:
    "The best `levels` prices of the public book (the orders `goods/buy_order` lists), highest first, each with the units still wanted and how many orders want them; the totals count every level.",
  tags: ["Website"],
  querystring: Type.Object({
    game: Cs2Game,
    goods_id: GoodsId,
    levels: Type.Integer({ minimum: 1, maximum: BUY_ORDER_DEPTH_LEVELS_MAX, default: 20 }),
  }),
  response: InternalOk({
    goods_id: Type.Integer(),
    levels: Type.Array(
      StrictObject({
        price: MoneyString,
        num: Type.Integer({ description: "units still wanted at this price" }),
        orders: Type.Integer({ description: "orders at this price" }),
      }),
    ),
    total_num: Type.Integer({ description: "units wanted at every price" }),
    total_levels: Type.Integer({ description: "distinct prices in the book" }),
  }),
});

/** At most this many listings ranked in one call: the largest page of `goods/sell_order`. */
export const PAINTWEAR_RANK_IDS_MAX = 80;

/** GET /api/market/goods/paintwear_rank: listings' wear rank among the goods' listings on sale. */
export const getPaintwearRank = defineOperation({
  id: "getPaintwearRank",
  method: "GET",
  path: "/api/market/goods/paintwear_rank",
  access: "public",
  envelope: "internal",
  summary: "Where each of some listings' wear ranks among every listing of the goods on sale (1 = lowest)",
  description:
    "`ranks` maps each listed id that is on sale with a wear to its rank among the goods' listings on sale that have a wear, lowest wear first (equal wears share a rank); other ids are left out. `total_count` is how many listings are ranked.",
  tags: ["Website"],
  querystring: Type.Object({
    game: Cs2Game,
    goods_id: GoodsId,
    sell_order_ids: Text({
      minLength: 1,
      maxLength: 16 * PAINTWEAR_RANK_IDS_MAX,
      description: `up to ${PAINTWEAR_RANK_IDS_MAX} comma-separated listing ids of the goods`,
      examples: ["1001,1002"],
    }),
  }),
  response: InternalOk({
    goods_id: Type.Integer(),
    total_count: Type.Integer(),
    ranks: Type.Record(Type.String(), Type.Integer()),
  }),
});
