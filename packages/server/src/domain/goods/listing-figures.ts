import { formatMoney, RECORD_GAME, type AssetInfo } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { sellerDeliveryStats } from "./seller-delivery-stats.ts";
import { stickerPremiums } from "./sticker-premium.ts";

/** The figures a listing record carries beside what the listing row holds. */
export interface ListingFigures {
  recent_average_duration: number;
  recent_deliver_rate: number;
  sticker_premium: number;
}

/** What the figures of a listing are computed from: a listing row's columns. */
export interface FiguredListing {
  listing_id: number;
  user_id: number;
  goods_id: number;
  price: number;
  asset: unknown;
}

/**
 * The figures of each listing (docs/design/website-goods-routes.md#the-websites-goods-pages): its seller's delivery record
 * (`sellerDeliveryStats`) and its sticker premium (`stickerPremiums`), keyed by listing id. Every
 * record that carries them (the seller's `sell_order/on_sale`, the enterprise and the website
 * `goods/sell_order`) takes them from here, so one listing never shows two sets of figures. A
 * seller without a finished sale in the window, and a listing without a premium, show 0: the
 * enterprise record types them as numbers.
 */
export async function readListingFigures(
  ctx: DomainContext,
  listings: readonly FiguredListing[],
): Promise<Map<number, ListingFigures>> {
  const [sellers, premiums] = await Promise.all([
    sellerDeliveryStats(ctx, [...new Set(listings.map((listing) => listing.user_id))]),
    stickerPremiums(
      ctx,
      listings.map((listing) => ({
        listingId: listing.listing_id,
        goodsId: listing.goods_id,
        price: listing.price,
        asset: listing.asset as AssetInfo,
      })),
    ),
  ]);
  const figures = new Map<number, ListingFigures>();
  for (const listing of listings) {
    const seller = sellers.get(listing.user_id);
    figures.set(listing.listing_id, {
      recent_average_duration: seller?.averageSeconds ?? 0,
      recent_deliver_rate: seller?.deliverRate ?? 0,
      sticker_premium: premiums.get(listing.listing_id) ?? 0,
    });
  }
  return figures;
}

/** What a listing record is built from: the figures' columns and the seller's flags. */
export interface RecordedListing extends FiguredListing {
  allow_wallet_zft: boolean;
  allow_epay: boolean;
  allow_pending_divide_balance: boolean;
  force_buyer_send_offer: boolean;
}

/**
 * The fields every official listing record shares (the enterprise `goods/sell_order` record, which
 * the seller's `sell_order/on_sale` record extends), with their figures, in the listings' order.
 */
export async function readListingRecords<Listing extends RecordedListing>(
  ctx: DomainContext,
  listings: readonly Listing[],
) {
  const figures = await readListingFigures(ctx, listings);
  return listings.map((listing) => ({
    listing,
    record: {
      id: String(listing.listing_id),
      user_id: String(listing.user_id),
      game: RECORD_GAME,
      goods_id: listing.goods_id,
      price: formatMoney(listing.price),
      asset_info: listing.asset as AssetInfo,
      allow_wallet_zft: listing.allow_wallet_zft,
      allow_epay: listing.allow_epay,
      allow_pending_divide_balance: listing.allow_pending_divide_balance,
      force_buyer_send_offer: listing.force_buyer_send_offer,
      ...figures.get(listing.listing_id)!,
    },
  }));
}
