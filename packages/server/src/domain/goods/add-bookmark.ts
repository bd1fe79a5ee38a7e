import { INT32_MAX } from "@skinmarket/contract";
import type { BookmarkTarget } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";

export interface BookmarkInput {
  type: BookmarkTarget;
  id: string;
}

export interface BookmarkState {
  type: BookmarkTarget;
  id: string;
  bookmarked: boolean;
}

/**
 * The signed-in user bookmarks a goods of the catalog or a listing on sale. Bookmarking twice
 * changes nothing; a target that does not exist (or a listing no longer on sale) is refused.
 */
export async function addBookmark(ctx: DomainContext, input: BookmarkInput): Promise<Result<BookmarkState>> {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const targetId = Number(input.id);
  // Goods ids are the catalog's `integer` key: a larger id names no goods (and would make the
  // database refuse the comparison), while listing ids take all the digits an id may have.
  const exists =
    input.type === "goods"
      ? targetId <= INT32_MAX &&
        (await ctx.db
          .selectFrom("goods")
          .select("goods_id")
          .where("goods_id", "=", targetId)
          .executeTakeFirst())
      : await ctx.db
          .selectFrom("listings")
          .select("listing_id")
          .where("listing_id", "=", targetId)
          .where("state", "=", "ON_SALE")
          .executeTakeFirst();
  if (!exists)
    return invalidArgument(
      "id",
      input.type === "goods" ? `no goods ${input.id} in the catalog` : `no listing ${input.id} on sale`,
    );
  await ctx.db
    .insertInto("bookmarks")
    .values({
      user_id: ctx.actor.userId,
      target_type: input.type,
      target_id: targetId,
      created_at: ctx.clock.now(),
    })
    .onConflict((conflict) => conflict.columns(["user_id", "target_type", "target_id"]).doNothing())
    .execute();
  return ok({ type: input.type, id: input.id, bookmarked: true });
}
