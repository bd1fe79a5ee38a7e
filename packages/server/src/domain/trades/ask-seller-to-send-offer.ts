import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, ok, type Result } from "../result.ts";
import { inTransaction, noteNoMarketChange } from "../transaction.ts";
import type { TradeRow } from "./settle-trade.ts";

const LIVE = new Set(["PAYING", "SELLER_TO_SEND_OFFER", "TRADING"]);

/**
 * The caller's purchases among `ids`, locked in id order, each still live; or the refusal naming
 * `field`: an id that is not a purchase of the caller's answers like an unknown one.
 */
export async function lockLivePurchases(
  tx: DomainContext,
  buyerId: number,
  ids: readonly number[],
  field: string,
): Promise<Result<TradeRow[]>> {
  const rows = await tx.db
    .selectFrom("trades")
    .selectAll()
    .where("trade_id", "in", [...ids])
    .where("buyer_id", "=", buyerId)
    .orderBy("trade_id")
    .forUpdate()
    .execute();
  const trades = new Map(rows.map((row) => [row.trade_id, row]));
  for (const id of ids) {
    const trade = trades.get(id);
    if (trade === undefined) return fail("Not Found", `${field}: no purchase of yours with id ${id}`);
    if (!LIVE.has(trade.state))
      return fail("Invalid State", `${field}: the trade ${id} has ended (${trade.state})`);
  }
  return ok(ids.map((id) => trades.get(id)!));
}

/** Who sends the offers of these trades from now on; the change is the trades' own update. */
export async function chooseOfferSender(
  tx: DomainContext,
  trades: readonly TradeRow[],
  sender: "seller" | "buyer",
) {
  const changing = trades.filter((trade) => trade.offer_sender !== sender).map((trade) => trade.trade_id);
  if (changing.length === 0) return;
  await tx.db
    .updateTable("trades")
    .set({ offer_sender: sender, updated_at: tx.clock.now() })
    .where("trade_id", "in", changing)
    .execute();
  for (const tradeId of changing)
    await recordAudit(tx, { action: "trade.offer_sender", subject: `trade:${tradeId}`, details: { sender } });
}

/**
 * `bill_order/ask_seller_to_send_offer` (docs/design/purchases-and-trades.md#offer-modes, offer modes): the seller sends
 * the offers of these purchases. A trade whose offer is out keeps it; a trade the buyer took on
 * returns to the seller, unless the seller asks buyers to send their offers
 * (`force_buyer_send_offer`), which refuses the request and changes nothing.
 */
export async function askSellerToSendOffer(ctx: DomainContext, ids: readonly number[]) {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const buyerId = ctx.actor.userId;
  return inTransaction(ctx, async (tx) => {
    noteNoMarketChange(tx);
    const locked = await lockLivePurchases(tx, buyerId, ids, "bill_orders");
    if (!locked.ok) return locked;
    const waiting = locked.value.filter((trade) => trade.state !== "TRADING");
    const sellerIds = [
      ...new Set(waiting.filter((trade) => trade.offer_sender === "buyer").map((t) => t.seller_id)),
    ];
    if (sellerIds.length > 0) {
      const forcing = await tx.db
        .selectFrom("users")
        .select("user_id")
        .where("user_id", "in", sellerIds)
        .where("force_buyer_send_offer", "=", true)
        .execute();
      const forced = waiting.find((trade) => forcing.some((seller) => seller.user_id === trade.seller_id));
      if (forced)
        return fail(
          "Invalid State",
          `bill_orders: the seller of trade ${forced.trade_id} asks buyers to send the trade offer`,
        );
    }
    await chooseOfferSender(tx, waiting, "seller");
    return ok(undefined);
  });
}
