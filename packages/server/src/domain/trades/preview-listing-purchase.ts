import { formatMoney, parseMoney, WEB_PAY_METHOD_CODES, WEB_PAY_METHOD_TEXTS } from "@skinmarket/contract";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { listingPayAccounts } from "../goods/web-listing.ts";
import { fail, invalidArgument, ok } from "../result.ts";
import { readUserBalances } from "../wallet/ledger.ts";

/**
 * The order of `pay_methods` (docs/design/website-buying-routes.md#the-websites-buying-routes): real tools index it, 0 as the balance
 * (BuffApi's `buff-alipay`) and 2 as the bank card (`buff-bankcard`); 1 and 3 are our buy-order
 * funds and wallet.
 */
const PREVIEW_ORDER = ["balance", "margin", "bankcard", "wallet"] as const;

/**
 * What buying one listing would cost and how it can be paid (`goods/buy/preview`): the same
 * listing checks `goods/buy` makes, then per way of paying the buyer's money in that account (a
 * card has none: "0.00"), whether it covers the price, and `error` null when it can pay.
 */
export async function previewListingPurchase(
  ctx: DomainContext,
  input: { goodsId: number; listingId: number; price: unknown; allowCooldown: boolean },
) {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const price = parseMoney(input.price);
  if (!price.ok) return invalidArgument("price", price.reason);
  const listing = await ctx.db
    .selectFrom("listings")
    .selectAll()
    .where("listing_id", "=", input.listingId)
    .where("goods_id", "=", input.goodsId)
    .where("state", "=", sql.lit("ON_SALE"))
    .executeTakeFirst();
  if (!listing)
    return fail("Not Found", `sell_order_id: no listing ${input.listingId} of this goods is on sale`);
  if (listing.user_id === ctx.actor.userId)
    return invalidArgument("sell_order_id", "this is your own listing");
  if (listing.price !== price.fen)
    return invalidArgument("price", `the listing's price is now ${formatMoney(listing.price)}`);
  const now = ctx.clock.now();
  if (listing.tradable_after !== null && listing.tradable_after > now && !input.allowCooldown)
    return invalidArgument(
      "allow_tradable_cooldown",
      "the item is in trade cooldown: send 1 to accept waiting for it",
    );
  const balances = await readUserBalances(ctx, ctx.actor.userId);
  const accepted = new Set(listingPayAccounts(listing));
  const buyerSends = listing.force_buyer_send_offer;
  return ok({
    sell_order_id: String(listing.listing_id),
    goods_id: listing.goods_id,
    price: formatMoney(listing.price),
    pay_methods: PREVIEW_ORDER.map((account) => {
      const held = account === "bankcard" ? 0 : balances[account];
      const enough = account === "bankcard" || held >= listing.price;
      const error = buyerSends
        ? "the buyer must send this listing's trade offer, which this marketplace does not take"
        : !accepted.has(account)
          ? "the seller does not accept this way of paying"
          : enough
            ? null
            : "insufficient funds in this account";
      return {
        value: WEB_PAY_METHOD_CODES[account],
        name: account,
        text: WEB_PAY_METHOD_TEXTS[account],
        balance: formatMoney(held),
        enough,
        error,
        price_with_pay_fee: formatMoney(listing.price),
      };
    }),
  });
}
