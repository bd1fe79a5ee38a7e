import { recordAudit } from "../audit.ts";
import type { DomainContext } from "../context.ts";
import { sellerFee } from "../market/seller-fee.ts";
import { toAssetInfo } from "../platform-accounts/asset-info.ts";
import { fail, ok, type Result } from "../result.ts";
import { committingItem } from "../market/asset-commitment.ts";
import { inTransaction, noteChangedGoods } from "../transaction.ts";
import { canFill, cancelForFunds, fill, lockOrder } from "./match.ts";
import { findOrderGoods } from "../market/public-book.ts";
import { meetsFilter, specificFilter } from "../market/specific.ts";
import { refuseIfFrozen } from "../users/refuse-if-frozen.ts";

export interface SupplyOutcome {
  /** Per assetid: "OK" or why it was not sold. */
  results: Record<string, string>;
  billOrders: Record<string, { bill_order_id: string }>;
}

const CANNOT_PAY = "the buyer cannot pay for it; the buy order was cancelled";

/**
 * A seller fills a chosen buy order with items of their bound platform accounts, each at the
 * order's price in its own transaction (docs/design/buy-orders.md#placing-supplying-and-cancelling). Each item must meet the order:
 * its goods, its `specific` constraints, its cooldown rule; it must be committed to nothing else
 * (neither on sale nor in a trade that is not finished: docs/design/domain-model.md#the-commitment-rule-for-items).
 */
export async function supplyBuyOrder(
  ctx: DomainContext,
  input: { buyOrderId: string; assetids: string[] },
): Promise<Result<SupplyOutcome>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const sellerId = ctx.actor.userId;
  const frozen = await refuseIfFrozen(ctx, sellerId, "trading");
  if (!frozen.ok) return frozen;
  const orderId = Number(input.buyOrderId);
  const order = await ctx.db
    .selectFrom("buy_orders")
    .selectAll()
    .where("buy_order_id", "=", orderId)
    .executeTakeFirst();
  if (!order) return fail("Not Found", "no buy order with this id");
  if (order.user_id === sellerId)
    return fail("Invalid Argument", "buy_order_id: you cannot supply your own buy order");
  // The order's goods exists, as the order's foreign key holds.
  const goods = (await findOrderGoods(ctx, order.goods_id))!;
  const filter = specificFilter(order.specific, goods);
  const bound = new Set(
    (
      await ctx.db
        .selectFrom("bound_platform_accounts")
        .select("platformid")
        .where("user_id", "=", sellerId)
        .execute()
    ).map((row) => row.platformid),
  );
  const assets = new Map(
    (await ctx.platform.findAssets(ctx, { assetids: input.assetids })).map((asset) => [asset.assetid, asset]),
  );
  const outcome: SupplyOutcome = { results: {}, billOrders: {} };
  for (const assetid of input.assetids) {
    if (assetid in outcome.results) {
      outcome.results[assetid] = "given twice in this request";
      continue;
    }
    const asset = assets.get(assetid);
    const now = ctx.clock.now();
    if (!asset || !bound.has(asset.platformid)) {
      outcome.results[assetid] = "not in the inventory of a platform account bound to you";
    } else if (asset.goodsId !== order.goods_id) {
      outcome.results[assetid] = "not the goods the buy order wants";
    } else if (!meetsFilter(filter, asset)) {
      outcome.results[assetid] = "does not meet the buy order's specific constraints";
    } else if (asset.tradableAfter && asset.tradableAfter > now && !order.allow_tradable_cooldown) {
      outcome.results[assetid] = "in trade cooldown, which the buy order does not accept";
    } else {
      const sold = await sellOne(ctx, { orderId, sellerId, asset, goods });
      if (!sold.ok && sold.failure.code === "Insufficient Balance") {
        await cancelForFunds(ctx, orderId, "insufficient funds to pay for a fill");
        outcome.results[assetid] = CANNOT_PAY;
      } else if (!sold.ok) {
        outcome.results[assetid] = sold.failure.message;
      } else {
        outcome.results[assetid] = "OK";
        outcome.billOrders[assetid] = { bill_order_id: String(sold.value) };
      }
    }
  }
  return ok(outcome);
}

async function sellOne(
  ctx: DomainContext,
  input: {
    orderId: number;
    sellerId: number;
    asset: Awaited<ReturnType<DomainContext["platform"]["findAssets"]>>[number];
    goods: { icon_url: string; type: string };
  },
): Promise<Result<number>> {
  const { asset } = input;
  // The sold listing written first commits the item, so a listing or another supply of the same
  // item racing this one is refused by the database (or refuses this one).
  return committingItem(ctx, Number(asset.assetid), SUPPLY_REFUSALS, () =>
    inTransaction(ctx, async (tx) => {
      const order = await lockOrder(tx, input.orderId);
      noteChangedGoods(tx, order ? [order.goods_id] : []);
      if (!order || !(await canFill(tx, order)))
        return fail(
          "Invalid State",
          "the buy order takes no more items (complete, cancelled or its buyer offline)",
        );
      const now = tx.clock.now();
      const fee = sellerFee(order.price, tx.rules);
      const listing = await tx.db
        .insertInto("listings")
        .values({
          user_id: input.sellerId,
          platformid: asset.platformid,
          assetid: Number(asset.assetid),
          goods_id: asset.goodsId,
          price: order.price,
          fee,
          state: "SOLD",
          allow_bargain: false,
          allow_wallet_zft: true,
          allow_epay: true,
          allow_pending_divide_balance: false,
          force_buyer_send_offer: false,
          description: "",
          paintwear: asset.paintwear,
          paintseed: asset.paintseed,
          paintindex: asset.paintindex,
          tradable_after: asset.tradableAfter,
          asset: JSON.stringify(toAssetInfo(asset, input.goods.icon_url, input.goods.type)),
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const filled = await fill(tx, order, listing, order.price);
      if (!filled.ok) return filled;
      await recordAudit(tx, {
        action: "buy_order.supply",
        subject: `buy_order:${order.buy_order_id}`,
        details: { listing_id: listing.listing_id, trade_id: filled.value.tradeId },
      });
      return ok(filled.value.tradeId);
    }),
  );
}

const SUPPLY_REFUSALS = {
  onSale: "on sale; take it off sale first",
  inTrade: "in a trade that is not finished",
};
