import type { DomainContext } from "../context.ts";
import { fail, ok } from "../result.ts";
import { sellerDeliveryPending } from "./list-trades-to-act-on.ts";

/**
 * The website's notification counts (docs/design.md section 8): `to_deliver_order` counts the
 * signed-in seller's sales still to deliver, the same trades `steam_trade` lists as `type` 1.
 * Every trade here is CS2's, so Dota 2 counts none.
 */
export async function readNotificationCounts(ctx: DomainContext) {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const userId = ctx.actor.userId;
  const { pending } = await ctx.db
    .selectFrom("trades")
    .where((eb) => sellerDeliveryPending(eb, userId))
    .select((eb) => eb.fn.countAll<string>().as("pending"))
    .executeTakeFirstOrThrow();
  return ok({ to_deliver_order: { csgo: Number(pending), dota2: 0 } });
}
