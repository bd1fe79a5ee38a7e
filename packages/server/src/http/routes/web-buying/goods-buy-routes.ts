import { buyGoods, parseMoney, payAccountOfCode, previewGoodsBuy } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { invalidArgument, ok } from "../../../domain/result.ts";
import { previewListingPurchase } from "../../../domain/trades/preview-listing-purchase.ts";
import { purchaseListing } from "../../../domain/trades/purchase-listing.ts";
import { billOrderRows, toWebBillOrder } from "../../../domain/trades/web-bill-order.ts";
import { registerOperation } from "../../operation-route.ts";

/** GET goods/buy/preview and POST goods/buy: the website's purchase of one listing. */
export function registerGoodsBuyRoutes(app: FastifyInstance): void {
  registerOperation(app, previewGoodsBuy, async ({ ctx, query }) => {
    const preview = await previewListingPurchase(ctx, {
      goodsId: query.goods_id,
      listingId: Number(query.sell_order_id),
      price: query.price,
      allowCooldown: query.allow_tradable_cooldown === 1,
    });
    return preview.ok ? ok({ code: "OK" as const, data: preview.value, msg: null }) : preview;
  });

  registerOperation(app, buyGoods, async ({ ctx, body }) => {
    const price = parseMoney(body.price);
    if (!price.ok) return invalidArgument("price", price.reason);
    const bought = await purchaseListing(ctx, {
      goodsId: body.goods_id,
      listingId: Number(body.sell_order_id),
      price: price.fen,
      allowCooldown: body.allow_tradable_cooldown === 1,
      // The schema admits the codes of WEB_PAY_METHOD_CODES only.
      payAccount: payAccountOfCode(body.pay_method)!,
    });
    if (!bought.ok) return bought;
    const trade = await billOrderRows(ctx)
      .where("trades.trade_id", "=", bought.value.tradeId)
      .executeTakeFirstOrThrow();
    return ok({ code: "OK" as const, data: toWebBillOrder(trade, ctx.clock.now()), msg: null });
  });
}
