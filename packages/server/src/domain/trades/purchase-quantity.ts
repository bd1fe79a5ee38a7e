import { parseMoney } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { listingTakeable } from "../market/listing-takeable.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";

/**
 * Units of a goods a purchase could take now (reference: purchase/quantity): the listings the
 * caller may take (`listingTakeable`, out of cooldown) at or below `max_price`.
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
  const query = ctx.db
    .selectFrom("listings")
    .select((eb) => eb.fn.countAll<string>().as("quantity"))
    .where("goods_id", "=", goods.goods_id)
    .where(
      listingTakeable({
        buyerId: ctx.actor.userId,
        ...(maxPrice?.ok ? { maxPrice: maxPrice.fen } : {}),
        at: ctx.clock.now(),
        cooldownAllowed: false,
      }),
    );
  const { quantity } = await query.executeTakeFirstOrThrow();
  return ok({ quantity: Number(quantity) });
}
