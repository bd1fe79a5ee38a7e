import { formatMoney, sandboxFundAccount, sandboxGetBalances } from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { ok } from "../../../domain/result.ts";
import { fundAccount } from "../../../domain/wallet/fund-account.ts";
import { getUserBalances } from "../../../domain/wallet/get-user-balances.ts";
import type { UserBalances } from "../../../domain/wallet/ledger.ts";
import { registerOperation } from "../../operation-route.ts";

function balancesView(balances: UserBalances) {
  return {
    balance: formatMoney(balances.balance),
    margin: formatMoney(balances.margin),
    wallet: formatMoney(balances.wallet),
    escrow: formatMoney(balances.escrow),
  };
}

export function registerSandboxFunds(app: FastifyInstance): void {
  registerOperation(app, sandboxFundAccount, async ({ ctx, params, body }) => {
    const funded = await fundAccount(ctx, {
      userId: Number(params.user_id),
      account: body.account,
      amount: body.amount,
    });
    if (!funded.ok) return funded;
    return ok(balancesView(funded.value));
  });

  registerOperation(app, sandboxGetBalances, async ({ ctx, params }) => {
    const balances = await getUserBalances(ctx, { userId: Number(params.user_id) });
    if (!balances.ok) return balances;
    return ok(balancesView(balances.value));
  });
}
