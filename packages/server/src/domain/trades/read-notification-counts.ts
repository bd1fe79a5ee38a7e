import { sql } from "kysely";
import { toUnixSeconds } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok } from "../result.ts";
import { offerToAnswer, offerToSend, sellerDeliveryPending } from "./list-trades-to-act-on.ts";

/**
 * The website's notification counts (docs/design/website-account-and-selling-routes.md#the-websites-session-and-account-routes), read from the trades themselves
 * at the moment of the answer, so no kept count can drift from them: `to_deliver_order` counts
 * the sales still to deliver (`sell_order/to_deliver`), `to_send_offer_order` the offers the user
 * must send, `to_accept_offer_order` the offers waiting for the user's answer (the same
 * predicates `steam_trade` lists by). Every trade here is CS2's, so Dota 2 counts none;
 * `updated_at` is the moment the counts were read.
 */
export async function readNotificationCounts(ctx: DomainContext) {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const userId = ctx.actor.userId;
  const counts = await ctx.db
    .selectFrom("trades")
    // Only live trades count: the partial indexes of migration 0025 find them.
    .where("state", "in", ["PAYING", "SELLER_TO_SEND_OFFER", "TRADING"])
    .where((eb) => eb.or([eb("seller_id", "=", userId), eb("buyer_id", "=", userId)]))
    .select((eb) => [
      sql<string>`count(*) FILTER (WHERE ${sellerDeliveryPending(eb, userId)})`.as("to_deliver"),
      sql<string>`count(*) FILTER (WHERE ${offerToSend(eb, userId)})`.as("to_send"),
      sql<string>`count(*) FILTER (WHERE ${offerToAnswer(eb, userId)})`.as("to_accept"),
    ])
    .executeTakeFirstOrThrow();
  const perGame = (count: string) => ({ csgo: Number(count), dota2: 0 });
  return ok({
    to_deliver_order: perGame(counts.to_deliver),
    to_send_offer_order: perGame(counts.to_send),
    to_accept_offer_order: perGame(counts.to_accept),
    updated_at: toUnixSeconds(ctx.clock.now()),
  });
}
