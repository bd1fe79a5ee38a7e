import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { storedCookies, UPLOAD_COOKIES_HINT } from "../platform-accounts/require-bound-account.ts";
import { fail, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { completeTrade } from "./settle-trade.ts";

/** The message an order's offer carries: the website shows it so the receiver can check the offer. */
export function offerMessage(tradeId: number): string {
  return `skinmarket order ${tradeId}`;
}

/**
 * The seller sends the trade offer for a sold item (reference: sell_order/send_offer): the trade
 * must be the caller's, in `SELLER_TO_SEND_OFFER`, and the seller's uploaded cookies a live session.
 * The offer and the state change commit together; a buyer who accepts at once completes the trade.
 */
export async function sendOffer(
  ctx: DomainContext,
  input: { orderId: string },
): Promise<Result<Record<string, never>>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const sellerId = ctx.actor.userId;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const trade = await tx.db
      .selectFrom("trades")
      .selectAll()
      .where("trade_id", "=", Number(input.orderId))
      .where("seller_id", "=", sellerId)
      .forUpdate()
      .executeTakeFirst();
    if (!trade) return fail("Not Found", `order_id: ${input.orderId} is not a sell order of yours`);
    if (trade.state !== "SELLER_TO_SEND_OFFER")
      return fail("Invalid State", `order ${input.orderId} is ${trade.state}, not SELLER_TO_SEND_OFFER`);
    if (trade.deliver_by && trade.deliver_by <= tx.clock.now()) {
      return fail(
        "Invalid State",
        `the delivery time of order ${input.orderId} is over; the trade will be refunded`,
      );
    }
    const account = await tx.db
      .selectFrom("bound_platform_accounts")
      .selectAll()
      .where("platformid", "=", trade.seller_platformid)
      .executeTakeFirst();
    const cookies = account ? storedCookies(tx, account) : undefined;
    if (!cookies)
      return fail(
        "Invalid State",
        `no platform cookies are stored for ${trade.seller_platformid}; ${UPLOAD_COOKIES_HINT}`,
      );
    const offer = await tx.platform.createTradeOffer(tx, {
      platformid: trade.seller_platformid,
      cookies,
      tradeUrl: trade.buyer_trade_url,
      assetids: [String(trade.assetid)],
      message: offerMessage(trade.trade_id),
    });
    if (!offer.ok) return offer;
    await tx.db
      .updateTable("trades")
      .set({ state: "TRADING", tradeofferid: Number(offer.value.tradeofferid), updated_at: tx.clock.now() })
      .where("trade_id", "=", trade.trade_id)
      .execute();
    await recordAudit(tx, {
      action: "trade.offer",
      subject: `trade:${trade.trade_id}`,
      details: { tradeofferid: offer.value.tradeofferid },
    });
    if (offer.value.state === "accepted") {
      const completed = await completeTrade(
        tx,
        { ...trade, state: "TRADING" },
        offer.value.receivedAssetids?.[String(trade.assetid)],
      );
      if (!completed.ok) return completed;
    }
    return ok({});
  });
}
