import { requireUser } from "../users/require-user.ts";
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
  const user = await requireUser(ctx, input.userId);
  if (!user.ok) return user;
  return ok(await readUserBalances(ctx, input.userId));
}
