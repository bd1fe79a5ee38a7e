import { formatMoney } from "@skinmarket/contract";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { fail, ok } from "../result.ts";
import { IN_FLIGHT_STATES } from "./settle-trade.ts";
import { readUserBalances } from "../wallet/ledger.ts";

const NONE = formatMoney(0);

/**
 * The signed-in user's balances under the real website's names (`asset/get_brief_asset`,
 * docs/design/website-account-and-selling-routes.md#the-websites-session-and-account-routes). Our accounts map onto them: `balance` is the cash balance, `margin`
 * the buy-order funds (`security_amount`, 保证金), `wallet` the Alipay-type wallet, `escrow` the money
 * frozen in trades. What this marketplace does not have (NetEase pay, pending-divide balances,
 * withdrawals, real-name checks) answers 0.00, 0 or false.
 */
export async function readBriefAsset(ctx: DomainContext) {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const userId = ctx.actor.userId;
  const [balances, fromWallet] = await Promise.all([
    readUserBalances(ctx, userId),
    // The part of the escrow the wallet paid: purchases in flight record what each account paid.
    ctx.db
      .selectFrom("trades")
      .select(sql<string | null>`sum(coalesce((paid_from ->> 'wallet')::bigint, 0))`.as("amount"))
      .where("buyer_id", "=", userId)
      .where("state", "in", [...IN_FLIGHT_STATES])
      .executeTakeFirstOrThrow(),
  ]);
  const wallet = formatMoney(balances.wallet);
  return ok({
    cash_amount: formatMoney(balances.balance),
    cash_amount_outer: formatMoney(balances.balance),
    cash_amount_inner: NONE,
    frozen_amount: formatMoney(balances.escrow),
    security_amount: formatMoney(balances.margin),
    epay_amount: NONE,
    epay_able_withdraw_amount: NONE,
    epay_unable_withdraw_amount: NONE,
    epay_frozen_amount: NONE,
    alipay_amount: wallet,
    alipay_able_withdraw_amount: wallet,
    alipay_unable_withdraw_amount: NONE,
    alipay_frozen_amount: formatMoney(Number(fromWallet.amount ?? 0)),
    pending_divide_amount: NONE,
    pending_divide_alipay_amount_total: NONE,
    pending_divide_epay_amount_total: NONE,
    pending_divide_amount_using: NONE,
    pending_divide_epay_amount_enable: NONE,
    pending_divide_alipay_amount_enable: NONE,
    realname: false,
    remain_withdraw_counts: { epay: 0, alipay: 0, together: 0, airwallex: 0, payoneer: 0 },
    has_admin_frozen_asset: false,
    allow_large_amount_withdraw: false,
    allow_large_amount_withdraw_new: false,
    ejzb_auth: null,
    alipay_refund_info: null,
  });
}
