import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { takeableByBuyOrder } from "../market/listing-takeable.ts";
import { crossBuyOrder } from "./match.ts";
import { publicBook } from "../market/public-book.ts";

/** Orders looked at in one sweep; the rest wait for the next (every `JOBS_INTERVAL_MS`). */
const SWEEP_LIMIT = 1000;

/**
 * Finishes every crossing that no event finished (docs/design/recovery.md#recovery-at-start):
 * one a crash interrupted between an order's or a listing's commit and its fills, a pre-sell
 * listing whose cooldown ended, a unit given back by a failed fill. Each order of the public book
 * that a listing on sale could fill by price crosses the book as at its creation (cheapest
 * listings first, at each listing's price), best order first, then oldest. Each fill is its own
 * transaction with the locks of any crossing, so a sweep on several instances at once, or beside
 * the requests, fills each unit once. Run at start and as a job; answers the trades opened.
 */
export async function crossStandingOrders(ctx: DomainContext): Promise<number> {
  const now = ctx.clock.now();
  const crossed = await publicBook(ctx.db)
    .select("buy_orders.buy_order_id")
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("listings")
          .select(sql.lit(1).as("one"))
          .whereRef("listings.goods_id", "=", "buy_orders.goods_id")
          .where(takeableByBuyOrder(now)),
      ),
    )
    .orderBy("buy_orders.price", "desc")
    .orderBy("buy_orders.buy_order_id")
    .limit(SWEEP_LIMIT)
    .execute();
  let opened = 0;
  // One at a time, in price-time order: a better order takes the cheap listings first.
  for (const order of crossed) opened += (await crossBuyOrder(ctx, order.buy_order_id)).length;
  return opened;
}
