import type { Fen } from "@skinmarket/contract";
import { sql } from "kysely";
import type { PayMethod, UserAccountKind } from "../../storage/schema.ts";
import { auditRow } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { DELIVERY_WINDOW_MS } from "../market/delivery-window.ts";
import { lockUserAccounts, postJournalEntry, type UserBalances } from "../wallet/ledger.ts";

/** Which of the buyer's accounts paid how much; `bankcard` is money from outside (a card). */
export type PaidFrom = Partial<Record<UserAccountKind | "bankcard", Fen>>;

/** The sold listing as a trade needs it. */
export interface SoldListing {
  listing_id: number;
  user_id: number;
  platformid: string;
  assetid: number;
  goods_id: number;
  asset: unknown;
  tradable_after: Date | null;
}

/** Which accounts pay how much: in `order`, each as far as it goes; undefined when they cannot. */
export function planPayment(balances: UserBalances, price: Fen, order: readonly UserAccountKind[]) {
  const plan: Partial<Record<UserAccountKind, Fen>> = {};
  let remaining = price;
  for (const kind of order) {
    const take = Math.min(balances[kind], remaining);
    if (take > 0) plan[kind] = take;
    remaining -= take;
  }
  return remaining === 0 ? plan : undefined;
}

/**
 * Moves a price from the buyer's accounts, in `order`, into their escrow, inside the caller's
 * transaction. Answers which accounts paid and the buyer's balance afterwards, or `Insufficient
 * Balance` having written nothing.
 */
export async function payIntoEscrow(
  tx: DomainContext,
  input: { buyerId: number; price: Fen; order: readonly UserAccountKind[]; reference: string },
): Promise<Result<{ paidFrom: PaidFrom; balanceAfter: Fen }>> {
  const buyer = await lockUserAccounts(tx, input.buyerId);
  const plan = planPayment(buyer.balances, input.price, input.order);
  if (!plan) return fail("Insufficient Balance", "insufficient funds for the next unit");
  const payment = await postJournalEntry(
    tx,
    {
      kind: "purchase_payment",
      reference: input.reference,
      lines: [
        ...Object.entries(plan).map(([kind, amount]) => ({
          account: { userId: input.buyerId, kind: kind as UserAccountKind },
          amount: -amount,
        })),
        { account: { userId: input.buyerId, kind: "escrow" }, amount: input.price },
      ],
    },
    buyer.accounts,
  );
  if (!payment.ok) return payment;
  return ok({ paidFrom: plan, balanceAfter: buyer.balances.balance - (plan.balance ?? 0) });
}

/**
 * Writes the trade of a listing sold in the caller's transaction, with its audit row, in one
 * statement (the database's open_trade, which purchases call too). A paid trade waits for the
 * seller's offer; its delivery time starts when the item leaves trade cooldown (a pre-sell sale),
 * or now. A card payment waits in `PAYING` until the card network answers.
 */
export async function openTrade(
  tx: DomainContext,
  input: {
    listing: Pick<SoldListing, "listing_id">;
    buyerId: number;
    destination: { tradeUrl: string; platformid: string };
    price: Fen;
    fee: Fen;
    payMethod: PayMethod;
    paidFrom: PaidFrom;
    buyOrderId?: number;
  },
): Promise<number> {
  const audit = auditRow(tx, { action: "trade.create" });
  const { rows } = await sql<{ trade_id: number }>`
    SELECT open_trade(${input.listing.listing_id}, ${input.buyerId}, ${input.destination.tradeUrl},
      ${input.destination.platformid}, ${input.price}, ${input.fee}, ${input.payMethod},
      ${JSON.stringify(input.paidFrom)}::jsonb, ${input.buyOrderId ?? null}::bigint, ${audit.created_at},
      ${DELIVERY_WINDOW_MS}, ${audit.actor}, ${audit.request_id}::text) AS trade_id
  `.execute(tx.db);
  return rows[0]!.trade_id;
}
