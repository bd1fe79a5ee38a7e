import { formatMoney, parseMoney, type Fen } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { postJournalEntry, type LockedAccount } from "../wallet/ledger.ts";
import { adjustLimitFen } from "./adjust-balance.ts";
import { checkReason, recordStaffAction } from "./record-staff-action.ts";
import { requireStaff } from "./staff-roles.ts";

export type RefundSource = "seller" | "house";

export interface Refund {
  tradeId: number;
  entryId: number;
  amount: Fen;
  fromSeller: Fen;
  fromHouse: Fen;
  refunded: Fen;
}

/**
 * Refunds a completed trade to its buyer's balance, in full or in part (finance, admin;
 * docs/design/back-office-money.md#refunds). Only a trade whose seller has been paid
 * (`released_at`): before that the platform may still reverse it. From the `seller`, the seller's
 * balance pays up to what the sale brought them (price less fee) and the house's `adjustments`
 * account the rest (the fee, which stays earned); from the `house`, the house pays all. The
 * refunds of a trade never exceed its price. One journal entry and its staff action.
 */
export async function refundTrade(
  ctx: DomainContext,
  input: { tradeId: number; amount?: unknown; from: RefundSource; reason: string },
): Promise<Result<Refund>> {
  const caller = requireStaff(ctx, "trade.refund");
  if (!caller.ok) return caller;
  const reason = checkReason(input.reason);
  if (!reason.ok) return reason;
  const parsed =
    input.amount === undefined
      ? undefined
      : parseMoney(input.amount, { allowNegative: false, allowZero: false });
  if (parsed && !parsed.ok) return invalidArgument("amount", parsed.reason);
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const trade = await tx.db
      .selectFrom("trades")
      .select([
        "trade_id",
        "buyer_id",
        "seller_id",
        "price",
        "fee",
        "state",
        "released_at",
        "refunded",
        "refunded_by_seller",
      ])
      .where("trade_id", "=", input.tradeId)
      .forUpdate()
      .executeTakeFirst();
    if (!trade) return fail("Not Found", `trade ${input.tradeId} does not exist`);
    if (trade.state !== "SUCCESS")
      return fail(
        "Invalid State",
        `trade_id: only a completed trade is refunded; this one is ${trade.state}`,
      );
    if (trade.released_at === null)
      return fail(
        "Invalid State",
        "trade_id: the seller's income is still held under trade protection; the trade may yet be reversed",
      );
    const buyer = await tx.db
      .selectFrom("users")
      .select("closed_at")
      .where("user_id", "=", trade.buyer_id)
      .executeTakeFirstOrThrow();
    if (buyer.closed_at !== null) return fail("Invalid State", "trade_id: the buyer's account is closed");
    const left = trade.price - trade.refunded;
    const amount = parsed?.fen ?? left;
    if (left === 0) return fail("Invalid State", "trade_id: the trade is refunded in full already");
    if (amount > left) return invalidArgument("amount", `at most ${formatMoney(left)} is left to refund`);
    const limit = adjustLimitFen(ctx.rules, caller.value.role, "credit") ?? 0;
    if (amount > limit)
      return fail(
        "Access Denied",
        `amount: the ${caller.value.role} role may refund at most ${formatMoney(limit)} by hand`,
      );
    // What the seller has already given back counts against what the sale brought them.
    const sellerShareLeft = Math.max(0, trade.price - trade.fee - trade.refunded_by_seller);
    const fromSeller = input.from === "seller" ? Math.min(amount, sellerShareLeft) : 0;
    const fromHouse = amount - fromSeller;
    const accounts = await tx.db
      .selectFrom("ledger_accounts")
      .select(["account_id", "user_id", "kind", "balance"])
      .where((eb) =>
        eb.or([
          eb.and([eb("user_id", "in", [trade.buyer_id, trade.seller_id]), eb("kind", "=", "balance")]),
          eb.and([eb("user_id", "is", null), eb("kind", "=", "adjustments")]),
        ]),
      )
      .orderBy("account_id")
      .forUpdate()
      .execute();
    const posted = await postJournalEntry(
      tx,
      {
        kind: "refund",
        reference: `trade:${trade.trade_id}`,
        memo: { staff_id: caller.value.staffId, from: input.from },
        lines: [
          { account: { userId: trade.buyer_id, kind: "balance" }, amount },
          { account: { userId: trade.seller_id, kind: "balance" }, amount: -fromSeller },
          { account: { system: "adjustments" }, amount: -fromHouse },
        ],
      },
      accounts as LockedAccount[],
    );
    if (!posted.ok)
      return fail(
        "Insufficient Balance",
        `from: the seller's balance holds less than ${formatMoney(fromSeller)}`,
      );
    await tx.db
      .updateTable("trades")
      .set({ refunded: trade.refunded + amount, refunded_by_seller: trade.refunded_by_seller + fromSeller })
      .where("trade_id", "=", trade.trade_id)
      .execute();
    await recordStaffAction(tx, {
      staffId: caller.value.staffId,
      operation: "trade.refund",
      subject: `trade:${trade.trade_id}`,
      reason: reason.value,
      before: { refunded: formatMoney(trade.refunded) },
      after: {
        refunded: formatMoney(trade.refunded + amount),
        buyer_id: trade.buyer_id,
        seller_id: trade.seller_id,
        from_seller_fen: fromSeller,
        from_house_fen: fromHouse,
        entry_id: posted.value,
      },
    });
    return ok({
      tradeId: trade.trade_id,
      entryId: posted.value,
      amount,
      fromSeller,
      fromHouse,
      refunded: trade.refunded + amount,
    });
  });
}
