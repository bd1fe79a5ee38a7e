import { sql, type Kysely } from "kysely";
import type { Database } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";
import { noteChangedGoods } from "../transaction.ts";

/**
 * The public buy-order book (docs/design/buy-orders.md#placing-supplying-and-cancelling): orders in progress that still want units,
 * of buyers who are online. Matching, market prices, the book page and the price snapshot all read
 * it through this one query.
 */
export function publicBook(db: Kysely<Database>) {
  return db
    .selectFrom("buy_orders")
    .innerJoin("users", "users.user_id", "buy_orders.user_id")
    .where("buy_orders.state", "=", sql.lit("progressing"))
    .where("users.buy_order_status", "=", "online")
    .where(sql<boolean>`buy_orders.real_num + buy_orders.frozen_num < buy_orders.num`);
}

/**
 * Notes the goods of a buyer's orders in progress as changed: the buyer went online or offline,
 * so those orders joined or left the public book, and with them the goods' buy figures.
 */
export async function noteBuyerOrdersChanged(tx: DomainContext, userId: number): Promise<void> {
  const orders = await tx.db
    .selectFrom("buy_orders")
    .select("goods_id")
    .distinct()
    .where("user_id", "=", userId)
    .where("state", "=", sql.lit("progressing"))
    .execute();
  noteChangedGoods(
    tx,
    orders.map((order) => order.goods_id),
  );
}

/** The goods fields buy orders work with: their constraints, the book's icon, supplied items' info. */
export async function findOrderGoods(ctx: DomainContext, goodsId: number) {
  return ctx.db
    .selectFrom("goods")
    .select([
      "goods_id",
      "market_hash_name",
      "paintwear_min",
      "paintwear_max",
      "paint_index",
      "tags",
      "icon_url",
      "type",
    ])
    .where("goods_id", "=", goodsId)
    .executeTakeFirst();
}
