import type { Selectable } from "kysely";
import type { TradesTable, UserAccountKind } from "../../storage/schema.ts";
import { recordAudit } from "../audit.ts";
import { settleFill } from "./settle-fill.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { noteChangedGoods } from "../transaction.ts";
import { postJournalEntry, type JournalLine } from "../wallet/ledger.ts";

export type TradeRow = Selectable<TradesTable>;

/** The states in which the buyer's money waits in escrow. */
export const IN_FLIGHT_STATES = ["SELLER_TO_SEND_OFFER", "TRADING"] as const;

/**
 * A delivered trade (docs/design/trade-protection.md#who-is-credited-when): escrow pays the fee
 * account the fee and the seller the price less the fee, in one entry with the state change. While
 * the platform may still reverse the trade (`protectedUntil` in the future), the seller's share
 * waits in the seller's own escrow and `release-protected-trades` moves it to their balance when
 * the window ends; a trade the platform no longer protects is released at once. Runs inside the
 * caller's transaction; the conditional update makes a second settlement of the same trade a no-op.
 */
export async function completeTrade(
  ctx: DomainContext,
  trade: TradeRow,
  delivered: { receivedAssetid: string | undefined; protectedUntil: Date | null },
): Promise<Result<void>> {
  const now = ctx.clock.now();
  const held = delivered.protectedUntil !== null && delivered.protectedUntil > now;
  const updated = await ctx.db
    .updateTable("trades")
    .set({
      state: "SUCCESS",
      updated_at: now,
      received_assetid: delivered.receivedAssetid ? Number(delivered.receivedAssetid) : null,
      protected_until: delivered.protectedUntil,
      released_at: held ? null : now,
    })
    .where("trade_id", "=", trade.trade_id)
    .where("state", "in", [...IN_FLIGHT_STATES])
    .returning("trade_id")
    .executeTakeFirst();
  if (!updated) return fail("Invalid State", `trade ${trade.trade_id} is no longer in flight`);
  // No price moves, but the goods' count of completed trades does (the catalog's `transacted_num`).
  noteChangedGoods(ctx, [trade.goods_id]);
  await settleFill(ctx, trade, true);
  const posted = await postJournalEntry(ctx, {
    kind: "trade_payout",
    reference: `trade:${trade.trade_id}`,
    lines: [
      { account: { userId: trade.buyer_id, kind: "escrow" }, amount: -trade.price },
      {
        account: { userId: trade.seller_id, kind: held ? "escrow" : "balance" },
        amount: trade.price - trade.fee,
      },
      { account: { system: "fees" }, amount: trade.fee },
    ],
  });
  if (!posted.ok) return posted;
  await recordAudit(ctx, {
    action: "trade.success",
    subject: `trade:${trade.trade_id}`,
    details: {
      entry_id: posted.value,
      ...(held ? { protected_until: delivered.protectedUntil!.toISOString() } : {}),
    },
  });
  return ok(undefined);
}

/** A failed trade: the buyer gets back exactly what each account paid; the item stays with the seller. */
export async function failTrade(
  ctx: DomainContext,
  trade: TradeRow,
  rollbackBy: string,
): Promise<Result<void>> {
  const updated = await ctx.db
    .updateTable("trades")
    .set({ state: "FAIL", rollback_by: rollbackBy, updated_at: ctx.clock.now() })
    .where("trade_id", "=", trade.trade_id)
    .where("state", "in", ["PAYING", ...IN_FLIGHT_STATES])
    .returning("trade_id")
    .executeTakeFirst();
  if (!updated) return fail("Invalid State", `trade ${trade.trade_id} is no longer in flight`);
  await settleFill(ctx, trade, false);
  if (trade.state === "PAYING") {
    // The card payment never went through: no money moved, none goes back.
    await recordAudit(ctx, {
      action: "trade.fail",
      subject: `trade:${trade.trade_id}`,
      details: { rollback_by: rollbackBy },
    });
    return ok(undefined);
  }
  // Card money goes back to the card (the outside world); the rest to the accounts that paid.
  const refunds: JournalLine[] = Object.entries(trade.paid_from)
    .filter(([, amount]) => (amount ?? 0) > 0)
    .map(([kind, amount]) => ({
      account:
        kind === "bankcard"
          ? { system: "external" as const }
          : { userId: trade.buyer_id, kind: kind as UserAccountKind },
      amount: amount!,
    }));
  const posted = await postJournalEntry(ctx, {
    kind: "trade_refund",
    reference: `trade:${trade.trade_id}`,
    lines: [{ account: { userId: trade.buyer_id, kind: "escrow" }, amount: -trade.price }, ...refunds],
  });
  if (!posted.ok) return posted;
  await recordAudit(ctx, {
    action: "trade.fail",
    subject: `trade:${trade.trade_id}`,
    details: { rollback_by: rollbackBy },
  });
  return ok(undefined);
}
