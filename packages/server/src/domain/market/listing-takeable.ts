import { sql, type Expression, type RawBuilder, type SqlBool } from "kysely";

/**
 * The rule for which listings a buyer may take, as a condition on the `listings` row of a query:
 * the database function `listing_takeable` (`storage/functions/listing_takeable.sql`), where the
 * rule is written once for the database's purchase functions and for these queries. The planner
 * inlines it, so the conditions select the partial index of listings on sale as if written out.
 * Each input is a value or an expression of the query (a buy order's columns, when the buyer is
 * an order); `maxPrice` left out means no cap. A constant `cooldownAllowed` is a literal, so that
 * the planner drops the cooldown condition where it is allowed.
 */
export function listingTakeable(input: {
  buyerId: number | Expression<number>;
  maxPrice?: number | Expression<number>;
  at: Date;
  cooldownAllowed: boolean | Expression<boolean>;
}): RawBuilder<SqlBool> {
  const maxPrice = input.maxPrice ?? sql.ref("listings.price");
  const cooldownAllowed =
    typeof input.cooldownAllowed === "boolean" ? sql.lit(input.cooldownAllowed) : input.cooldownAllowed;
  return sql<SqlBool>`listing_takeable(listings, ${input.buyerId}, ${maxPrice}, ${input.at}, ${cooldownAllowed})`;
}

/**
 * The rule with a buy order as the buyer: the `buy_orders` row of the query takes the listing at
 * its price, with its own choice about listings in cooldown.
 */
export function takeableByBuyOrder(at: Date): RawBuilder<SqlBool> {
  return listingTakeable({
    buyerId: sql.ref("buy_orders.user_id"),
    maxPrice: sql.ref("buy_orders.price"),
    at,
    cooldownAllowed: sql.ref("buy_orders.allow_tradable_cooldown"),
  });
}
