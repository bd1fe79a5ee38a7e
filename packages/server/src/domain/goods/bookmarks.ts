import type { BookmarkTarget } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";

/** Which of these targets the viewer bookmarked; nobody's for an anonymous viewer. */
export async function bookmarkedIds(
  ctx: DomainContext,
  viewerId: number | undefined,
  type: BookmarkTarget,
  ids: readonly number[],
): Promise<Set<number>> {
  if (viewerId === undefined || ids.length === 0) return new Set();
  const rows = await ctx.db
    .selectFrom("bookmarks")
    .select("target_id")
    .where("user_id", "=", viewerId)
    .where("target_type", "=", type)
    .where("target_id", "in", [...new Set(ids)])
    .execute();
  return new Set(rows.map((row) => row.target_id));
}

/** How many users bookmarked a goods (the goods page's `user_show_count`). */
export async function countGoodsBookmarks(ctx: DomainContext, goodsId: number): Promise<number> {
  const row = await ctx.db
    .selectFrom("bookmarks")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("target_type", "=", "goods")
    .where("target_id", "=", goodsId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
