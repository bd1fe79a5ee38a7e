import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { readUserBalances, type UserBalances } from "./ledger.ts";

/** Any user's balances, for the sandbox admin. */
export async function getUserBalances(
  ctx: DomainContext,
  input: { userId: number },
): Promise<Result<UserBalances>> {
  if (ctx.actor.kind !== "admin")
    return fail("Access Denied", "only the sandbox admin reads other users' balances");
  const user = await ctx.db
    .selectFrom("users")
    .select("user_id")
    .where("user_id", "=", input.userId)
    .executeTakeFirst();
  if (!user) return fail("Not Found", `user ${input.userId} does not exist`);
  return ok(await readUserBalances(ctx, input.userId));
}
