import { parseMoney } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";

/**
 * Units of a goods a purchase could take now (reference: purchase/quantity): tradable listings on
 * sale at or below `max_price`, not the caller's own, whose offer the seller sends.
 */
export async function purchaseQuantity(
  ctx: DomainContext,
  input: { goodsId?: number; marketHashName?: string; maxPrice?: unknown },
): Promise<Result<{ quantity: number }>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  if (input.goodsId === undefined && input.marketHashName === undefined)
    return invalidArgument("goods_id", "give goods_id or market_hash_name");
  const maxPrice = input.maxPrice === undefined ? undefined : parseMoney(input.maxPrice);
  if (maxPrice && !maxPrice.ok) return invalidArgument("max_price", maxPrice.reason);
  const goods = await (
    input.goodsId !== undefined
      ? ctx.db.selectFrom("goods").select("goods_id").where("goods_id", "=", input.goodsId)
      : ctx.db.selectFrom("goods").select("goods_id").where("market_hash_name", "=", input.marketHashName!)
  ).executeTakeFirst();
  if (!goods)
    return fail(
      "Not Found",
      `${input.goodsId !== undefined ? "goods_id" : "market_hash_name"}: no such goods in the catalog`,
    );
  const now = ctx.clock.now();
  let query = ctx.db
    .selectFrom("listings")
    .select((eb) => eb.fn.countAll<string>().as("quantity"))
    .where("goods_id", "=", goods.goods_id)
    .where("state", "=", "ON_SALE")
    .where("user_id", "<>", ctx.actor.userId)
    .where("force_buyer_send_offer", "=", false)
    .where((eb) => eb.or([eb("tradable_after", "is", null), eb("tradable_after", "<=", now)]));
  if (maxPrice?.ok) query = query.where("price", "<=", maxPrice.fen);
  const { quantity } = await query.executeTakeFirstOrThrow();
  return ok({ quantity: Number(quantity) });
}
