import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { noteChangedGoods } from "../transaction.ts";

/**
 * A buy order's fill has finished (docs/design/buy-orders.md#placing-supplying-and-cancelling): its price leaves `frozen_amount`; a
 * delivered unit counts in `real_num` (the order succeeds when all are delivered), a failed one
 * goes back to the order, which wants it again while it is in progress. Notes the goods: the
 * units the order wants are one of its figures.
 */
export async function settleFill(
  tx: DomainContext,
  trade: { buy_order_id: number | null; goods_id: number; price: number },
  delivered: boolean,
): Promise<void> {
  if (trade.buy_order_id === null) return;
  noteChangedGoods(tx, [trade.goods_id]);
  const realNum = delivered ? sql<number>`real_num + 1` : sql<number>`real_num`;
  await tx.db
    .updateTable("buy_orders")
    .set({
      frozen_num: sql`frozen_num - 1`,
      frozen_amount: sql`frozen_amount - ${trade.price}`,
      real_num: realNum,
      state: sql`CASE WHEN state = 'progressing' AND ${realNum} = num THEN 'success' ELSE state END`,
      updated_at: tx.clock.now(),
    })
    .where("buy_order_id", "=", trade.buy_order_id)
    .execute();
}
