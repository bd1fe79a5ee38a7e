import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { ok, type Result } from "../result.ts";
import { completeTrade, type TradeRow } from "./settle-trade.ts";

/**
 * A sale whose seller's own bot sent the offer on the platform (through Steam's routes, not the
 * marketplace's `send_offer`): the trades job finds the offer giving the sold item to the buyer
 * and takes it as the trade's offer, as BUFF watches its sellers' offers
 * (docs/design/purchases-and-trades.md#offer-modes). From then on the trade is `TRADING` like
 * any other, and completes or fails with the offer. Runs in the job's transaction, the trade
 * locked; reports whether the trade changed.
 */
export async function adoptSentOffer(ctx: DomainContext, trade: TradeRow): Promise<Result<boolean>> {
  if (trade.state !== "SELLER_TO_SEND_OFFER" || trade.offer_sender !== "seller") return ok(false);
  const offer = await ctx.platform.findOfferOfItem(ctx, {
    sender: trade.seller_platformid,
    receiver: trade.buyer_platformid,
    assetid: String(trade.assetid),
  });
  if (!offer) return ok(false);
  await ctx.db
    .updateTable("trades")
    .set({ state: "TRADING", tradeofferid: Number(offer.tradeofferid), updated_at: ctx.clock.now() })
    .where("trade_id", "=", trade.trade_id)
    .where("state", "=", "SELLER_TO_SEND_OFFER")
    .execute();
  await recordAudit(ctx, {
    action: "trade.offer",
    subject: `trade:${trade.trade_id}`,
    details: { tradeofferid: offer.tradeofferid, sender: "seller", sent_on_platform: true },
  });
  if (offer.state !== "accepted") return ok(true);
  const completed = await completeTrade(
    ctx,
    { ...trade, state: "TRADING" },
    {
      receivedAssetid: offer.receivedAssetids?.[String(trade.assetid)],
      protectedUntil: offer.reversibleUntil,
    },
  );
  return completed.ok ? ok(true) : completed;
}
