import { recordAudit } from "../audit.ts";
import { crossListing } from "../buy-orders/match.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { inTransaction, noteChangedGoods } from "../transaction.ts";
import { parseListingPrice } from "../market/parse-listing-price.ts";

const NOT_YOURS = "no listing of yours on sale with this id";

/**
 * Takes the caller's listings off sale (reference: DELETE sell_order/items). Each id answers "OK"
 * or why not; another user's listing answers like an unknown one.
 */
export async function delistItems(
  ctx: DomainContext,
  sellOrderIds: string[],
): Promise<Result<Record<string, string>>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const userId = ctx.actor.userId;
  const results: Record<string, string> = {};
  for (const id of sellOrderIds) {
    if (id in results) continue;
    const changed = await inTransaction(ctx, async (tx) => {
      const row = await tx.db
        .updateTable("listings")
        .set({ state: "CANCELLED", updated_at: tx.clock.now() })
        .where("listing_id", "=", Number(id))
        .where("user_id", "=", userId)
        .where("state", "=", "ON_SALE")
        .returning(["listing_id", "goods_id"])
        .executeTakeFirst();
      if (!row) return fail("Not Found", NOT_YOURS);
      noteChangedGoods(tx, [row.goods_id]);
      await recordAudit(tx, { action: "listing.cancel", subject: `listing:${id}` });
      return ok(undefined);
    });
    results[id] = changed.ok ? "OK" : changed.failure.message;
  }
  return ok(results);
}

/** Changes the prices of the caller's listings on sale (PUT sell_order/items), each on its own. */
export async function repriceItems(
  ctx: DomainContext,
  changes: Array<{ sellOrderId: string; price: unknown }>,
): Promise<Result<Record<string, string>>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const userId = ctx.actor.userId;
  const results: Record<string, string> = {};
  for (const change of changes) {
    if (change.sellOrderId in results) {
      results[change.sellOrderId] = "listed twice in this request";
      continue;
    }
    const price = parseListingPrice(change.price, ctx.rules);
    if (!price.ok) {
      results[change.sellOrderId] = `price ${price.reason}`;
      continue;
    }
    const changed = await inTransaction(ctx, async (tx) => {
      const row = await tx.db
        .updateTable("listings")
        .set({ price: price.price, fee: price.fee, updated_at: tx.clock.now() })
        .where("listing_id", "=", Number(change.sellOrderId))
        .where("user_id", "=", userId)
        .where("state", "=", "ON_SALE")
        .returning(["listing_id", "goods_id"])
        .executeTakeFirst();
      if (!row) return fail("Not Found", NOT_YOURS);
      noteChangedGoods(tx, [row.goods_id]);
      await recordAudit(tx, {
        action: "listing.reprice",
        subject: `listing:${change.sellOrderId}`,
        details: { price_fen: price.price },
      });
      return ok(undefined);
    });
    results[change.sellOrderId] = changed.ok ? "OK" : changed.failure.message;
    if (changed.ok) await crossListing(ctx, Number(change.sellOrderId));
  }
  return ok(results);
}
