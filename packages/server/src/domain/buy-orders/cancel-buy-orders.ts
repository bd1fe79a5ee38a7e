import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { inTransaction, noteChangedGoods } from "../transaction.ts";

const NOT_YOURS = "no buy order of yours with this id";

/**
 * Cancels the caller's buy orders (reference: DELETE buy_order): each id answers `OK` or why not;
 * another user's order answers like an unknown one. Units already matched finish their trades and
 * still count when delivered; a failed one no longer returns to the order.
 */
export async function cancelBuyOrders(
  ctx: DomainContext,
  buyOrderIds: string[],
): Promise<Result<Record<string, string>>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const userId = ctx.actor.userId;
  const results: Record<string, string> = {};
  for (const id of new Set(buyOrderIds)) {
    const cancelled = await inTransaction(ctx, async (tx) => {
      const order = await tx.db
        .selectFrom("buy_orders")
        .select(["state", "goods_id"])
        .where("buy_order_id", "=", Number(id))
        .where("user_id", "=", userId)
        .forUpdate()
        .executeTakeFirst();
      if (!order) return fail("Not Found", NOT_YOURS);
      if (order.state === "success") return fail("Invalid State", "the buy order is already complete");
      if (order.state === "failed") return fail("Invalid State", "the buy order is already cancelled");
      noteChangedGoods(tx, [order.goods_id]);
      await tx.db
        .updateTable("buy_orders")
        .set({ state: "failed", fail_reason: "cancelled by the buyer", updated_at: tx.clock.now() })
        .where("buy_order_id", "=", Number(id))
        .execute();
      await recordAudit(tx, {
        action: "buy_order.cancel",
        subject: `buy_order:${id}`,
        details: { reason: "cancelled by the buyer" },
      });
      return ok(undefined);
    });
    results[id] = cancelled.ok ? "OK" : cancelled.failure.message;
  }
  return ok(results);
}
