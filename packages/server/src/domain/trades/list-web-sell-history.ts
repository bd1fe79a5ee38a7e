import { formatMoney } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { readWebGoodsInfos } from "../goods/web-goods-infos.ts";
import { ok } from "../result.ts";
import { listSellOrderHistory, type TradeListQuery } from "./list-trades.ts";

/**
 * The signed-in user's sales as the website lists them (`sell_order/history`): the official
 * history's page (`listSellOrderHistory`), each sale with `appid`, when it completed
 * (`transact_time`, null until then) and its goods' lowest listing now (`sell_min_price`), and the
 * goods in `goods_infos`.
 */
export async function listWebSellHistory(ctx: DomainContext, query: TradeListQuery) {
  const history = await listSellOrderHistory(ctx, query);
  if (!history.ok) return history;
  const goods = await readWebGoodsInfos(
    ctx,
    history.value.items.map((item) => item.goods_id),
  );
  return ok({
    ...history.value,
    items: history.value.items.map((item) => ({
      ...item,
      appid: 730,
      asset_info: { ...item.asset_info, appid: 730 },
      // A completed trade changes no more: its last update is its completion.
      transact_time: item.state === "SUCCESS" ? item.updated_at : null,
      sell_min_price: formatMoney(goods.figures.get(item.goods_id)?.sellMin ?? 0),
    })),
    goods_infos: goods.infos,
  });
}
