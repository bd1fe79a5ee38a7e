import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";

/** `Not Found` unless the user exists; the common first check of verbs that take a user id. */
export async function requireUser(ctx: DomainContext, userId: number): Promise<Result<{ userId: number }>> {
  const user = await ctx.db
    .selectFrom("users")
    .select("user_id")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return user ? ok({ userId: user.user_id }) : fail("Not Found", `user ${userId} does not exist`);
}
