import type { OfferSender } from "../../storage/schema.ts";
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
 * Puts a paid trade's offer out (docs/design/purchases-and-trades.md#offer-modes, offer modes), for either party: the
 * trade must be the caller's in that role, in `SELLER_TO_SEND_OFFER`, its offer that party's to
 * send, and its delivery time not over; the caller's uploaded cookies must be a live session. The
 * seller's offer gives the item to the buyer's trade URL; the buyer's asks the seller, at the
 * seller's trade URL, for it. The offer and the state change commit together; a receiver who
 * accepts at once completes the trade.
 */
export async function sendTradeOffer(
  ctx: DomainContext,
  input: { tradeId: number; as: OfferSender; field: string },
): Promise<Result<Record<string, never>>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const userId = ctx.actor.userId;
  const { tradeId, as, field } = input;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const trade = await tx.db
      .selectFrom("trades")
      .selectAll()
      .where("trade_id", "=", tradeId)
      .where(as === "seller" ? "seller_id" : "buyer_id", "=", userId)
      .forUpdate()
      .executeTakeFirst();
    if (!trade)
      return fail(
        "Not Found",
        `${field}: ${tradeId} is not a ${as === "seller" ? "sell order" : "purchase"} of yours`,
      );
    if (trade.state !== "SELLER_TO_SEND_OFFER")
      return fail("Invalid State", `order ${tradeId} is ${trade.state}, not SELLER_TO_SEND_OFFER`);
    if (trade.offer_sender !== as)
      return fail("Invalid State", `the ${trade.offer_sender} sends the trade offer of order ${tradeId}`);
    if (trade.deliver_by && trade.deliver_by <= tx.clock.now()) {
      return fail(
        "Invalid State",
        `the delivery time of order ${tradeId} is over; the trade will be refunded`,
      );
    }
    const ownPlatformid = as === "seller" ? trade.seller_platformid : trade.buyer_platformid;
    const accounts = await tx.db
      .selectFrom("bound_platform_accounts")
      .selectAll()
      .where("platformid", "in", [trade.seller_platformid, trade.buyer_platformid])
      .execute();
    const own = accounts.find((account) => account.platformid === ownPlatformid);
    const cookies = own ? storedCookies(tx, own) : undefined;
    if (!cookies)
      return fail(
        "Invalid State",
        `no platform cookies are stored for ${ownPlatformid}; ${UPLOAD_COOKIES_HINT}`,
      );
    const sellerTradeUrl = accounts.find(
      (account) => account.platformid === trade.seller_platformid,
    )?.trade_url;
    if (as === "buyer" && !sellerTradeUrl)
      return fail("Invalid State", `the seller's account ${trade.seller_platformid} has no trade URL`);
    const offer = await tx.platform.createTradeOffer(tx, {
      platformid: ownPlatformid,
      cookies,
      tradeUrl: as === "seller" ? trade.buyer_trade_url : sellerTradeUrl!,
      assetids: [String(trade.assetid)],
      itemsFrom: as === "seller" ? "sender" : "receiver",
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
      details: { tradeofferid: offer.value.tradeofferid, sender: as },
    });
    if (offer.value.state === "accepted") {
      const completed = await completeTrade(
        tx,
        { ...trade, state: "TRADING" },
        {
          receivedAssetid: offer.value.receivedAssetids?.[String(trade.assetid)],
          protectedUntil: offer.value.reversibleUntil,
        },
      );
      if (!completed.ok) return completed;
    }
    return ok({});
  });
}

/**
 * The offers of several orders, each sent on its own (its own transaction), as the website's
 * `manual_plus` routes take them: the answer maps each id to `OK` or why its offer was not sent;
 * when none was sent, the first refusal is the answer, so a call about one order fails like it.
 */
export async function sendEachOffer(
  ids: readonly string[],
  send: (id: string) => Promise<Result<unknown>>,
): Promise<Result<Record<string, string>>> {
  const answers: Record<string, string> = {};
  let firstRefusal: Result<never> | undefined;
  for (const id of new Set(ids)) {
    const sent = await send(id);
    if (sent.ok) answers[id] = "OK";
    else {
      answers[id] = sent.failure.message;
      firstRefusal ??= sent;
    }
  }
  return firstRefusal && !Object.values(answers).includes("OK") ? firstRefusal : ok(answers);
}
