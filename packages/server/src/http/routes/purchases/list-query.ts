import type { TradeListQuery } from "../../../domain/trades/list-trades.ts";

/** The shared list body of purchase/orders/list and sell_order/history (docs/design/official-operations.md#the-30-operations). */
export function listQuery(body: {
  page_num: number;
  page_size: number;
  state?: string;
  goods_id?: number;
  start_time?: number;
  end_time?: number;
}): TradeListQuery {
  return {
    pageNum: body.page_num,
    pageSize: body.page_size,
    ...(body.state !== undefined ? { state: body.state } : {}),
    ...(body.goods_id !== undefined ? { goodsId: body.goods_id } : {}),
    ...(body.start_time !== undefined ? { startTime: body.start_time } : {}),
    ...(body.end_time !== undefined ? { endTime: body.end_time } : {}),
  };
}
