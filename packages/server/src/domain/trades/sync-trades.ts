import type { DomainContext } from "../context.ts";
import { ok } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import { adoptSentOffer } from "./adopt-sent-offer.ts";
import { completeTrade, failTrade } from "./settle-trade.ts";

const BATCH = 200;

/**
 * The trades job: trades whose offer was answered are completed or failed, sales whose seller's
 * bot sent the offer on the platform take that offer, and trades whose offer was not sent in time fail (`seller_timeout`, or `buyer_timeout` when the buyer was to send it;
 * docs/design/purchases-and-trades.md#offer-modes, offer modes). Each trade settles in its own
 * transaction, taken with `FOR UPDATE SKIP LOCKED`, so several instances never settle one twice.
 */
export async function syncTrades(ctx: DomainContext): Promise<number> {
  let settled = 0;
  const now = ctx.clock.now();
  // Keyset pages through every candidate: trades whose offers are still out stay candidates, and
  // must not hide the newer ones behind them.
  let after = 0;
  for (;;) {
    const candidates = await ctx.db
      .selectFrom("trades")
      .select("trade_id")
      .where("trade_id", ">", after)
      .where((eb) =>
        eb.or([
          eb("state", "=", "TRADING"),
          eb.and([eb("state", "=", "SELLER_TO_SEND_OFFER"), eb("deliver_by", "<=", now)]),
          // A seller may send the offer from their own bot on the platform: the job looks for it.
          eb.and([eb("state", "=", "SELLER_TO_SEND_OFFER"), eb("offer_sender", "=", "seller")]),
        ]),
      )
      .orderBy("trade_id")
      .limit(BATCH)
      .execute();
    for (const { trade_id: tradeId } of candidates) {
      after = tradeId;
      if (await settleOne(ctx, tradeId)) settled += 1;
    }
    if (candidates.length < BATCH) return settled;
  }
}

async function settleOne(ctx: DomainContext, tradeId: number): Promise<boolean> {
  const outcome = await inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const trade = await tx.db
      .selectFrom("trades")
      .selectAll()
      .where("trade_id", "=", tradeId)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!trade) return ok(false);
    if (trade.state === "SELLER_TO_SEND_OFFER" && trade.deliver_by && trade.deliver_by <= tx.clock.now()) {
      const failed = await failTrade(tx, trade, `${trade.offer_sender}_timeout`);
      return failed.ok ? ok(true) : failed;
    }
    if (trade.state === "SELLER_TO_SEND_OFFER") return adoptSentOffer(tx, trade);
    if (trade.state !== "TRADING" || trade.tradeofferid === null) return ok(false);
    const offer = await tx.platform.getTradeOffer(tx, { tradeofferid: String(trade.tradeofferid) });
    if (!offer.ok || offer.value.state === "active") return ok(false);
    const settledTrade =
      offer.value.state === "accepted"
        ? await completeTrade(tx, trade, {
            receivedAssetid: offer.value.receivedAssetids?.[String(trade.assetid)],
            protectedUntil: offer.value.reversibleUntil,
          })
        : await failTrade(tx, trade, `offer_${offer.value.state}`);
    return settledTrade.ok ? ok(true) : settledTrade;
  });
  return outcome.ok && outcome.value;
}
