import type { Fen } from "@skinmarket/contract";
import { sql } from "kysely";
import type { PayMethod, UserAccountKind } from "../../storage/schema.ts";
import { auditRow } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { lockUserAccounts, postJournalEntry, type UserBalances } from "../wallet/ledger.ts";

/** The seller's delivery time: the offer must be sent within 12 hours (docs/design.md section 6). */
export const DELIVERY_WINDOW_MS = 12 * 3600 * 1000;

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
 * Writes the trade of a sold listing, with its audit row, in one statement. A paid trade waits for
 * the seller's offer; its delivery time starts when the item leaves trade cooldown (a pre-sell
 * sale), or now. A card payment waits in `PAYING` until the card network answers.
 */
export async function openTrade(
  tx: DomainContext,
  input: {
    listing: SoldListing;
    buyerId: number;
    destination: { tradeUrl: string; platformid: string };
    price: Fen;
    fee: Fen;
    payMethod: PayMethod;
    paidFrom: PaidFrom;
    buyOrderId?: number;
  },
): Promise<number> {
  const { listing } = input;
  const now = tx.clock.now();
  const card = input.payMethod === "bankcard";
  const deliverableFrom = Math.max(now.getTime(), listing.tradable_after?.getTime() ?? 0);
  const audit = auditRow(tx, {
    action: "trade.create",
    details: {
      listing_id: listing.listing_id,
      price_fen: input.price,
      paid_from: input.paidFrom,
      ...(input.buyOrderId !== undefined ? { buy_order_id: input.buyOrderId } : {}),
    },
  });
  const { trade_id: tradeId } = await tx.db
    .with("trade", (db) =>
      db
        .insertInto("trades")
        .values({
          listing_id: listing.listing_id,
          buyer_id: input.buyerId,
          seller_id: listing.user_id,
          goods_id: listing.goods_id,
          assetid: listing.assetid,
          seller_platformid: listing.platformid,
          buyer_platformid: input.destination.platformid,
          buyer_trade_url: input.destination.tradeUrl,
          price: input.price,
          fee: input.fee,
          pay_method: input.payMethod,
          paid_from: JSON.stringify(input.paidFrom),
          state: card ? "PAYING" : "SELLER_TO_SEND_OFFER",
          asset: JSON.stringify(listing.asset),
          deliver_by: card ? null : new Date(deliverableFrom + DELIVERY_WINDOW_MS),
          buy_order_id: input.buyOrderId ?? null,
          created_at: now,
          updated_at: now,
        })
        .returning("trade_id"),
    )
    .with("audit", (db) =>
      db
        .insertInto("audit_events")
        .columns(["created_at", "actor", "action", "subject", "details", "request_id"])
        .expression((eb) =>
          eb
            .selectFrom("trade")
            .select([
              sql<Date>`${audit.created_at}::timestamptz`.as("created_at"),
              sql<string>`${audit.actor}::text`.as("actor"),
              sql<string>`${audit.action}::text`.as("action"),
              sql<string>`'trade:' || trade.trade_id`.as("subject"),
              sql<string>`${audit.details}::jsonb`.as("details"),
              sql<string | null>`${audit.request_id}::text`.as("request_id"),
            ]),
        ),
    )
    .selectFrom("trade")
    .select("trade_id")
    .executeTakeFirstOrThrow();
  return tradeId;
}
