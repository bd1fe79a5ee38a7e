import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import type { BookmarkInput, BookmarkState } from "./add-bookmark.ts";

/** Removes one of the signed-in user's bookmarks; removing one that is not there changes nothing. */
export async function removeBookmark(
  ctx: DomainContext,
  input: BookmarkInput,
): Promise<Result<BookmarkState>> {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  await ctx.db
    .deleteFrom("bookmarks")
    .where("user_id", "=", ctx.actor.userId)
    .where("target_type", "=", input.type)
    .where("target_id", "=", Number(input.id))
    .execute();
  return ok({ type: input.type, id: input.id, bookmarked: false });
}
