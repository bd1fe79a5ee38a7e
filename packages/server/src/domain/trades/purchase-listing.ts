import { formatMoney, type Fen, type WebPayAccount } from "@skinmarket/contract";
import { sql } from "kysely";
import { auditRow } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok, type Result } from "../result.ts";
import { inOneStatement, noteChangedGoods } from "../transaction.ts";
import { DELIVERY_WINDOW_MS } from "../market/delivery-window.ts";
import { resolveTradeUrl } from "./resolve-trade-url.ts";
import { refuseIfFrozen } from "../users/refuse-if-frozen.ts";

export interface PurchaseListingInput {
  goodsId: number;
  listingId: number;
  /** The price the buyer saw; a listing repriced since is not bought. */
  price: Fen;
  /** The buyer accepts waiting for a pre-sell item's trade cooldown to end. */
  allowCooldown: boolean;
  payAccount: WebPayAccount;
}

interface ListingUnitRow {
  outcome:
    | "bought"
    | "gone"
    | "own"
    | "price_changed"
    | "cooldown"
    | "buyer_sends"
    | "method_refused"
    | "insufficient";
  trade_id: number | null;
  price: Fen | null;
}

/**
 * Buys one chosen listing (the website's `goods/buy`, docs/design/website-buying-routes.md#the-websites-buying-routes) with the payment
 * of the official purchase (`pay_for_listing`, shared with `purchase_unit`): one statement locks
 * the listing, checks it is still on sale at the price the buyer saw, pays from the one account
 * the buyer chose into escrow (a card payment waits in PAYING), and opens the trade, which waits
 * for the seller's offer; or writes nothing.
 */
export async function purchaseListing(
  ctx: DomainContext,
  input: PurchaseListingInput,
): Promise<Result<{ tradeId: number }>> {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const buyerId = ctx.actor.userId;
  const frozen = await refuseIfFrozen(ctx, buyerId, "trading");
  if (!frozen.ok) return frozen;
  const destination = await resolveTradeUrl(ctx, { userId: buyerId });
  if (!destination.ok) return destination;
  const payOrder = input.payAccount === "bankcard" ? null : [input.payAccount];
  const unit = await inOneStatement(
    ctx,
    async (tx) => {
      const audit = auditRow(tx, { action: "trade.create" });
      const { rows } = await sql<ListingUnitRow>`
        SELECT o_outcome AS outcome, o_trade_id AS trade_id, o_price AS price
        FROM purchase_listing(${buyerId}, ${input.listingId}, ${input.goodsId}, ${input.price},
          ${input.allowCooldown}, ${payOrder}::text[], ${destination.value.tradeUrl},
          ${destination.value.platformid}, ${audit.created_at}, ${DELIVERY_WINDOW_MS}, ${audit.actor},
          ${audit.request_id}::text)
      `.execute(tx.db);
      // A sale changes this goods' figures alone: the snapshots re-read it, not the whole market.
      noteChangedGoods(tx, [input.goodsId]);
      return rows[0]!;
    },
    (row) => row.outcome === "bought",
  );
  switch (unit.outcome) {
    case "bought":
      return ok({ tradeId: Number(unit.trade_id) });
    case "gone":
      return fail("Not Found", `sell_order_id: no listing ${input.listingId} of this goods is on sale`);
    case "own":
      return invalidArgument("sell_order_id", "this is your own listing");
    case "price_changed":
      return invalidArgument("price", `the listing's price is now ${formatMoney(unit.price!)}`);
    case "cooldown":
      return invalidArgument(
        "allow_tradable_cooldown",
        "the item is in trade cooldown: send 1 to accept waiting for it",
      );
    case "buyer_sends":
      return invalidArgument(
        "sell_order_id",
        "the buyer must send this listing's trade offer, which this marketplace does not take",
      );
    case "method_refused":
      return invalidArgument("pay_method", "the seller does not accept this way of paying");
    case "insufficient":
      return fail("Insufficient Balance", `pay_method: the ${input.payAccount} account cannot pay for it`);
  }
}
