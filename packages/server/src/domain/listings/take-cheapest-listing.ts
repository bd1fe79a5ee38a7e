import { noteChangedGoods } from "../transaction.ts";
import type { Fen } from "@skinmarket/contract";
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from "kysely";
import type { Database } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";

/**
 * Takes the cheapest listing of a goods that a buyer may have at or below a price, and marks it
 * sold, in one statement: rows other buyers are taking are skipped (`FOR UPDATE SKIP LOCKED`) and
 * the state condition makes a lost race answer nothing. Never the buyer's own listing, never one whose buyer must send the
 * offer; pre-sell listings only with `allowCooldown`; `also` narrows further (a purchase's
 * standard goods, a buy order's constraints). Constants are literals so that the statement's
 * cached plan can use the partial index of listings on sale.
 */
export async function takeCheapestListing(
  tx: DomainContext,
  input: {
    goodsId: number;
    maxPrice: Fen;
    buyerId: number;
    allowCooldown: boolean;
    also?: (eb: ExpressionBuilder<Database, "listings">) => Expression<SqlBool>;
  },
) {
  const now = tx.clock.now();
  noteChangedGoods(tx, [input.goodsId]);
  return tx.db
    .updateTable("listings")
    .set({ state: "SOLD", updated_at: now })
    .where("listing_id", "=", (eb) =>
      eb
        .selectFrom("listings")
        .select("listings.listing_id")
        .where("listings.goods_id", "=", input.goodsId)
        .where("listings.state", "=", sql.lit("ON_SALE"))
        .where("listings.price", "<=", input.maxPrice)
        .where("listings.user_id", "<>", input.buyerId)
        .where("listings.force_buyer_send_offer", "=", sql.lit(false))
        .$if(!input.allowCooldown, (query) =>
          query.where((inner) =>
            inner.or([
              inner("listings.tradable_after", "is", null),
              inner("listings.tradable_after", "<=", now),
            ]),
          ),
        )
        .$if(input.also !== undefined, (query) => query.where((inner) => input.also!(inner)))
        .orderBy("listings.price")
        .orderBy("listings.listing_id")
        .limit(1)
        .forUpdate()
        .skipLocked(),
    )
    .where("state", "=", "ON_SALE")
    .returningAll()
    .executeTakeFirst();
}
