import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { noteChangedGoods } from "../transaction.ts";

/**
 * Items that left their seller's account on the platform (traded away outside the marketplace)
 * can no longer be sold: the platform calls this in the transaction that moves them, and their
 * listings on sale are withdrawn (docs/design/platform-and-sandbox.md#the-platform). Listings already sold are left to
 * their trades, which fail when the seller cannot deliver. Notes the goods of the listings withdrawn.
 */
export async function withdrawListingsOfItems(
  ctx: DomainContext,
  assetids: readonly number[],
): Promise<number> {
  if (assetids.length === 0) return 0;
  const withdrawn = await ctx.db
    .updateTable("listings")
    .set({ state: "CANCELLED", updated_at: ctx.clock.now() })
    .where("assetid", "in", [...assetids])
    .where("state", "=", sql.lit("ON_SALE"))
    .returning("goods_id")
    .execute();
  noteChangedGoods(
    ctx,
    withdrawn.map((row) => row.goods_id),
  );
  return withdrawn.length;
}
