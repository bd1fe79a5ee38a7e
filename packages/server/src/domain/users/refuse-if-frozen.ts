import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";

export type FreezeKind = "trading" | "withdrawals";

/**
 * Refuses a verb of a frozen account (docs/design/back-office-money.md#freezes), naming the
 * freeze: `trading` for purchases, listings, buy orders and supplying them; `withdrawals` for
 * money leaving the marketplace.
 */
export async function refuseIfFrozen(
  ctx: DomainContext,
  userId: number,
  kind: FreezeKind,
): Promise<Result<void>> {
  const row = await ctx.db
    .selectFrom("users")
    .select(kind === "trading" ? "trading_frozen_at as frozen_at" : "withdrawals_frozen_at as frozen_at")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (row?.frozen_at)
    return fail(
      "Access Denied",
      `${kind}_frozen: the marketplace has frozen this account's ${kind}; write to support to learn why`,
    );
  return ok(undefined);
}
