import type { AssetInfo } from "@skinmarket/contract";
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
 * The figures of each listing (docs/design.md section 8): its seller's delivery record
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
