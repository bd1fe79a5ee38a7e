import {
  formatMoney,
  staffAdjustBalance,
  staffFindUsers,
  staffFreezeAccount,
  staffGetUser,
  staffRefundTrade,
} from "@skinmarket/contract";
import type { FastifyInstance } from "fastify";
import { toUnixSeconds } from "../../../domain/clock.ts";
import { ok } from "../../../domain/result.ts";
import { adjustBalance } from "../../../domain/staff/adjust-balance.ts";
import { freezeAccount } from "../../../domain/staff/freeze-account.ts";
import { findUsers, type FoundUser } from "../../../domain/staff/find-users.ts";
import { refundTrade } from "../../../domain/staff/refund-trade.ts";
import { readUserPage } from "../../../domain/staff/read-user-page.ts";
import { registerOperation } from "../../operation-route.ts";

/** Finding users, a user's page, and money by hand (docs/design/back-office-money.md). */
export function registerStaffMoneyRoutes(app: FastifyInstance): void {
  registerOperation(app, staffFindUsers, async ({ ctx, query }) => {
    const found = await findUsers(ctx, { query: query.q });
    if (!found.ok) return found;
    return ok({ code: "OK" as const, data: { items: found.value.map(userView) }, msg: null });
  });

  registerOperation(app, staffGetUser, async ({ ctx, params }) => {
    const page = await readUserPage(ctx, { userId: Number(params.user_id) });
    if (!page.ok) return page;
    const { user, balances, trades, signIns, staffActions } = page.value;
    const data = {
      user: userView(user),
      balances: {
        balance: formatMoney(balances.balance),
        margin: formatMoney(balances.margin),
        wallet: formatMoney(balances.wallet),
        escrow: formatMoney(balances.escrow),
      },
      trades: trades.map((trade) => ({
        trade_id: String(trade.tradeId),
        side: trade.side,
        goods_id: trade.goodsId,
        price: formatMoney(trade.price),
        state: trade.state,
        created_at: toUnixSeconds(trade.createdAt),
      })),
      sign_ins: signIns.map((row) => ({
        signed_in_at: toUnixSeconds(row.signedInAt),
        ip: row.ip,
        user_agent: row.userAgent,
        method: row.method,
      })),
      staff_actions: staffActions.map((row) => ({
        action_id: String(row.actionId),
        acted_at: toUnixSeconds(row.actedAt),
        operation: row.operation,
        reason: row.reason,
        staff_email: row.staffEmail,
      })),
    };
    return ok({ code: "OK" as const, data, msg: null });
  });

  registerOperation(app, staffAdjustBalance, async ({ ctx, params, body }) => {
    const done = await adjustBalance(ctx, {
      userId: Number(params.user_id),
      direction: body.direction,
      amount: body.amount,
      reason: body.reason,
    });
    if (!done.ok) return done;
    const data = {
      user_id: params.user_id,
      entry_id: String(done.value.entryId),
      direction: done.value.direction,
      amount: formatMoney(done.value.amount),
      balance_before: formatMoney(done.value.balanceBefore),
      balance_after: formatMoney(done.value.balanceAfter),
    };
    return ok({ code: "OK" as const, data, msg: null });
  });

  registerOperation(app, staffFreezeAccount, async ({ ctx, params, body }) => {
    const done = await freezeAccount(ctx, {
      userId: Number(params.user_id),
      reason: body.reason,
      ...(body.trading !== undefined ? { trading: body.trading } : {}),
      ...(body.withdrawals !== undefined ? { withdrawals: body.withdrawals } : {}),
    });
    if (!done.ok) return done;
    return ok({ code: "OK" as const, data: { user_id: params.user_id, ...done.value }, msg: null });
  });

  registerOperation(app, staffRefundTrade, async ({ ctx, params, body }) => {
    const done = await refundTrade(ctx, {
      tradeId: Number(params.trade_id),
      from: body.from,
      reason: body.reason,
      ...(body.amount !== undefined ? { amount: body.amount } : {}),
    });
    if (!done.ok) return done;
    const data = {
      trade_id: params.trade_id,
      entry_id: String(done.value.entryId),
      amount: formatMoney(done.value.amount),
      from_seller: formatMoney(done.value.fromSeller),
      from_house: formatMoney(done.value.fromHouse),
      refunded: formatMoney(done.value.refunded),
    };
    return ok({ code: "OK" as const, data, msg: null });
  });
}

function userView(user: FoundUser) {
  return {
    user_id: String(user.userId),
    nickname: user.nickname,
    created_at: toUnixSeconds(user.createdAt),
    closed_at: user.closedAt === null ? null : toUnixSeconds(user.closedAt),
    platform_ids: user.platformIds,
  };
}
