import { formatMoney } from "@skinmarket/contract";
import { sql } from "kysely";
import { recordAudit } from "../../domain/audit.ts";
import type { DomainContext } from "../../domain/context.ts";
import { withdrawListingsOfItems } from "../../domain/listings/withdraw-listings-of-items.ts";
import { fail, ok, type Result } from "../../domain/result.ts";
import { inTransaction, noteChangedGoods, noteNoMarketChange } from "../../domain/transaction.ts";
import { postJournalEntry, type JournalLine } from "../../domain/wallet/ledger.ts";
import type { UserAccountKind } from "../../storage/schema.ts";
import { TRADE_COOLDOWN_MS } from "./trade-offers.ts";

/** `rollback_by` of a trade the platform reversed after delivery. */
export const PLATFORM_ROLLBACK = "platform_rollback";

export interface RolledBackTrade {
  tradeId: number;
  rollbackBy: string;
  returnedAssetid: string;
  /** Fen paid back to the buyer (the price). */
  refunded: number;
  /**
   * Fen taken back from the seller (the price less the fee; the fee comes from the fee account):
   * from their escrow while the sale is held, from their balance once released.
   */
  takenFromSeller: number;
}

/**
 * The platform reverses a delivered trade (docs/design/simulation.md#scenarios), in one
 * transaction: the item leaves the buyer's account for the seller's under a new assetid (in trade
 * cooldown, as any arrival), a listing of it on sale is withdrawn, and one balanced journal entry
 * takes the seller's income from their escrow (held under protection) or balance (released) and
 * the fee from the fee account and pays the buyer back into the accounts that paid (card money to the card). The trade becomes `FAIL` with
 * `rollback_by`, which the event log announces as `trade.rolled_back`; a buy order it filled
 * wants the unit again. A seller whose balance no longer holds the income is refused
 * (`Insufficient Balance`): nothing changes, and the sandbox admin can deposit and try again.
 *
 * As on Steam since its trade protection, only a trade inside its protection window is reversed
 * (docs/design/trade-protection.md#the-platforms-window), and its offer then reads `reverted`. The
 * offer's row is locked before the check, so a reversal and the window's end cannot both win.
 */
