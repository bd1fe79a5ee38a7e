import {
  formatMoney,
  sandboxFundAccount,
  sandboxGetBalances,
  sandboxWithdrawFunds,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { ok } from "../../../domain/result.ts";
import { fundAccount, withdrawFunds } from "../../../domain/wallet/fund-account.ts";
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
  for (const [operation, move] of [
    [sandboxFundAccount, fundAccount],
    [sandboxWithdrawFunds, withdrawFunds],
  ] as const) {
    registerOperation(app, operation, async ({ ctx, params, body }) => {
      const moved = await move(ctx, {
        userId: Number(params.user_id),
        account: body.account,
        amount: body.amount,
      });
      if (!moved.ok) return moved;
      return ok(balancesView(moved.value));
    });
  }

  registerOperation(app, sandboxGetBalances, async ({ ctx, params }) => {
    const balances = await getUserBalances(ctx, { userId: Number(params.user_id) });
    if (!balances.ok) return balances;
    return ok(balancesView(balances.value));
  });
}
