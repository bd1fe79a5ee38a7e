import type { DomainContext } from "../context.ts";
import { fail, ok } from "../result.ts";
import { billOrderRows, toWebBillOrder } from "./web-bill-order.ts";

/**
 * The bill orders (trades) the caller bought or sold among `ids` (`bill_order/batch/info`), in
 * the order asked. An id of another user's trade is left out exactly as an unknown one: a trade
 * is seen by its two parties only.
 */
export async function readWebBillOrders(ctx: DomainContext, ids: readonly number[]) {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const userId = ctx.actor.userId;
  const rows = await billOrderRows(ctx)
    .where("trades.trade_id", "in", [...ids])
    .where((eb) => eb.or([eb("trades.buyer_id", "=", userId), eb("trades.seller_id", "=", userId)]))
    .execute();
  const now = ctx.clock.now();
  const byId = new Map(rows.map((row) => [row.trade_id, row]));
  const items = [...new Set(ids)].flatMap((id) => {
    const row = byId.get(id);
    return row ? [toWebBillOrder(row, now)] : [];
  });
  return ok({ items });
}
