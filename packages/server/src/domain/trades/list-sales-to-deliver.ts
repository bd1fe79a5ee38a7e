import type { DomainContext } from "../context.ts";
import { readMarketFigures } from "../goods/goods-page-figures.ts";
import { toWebGoodsInfo } from "../goods/list-goods-sell-orders.ts";
import { fail, ok } from "../result.ts";
import { itemsToTradeOf, sellerDeliveryPending, TRADES_TO_ACT_ON_LIMIT } from "./list-trades-to-act-on.ts";
import { billOrderRows, toWebBillOrder } from "./web-bill-order.ts";

/**
 * The website's `sell_order/to_deliver` (docs/design/website-buying-routes.md#the-websites-delivery-routes): the caller's sales still to
 * deliver (`sellerDeliveryPending`, what `to_deliver_order` counts), oldest first, at most
 * `TRADES_TO_ACT_ON_LIMIT`, each as its bill order with the item to give and the buyer's trade
 * URL; `tradeofferid` is set once either party's offer is out. Dota 2 has no trades here.
 */
export async function listSalesToDeliver(ctx: DomainContext, input: { game: "csgo" | "cs2" | "dota2" }) {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const userId = ctx.actor.userId;
  const trades =
    input.game === "dota2"
      ? []
      : await billOrderRows(ctx)
          .where((eb) => sellerDeliveryPending(eb, userId))
          .orderBy("trades.created_at")
          .orderBy("trades.trade_id")
          .limit(TRADES_TO_ACT_ON_LIMIT)
          .execute();
  const goodsIds = [...new Set(trades.map((trade) => trade.goods_id))];
  const [goods, figures] =
    goodsIds.length === 0
      ? [[], new Map()]
      : await Promise.all([
          ctx.db.selectFrom("goods").selectAll().where("goods_id", "in", goodsIds).execute(),
          readMarketFigures(ctx, goodsIds),
        ]);
  const now = ctx.clock.now();
  return ok({
    items: trades.map((trade) => ({
      ...toWebBillOrder(trade, now),
      items_to_trade: itemsToTradeOf(trade),
      buyer_trade_url: trade.buyer_trade_url,
    })),
    goods_infos: Object.fromEntries(
      goods.map((row) => [String(row.goods_id), toWebGoodsInfo(row, figures.get(row.goods_id)!)]),
    ),
  });
}
