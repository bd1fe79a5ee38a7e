import { noteChangedGoods } from "../transaction.ts";
import type { Fen } from "@skinmarket/contract";
import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import { listingTakeable } from "./listing-takeable.ts";
import type { Database } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";

/**
 * Takes the cheapest listing of a goods that a buyer may take (`listingTakeable`) at or below a
 * price, and marks it sold, in one statement: rows other buyers are taking are skipped (`FOR
 * UPDATE SKIP LOCKED`) and the state condition makes a lost race answer nothing. Pre-sell
 * listings only with `allowCooldown`; `also` narrows further (a buy order's constraints).
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
        .where(
          listingTakeable({
            buyerId: input.buyerId,
            maxPrice: input.maxPrice,
            at: now,
            cooldownAllowed: input.allowCooldown,
          }),
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
