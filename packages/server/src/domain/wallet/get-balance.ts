import { formatMoney } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { readUserBalances } from "./ledger.ts";

export interface BalanceView {
  market_balance: string;
  margin_balance: string;
  wallet_balance: string;
  frozen_amount: string;
}

/** The caller's own balances (docs/design/website-buying-routes.md#the-accounts-own-data-for-the-website-without-an-api-token: `frozen_amount` is their escrow). */
export async function getBalance(ctx: DomainContext): Promise<Result<BalanceView>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const balances = await readUserBalances(ctx, ctx.actor.userId);
  return ok({
    market_balance: formatMoney(balances.balance),
    margin_balance: formatMoney(balances.margin),
    wallet_balance: formatMoney(balances.wallet),
    frozen_amount: formatMoney(balances.escrow),
  });
}
