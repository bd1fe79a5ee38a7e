import type { EventType } from "@skinmarket/contract";
import type { BuyOrderRow } from "../buy-orders/match.ts";
import { findOrderGoods } from "../market/public-book.ts";
import { toBookRecord } from "../buy-orders/read-buy-order-book.ts";
import type { DomainContext } from "../context.ts";
import type { NewEvent } from "./new-event.ts";

/** A change of one buy order, as the outbox wrote it. */
export interface OrderChange {
  seq: number;
  type: string;
  order: BuyOrderRow;
}

/** Whether the order, as the change left it, is one the public book shows (`publicBook`'s rule). */
function inBook(order: BuyOrderRow, ownerOnline: boolean): boolean {
  return ownerOnline && order.state === "progressing" && order.real_num + order.frozen_num < order.num;
}

/**
 * The public book's events for buy-order changes (docs/design/events.md#types): an order that enters
 * the book is `market.buy_order_added`, one still in it after a change `market.buy_order_changed`,
 * one that left it (filled, cancelled, expired, paused) `market.buy_order_removed`; each carries
 * the record `goods/buy_order` answers for it. Orders of buyers who are offline are not in the
 * book, so their changes make no public event (the owner's status is read at the round, as the
 * price events read it).
 */
export async function bookEventsOf(
  ctx: DomainContext,
  changes: readonly OrderChange[],
): Promise<Map<number, NewEvent>> {
  const events = new Map<number, NewEvent>();
  const relevant = changes.filter((change) => change.type !== "buy_order.status_changed");
  if (relevant.length === 0) return events;
  const userIds = [...new Set(relevant.map((change) => change.order.user_id))];
  const goodsIds = [...new Set(relevant.map((change) => change.order.goods_id))];
  const [owners, goodsRows] = await Promise.all([
    ctx.db
      .selectFrom("users")
      .select(["user_id", "buy_order_status"])
      .where("user_id", "in", userIds)
      .execute(),
    Promise.all(goodsIds.map((goodsId) => findOrderGoods(ctx, goodsId))),
  ]);
  const online = new Set(
    owners.filter((owner) => owner.buy_order_status === "online").map((owner) => owner.user_id),
  );
  const goodsOf = new Map(goodsRows.flatMap((goods) => (goods ? [[goods.goods_id, goods] as const] : [])));
  for (const { seq, type, order } of relevant) {
    const goods = goodsOf.get(order.goods_id);
    if (!goods || !online.has(order.user_id)) continue;
    let bookType: EventType;
    if (inBook(order, true))
      bookType = type === "buy_order.created" ? "market.buy_order_added" : "market.buy_order_changed";
    else if (type === "buy_order.created") continue;
    else bookType = "market.buy_order_removed";
    events.set(seq, {
      type: bookType,
      user_id: null,
      goods_id: order.goods_id,
      data: toBookRecord(ctx, order, goods),
    });
  }
  return events;
}
