import { recordAudit } from "../audit.ts";
import { crossListing } from "../buy-orders/match.ts";
import type { DomainContext } from "../context.ts";
import { toAssetInfo } from "../platform-accounts/asset-info.ts";
import { fail, ok, type Result } from "../result.ts";
import { inTransaction, noteChangedGoods } from "../transaction.ts";
import { committingItem } from "./asset-commitment.ts";
import { parseListingPrice } from "./parse-listing-price.ts";

export interface ListingRequest {
  assetid: string;
  price: unknown;
  allowBargain?: boolean;
  allowWalletZft?: boolean;
  allowEpay?: boolean;
  allowPendingDivideBalance?: boolean;
  forceBuyerSendOffer?: boolean;
  description?: string;
}

export interface ListingOutcome {
  /** Per assetid: "OK" or why it was not listed. */
  results: Record<string, string>;
  sellOrders: Record<string, { sell_order_id: string }>;
}

/**
 * Puts items on sale, each on its own (reference: sell_order/items). An item must be held by a
 * platform account bound to the caller and committed to nothing else (neither on sale nor in a
 * trade that is not finished: docs/design.md section 5); an item in trade cooldown is
 * listed as a pre-sell listing. Each item is listed in its own transaction, so one refusal leaves
 * the others listed.
 */
export async function listItems(
  ctx: DomainContext,
  requests: ListingRequest[],
): Promise<Result<ListingOutcome>> {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const userId = ctx.actor.userId;
  const outcome: ListingOutcome = { results: {}, sellOrders: {} };
  const bound = new Set(
    (
      await ctx.db
        .selectFrom("bound_platform_accounts")
        .select("platformid")
        .where("user_id", "=", userId)
        .execute()
    ).map((row) => row.platformid),
  );
  const assets = new Map(
    (await ctx.platform.findAssets(ctx, { assetids: requests.map((request) => request.assetid) })).map(
      (asset) => [asset.assetid, asset],
    ),
  );
  for (const request of requests) {
    if (request.assetid in outcome.results) {
      outcome.results[request.assetid] = "listed twice in this request";
      continue;
    }
    const price = parseListingPrice(request.price, ctx.rules);
    const asset = assets.get(request.assetid);
    if (!price.ok) {
      outcome.results[request.assetid] = `price ${price.reason}`;
    } else if (!asset || !bound.has(asset.platformid)) {
      outcome.results[request.assetid] = "not in the inventory of a platform account bound to you";
    } else {
      const listed = await listOne(ctx, { userId, request, asset, price: price.price, fee: price.fee });
      outcome.results[request.assetid] = listed.ok ? "OK" : listed.failure.message;
      if (listed.ok) {
        outcome.sellOrders[request.assetid] = { sell_order_id: String(listed.value) };
        // A listing at or below the best eligible buy order sells to it at once.
        await crossListing(ctx, listed.value);
      }
    }
  }
  return ok(outcome);
}

async function listOne(
  ctx: DomainContext,
  input: {
    userId: number;
    request: ListingRequest;
    asset: Awaited<ReturnType<DomainContext["platform"]["findAssets"]>>[number];
    price: number;
    fee: number;
  },
): Promise<Result<number>> {
  const { request, asset } = input;
  return committingItem(ctx, Number(asset.assetid), LISTING_REFUSALS, () =>
    inTransaction(ctx, async (tx) => {
      noteChangedGoods(tx, [asset.goodsId]);
      const goods = await tx.db
        .selectFrom("goods")
        .select(["icon_url", "type"])
        .where("goods_id", "=", asset.goodsId)
        .executeTakeFirstOrThrow();
      const now = tx.clock.now();
      const { listing_id: listingId } = await tx.db
        .insertInto("listings")
        .values({
          user_id: input.userId,
          platformid: asset.platformid,
          assetid: Number(asset.assetid),
          goods_id: asset.goodsId,
          price: input.price,
          fee: input.fee,
          state: "ON_SALE",
          allow_bargain: request.allowBargain ?? false,
          allow_wallet_zft: request.allowWalletZft ?? true,
          allow_epay: request.allowEpay ?? true,
          allow_pending_divide_balance: request.allowPendingDivideBalance ?? false,
          force_buyer_send_offer: request.forceBuyerSendOffer ?? false,
          description: request.description ?? "",
          paintwear: asset.paintwear,
          paintseed: asset.paintseed,
          paintindex: asset.paintindex,
          tradable_after: asset.tradableAfter,
          asset: JSON.stringify(toAssetInfo(asset, goods.icon_url, goods.type)),
          created_at: now,
          updated_at: now,
        })
        .returning("listing_id")
        .executeTakeFirstOrThrow();
      await recordAudit(tx, {
        action: "listing.create",
        subject: `listing:${listingId}`,
        details: { assetid: asset.assetid, price_fen: input.price, fee_fen: input.fee },
      });
      return ok(listingId);
    }),
  );
}

const LISTING_REFUSALS = { onSale: "already on sale", inTrade: "in a trade that is not finished" };
