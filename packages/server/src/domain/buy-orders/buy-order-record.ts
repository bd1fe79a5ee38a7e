import { formatMoney, RECORD_GAME } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { readGoodsPrices } from "../market/read-goods-prices.ts";
import type { BuyOrderRow } from "./match.ts";

/** The reference's own buy order record, with the goods' live best bid and lowest ask. */
export async function toBuyOrderRecords(ctx: DomainContext, orders: readonly BuyOrderRow[]) {
  const prices = await readGoodsPrices(ctx, [...new Set(orders.map((order) => order.goods_id))]);
  return orders.map((order) => {
    const market = prices.get(order.goods_id)!;
    return {
      id: String(order.buy_order_id),
      game: RECORD_GAME,
      goods_id: order.goods_id,
      price: formatMoney(order.price),
      num: order.num,
      real_num: order.real_num,
      frozen_num: order.frozen_num,
      buy_order_num: market.buyOrderNum,
      buy_max_price: formatMoney(market.buyMax),
      sell_min_price: formatMoney(market.sellMin),
      created_at: Math.floor(order.created_at.getTime() / 1000),
      expire_time: null,
      specific: order.specific.map((row) => ({ type: row.type, values: [...row.values] })),
      state: order.state,
      platformid_text: order.platformid,
    };
  });
}