export async function rollbackTrade(
  ctx: DomainContext,
  input: { tradeId: number; rollbackBy?: string },
): Promise<Result<RolledBackTrade>> {
  if (ctx.actor.kind !== "admin") return fail("Access Denied", "only the sandbox admin rolls trades back");
  const rollbackBy = input.rollbackBy ?? PLATFORM_ROLLBACK;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const trade = await tx.db
      .selectFrom("trades")
      .selectAll()
      .where("trade_id", "=", input.tradeId)
      .forUpdate()
      .executeTakeFirst();
    if (!trade) return fail("Not Found", `trade ${input.tradeId} does not exist`);
    if (trade.state !== "SUCCESS")
      return fail("Invalid State", `only a delivered trade can be rolled back; this one is ${trade.state}`);
    if (trade.received_assetid === null)
      return fail("Invalid State", "the trade has no delivered item on the platform to take back");
    const offer = await lockReversibleOffer(tx, trade.tradeofferid);
    if (!offer.ok) return offer;
    const received = Number(trade.received_assetid);
    const held = await tx.db
      .selectFrom("sandbox_assets")
      .select(["assetid", "platformid", "traded_to_assetid"])
      .where("assetid", "=", received)
      .forUpdate()
      .executeTakeFirst();
    if (!held || held.traded_to_assetid !== null || held.platformid !== trade.buyer_platformid)
      return fail("Invalid State", "the buyer no longer holds the item; it cannot be taken back");
    const inTrade = await tx.db
      .selectFrom("listings")
      .select("listing_id")
      .where("assetid", "=", received)
      .where("state", "=", sql.lit("SOLD"))
      .where("trade_ended", "=", sql.lit(false))
      .executeTakeFirst();
    if (inTrade) return fail("Invalid State", "the buyer sold the item again and that trade is not finished");

    // Money first: a seller who cannot pay it back stops the rollback before anything moved.
    const income = trade.price - trade.fee;
    const refunds: JournalLine[] = Object.entries(trade.paid_from)
      .filter(([, amount]) => (amount ?? 0) > 0)
      .map(([kind, amount]) => ({
        account:
          kind === "bankcard"
            ? { system: "external" as const }
            : { userId: trade.buyer_id, kind: kind as UserAccountKind },
        amount: amount!,
      }));
    // A sale still held under protection gives back what waits in the seller's escrow; one
    // released already (a window of zero hours) takes it from their balance.
    const sellerAccount = trade.released_at === null ? ("escrow" as const) : ("balance" as const);
    const lines: JournalLine[] = [
      ...(income > 0 ? [{ account: { userId: trade.seller_id, kind: sellerAccount }, amount: -income }] : []),
      ...(trade.fee > 0 ? [{ account: { system: "fees" as const }, amount: -trade.fee }] : []),
      ...refunds,
    ];
    const posted = await postJournalEntry(tx, {
      kind: "trade_rollback",
      reference: `trade:${trade.trade_id}`,
      lines,
    });
    if (!posted.ok) {
      return posted.failure.code === "Insufficient Balance"
        ? fail(
            "Insufficient Balance",
            `the seller's balance no longer holds the ${formatMoney(income)} this rollback takes back; nothing was reversed`,
          )
        : posted;
    }

    // The item goes back: a new assetid in the seller's account, in cooldown as any arrival.
    const now = tx.clock.now();
    const moved = await sql<{ assetid: number }>`
      INSERT INTO sandbox_assets (assetid, platformid, goods_id, classid, instanceid, paintwear, paintseed, paintindex,
        stickers, keychains, nametag, tradable_after, acquired_at, traded_from_assetid)
      SELECT nextval('sandbox_assetid_seq'), ${trade.seller_platformid}, goods_id, classid, instanceid, paintwear,
        paintseed, paintindex, stickers, keychains, nametag, ${new Date(now.getTime() + TRADE_COOLDOWN_MS)}, ${now},
        assetid
      FROM sandbox_assets WHERE assetid = ${received}
      RETURNING assetid
    `.execute(tx.db);
    const returnedAssetid = moved.rows[0]!.assetid;
    await tx.db
      .updateTable("sandbox_assets")
      .set({ traded_to_assetid: returnedAssetid })
      .where("assetid", "=", received)
      .execute();
    await withdrawListingsOfItems(tx, [received]);

    // Steam shows a trade reversed under protection as its offer in state 12 (`reverted`).
    await tx.db
      .updateTable("sandbox_trade_offers")
      .set({ state: "reverted", updated_at: now })
      .where("tradeofferid", "=", offer.value)
      .execute();
    await tx.db
      .updateTable("trades")
      .set({ state: "FAIL", rollback_by: rollbackBy, updated_at: now })
      .where("trade_id", "=", trade.trade_id)
      .execute();
    // The goods' completed trades count one less (the catalog's `transacted_num`), and an order's
    // figures move below.
    noteChangedGoods(tx, [trade.goods_id]);
    if (trade.buy_order_id !== null) {
      // The order's delivered unit is gone: it counts one less and, if it was complete, wants it again.
      await tx.db
        .updateTable("buy_orders")
        .set({
          real_num: sql`real_num - 1`,
          state: sql`CASE WHEN state = 'success' THEN 'progressing' ELSE state END`,
          updated_at: now,
        })
        .where("buy_order_id", "=", trade.buy_order_id)
        .execute();
    }
    await recordAudit(tx, {
      action: "trade.rollback",
      subject: `trade:${trade.trade_id}`,
      details: { rollback_by: rollbackBy, entry_id: posted.value, returned_assetid: String(returnedAssetid) },
    });
    return ok({
      tradeId: trade.trade_id,
      rollbackBy,
      returnedAssetid: String(returnedAssetid),
      refunded: trade.price,
      takenFromSeller: income,
    });
  });
}

/**
 * The trade's accepted offer, locked, while its protection window is open; its id. The window is
 * read by the sandbox clock, the one that set it.
 */
async function lockReversibleOffer(tx: DomainContext, tradeofferid: number | null): Promise<Result<number>> {
  const offer =
    tradeofferid === null
      ? undefined
      : await tx.db
          .selectFrom("sandbox_trade_offers")
          .select(["tradeofferid", "state", "reversible_until"])
          .where("tradeofferid", "=", tradeofferid)
          .forUpdate()
          .executeTakeFirst();
  if (!offer || offer.state !== "accepted")
    return fail("Invalid State", "the trade has no accepted offer on the platform to reverse");
  const now = tx.clock.now();
  if (offer.reversible_until === null || offer.reversible_until <= now)
    return fail(
      "Invalid State",
      `the trade's protection window ended at ${(offer.reversible_until ?? now).toISOString()}; the platform no longer reverses it`,
    );
  return ok(offer.tradeofferid);
}
