import type { TradeState } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";
import { findGoods } from "../goods/find-goods.ts";
import { readMarketFigures } from "../goods/goods-page-figures.ts";
import { toWebGoodsInfo } from "../goods/list-goods-sell-orders.ts";
import { fail, ok } from "../result.ts";
import { billOrderRows, toWebBillOrder } from "./web-bill-order.ts";

/**
 * The caller's purchases as the website lists them (`buy_order/history`, docs/design/website-buying-routes.md#the-websites-buying-routes): every item bought, from a listing or by a buy order, newest first, as bill orders with the
 * goods they are of in `goods_infos`.
 */
export async function listBoughtItems(
  ctx: DomainContext,
  query: { pageNum: number; pageSize: number; state?: TradeState },
) {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  let base = billOrderRows(ctx).where("trades.buyer_id", "=", ctx.actor.userId);
  if (query.state !== undefined) base = base.where("trades.state", "=", query.state);
  const { total } = await ctx.db
    .selectFrom("trades")
    .where("buyer_id", "=", ctx.actor.userId)
    .$if(query.state !== undefined, (counted) => counted.where("state", "=", query.state!))
    .select((eb) => eb.fn.countAll<string>().as("total"))
    .executeTakeFirstOrThrow();
  const rows = await base
    .orderBy("trades.created_at", "desc")
    .orderBy("trades.trade_id", "desc")
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  const goodsIds = [...new Set(rows.map((row) => row.goods_id))];
  const [goods, figures] = await Promise.all([
    Promise.all(goodsIds.map((goodsId) => findGoods(ctx, goodsId))),
    readMarketFigures(ctx, goodsIds),
  ]);
  const now = ctx.clock.now();
  const totalCount = Number(total);
  return ok({
    items: rows.map((row) => toWebBillOrder(row, now)),
    goods_infos: Object.fromEntries(
      goods.flatMap((record) =>
        record ? [[String(record.goods_id), toWebGoodsInfo(record, figures.get(record.goods_id)!)]] : [],
      ),
    ),
    page_num: query.pageNum,
    page_size: query.pageSize,
    total_count: totalCount,
    total_page: Math.ceil(totalCount / query.pageSize),
  });
}
