import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";

const LIVE = new Set(["PAYING", "SELLER_TO_SEND_OFFER", "TRADING"]);

/**
 * The caller's purchases among `ids`, each still live, or the refusal naming `field`: an id that
 * is not a purchase of the caller's answers like an unknown one.
 */
export async function findLivePurchases(
  ctx: DomainContext,
  ids: readonly number[],
  field: string,
): Promise<Result<void>> {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const rows = await ctx.db
    .selectFrom("trades")
    .select(["trade_id", "state"])
    .where("trade_id", "in", [...ids])
    .where("buyer_id", "=", ctx.actor.userId)
    .execute();
  const states = new Map(rows.map((row) => [row.trade_id, row.state]));
  for (const id of ids) {
    const state = states.get(id);
    if (state === undefined) return fail("Not Found", `${field}: no purchase of yours with id ${id}`);
    if (!LIVE.has(state)) return fail("Invalid State", `${field}: the trade ${id} has ended (${state})`);
  }
  return ok(undefined);
}

/**
 * `bill_order/ask_seller_to_send_offer` (docs/design.md section 8): every trade here waits for
 * the seller's offer from the moment it is paid (`SELLER_TO_SEND_OFFER`), so asking changes
 * nothing; the answer confirms that each id is a live purchase of the caller's.
 */
export async function askSellerToSendOffer(ctx: DomainContext, ids: readonly number[]) {
  return findLivePurchases(ctx, ids, "bill_orders");
}
