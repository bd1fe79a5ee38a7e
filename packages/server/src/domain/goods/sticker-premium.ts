import type { AssetInfo } from "@skinmarket/contract";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";

export interface PricedListing {
  listingId: number;
  goodsId: number;
  /** Fen. */
  price: number;
  asset: AssetInfo;
}

/**
 * `sticker_premium` of listings (of any goods): what a listing asks above its goods' lowest price
 * a buyer can take now, as a share of what its stickers cost on their own (each sticker's lowest
 * such price), rounded to 4 decimals. 0.25 reads "the seller asks a quarter of the stickers' value
 * on top". Listings without stickers, whose stickers have no listing to price them by, or whose
 * goods has no tradable listing are absent from the answer (their premium is 0).
 */
export async function stickerPremiums(
  ctx: DomainContext,
  listings: readonly PricedListing[],
): Promise<Map<number, number>> {
  const premiums = new Map<number, number>();
  const stickered = listings.filter((listing) => listing.asset.info.stickers.length > 0);
  if (stickered.length === 0) return premiums;
  const goodsIds = [...new Set(stickered.map((listing) => listing.goodsId))];
  const names = [
    ...new Set(
      stickered.flatMap((listing) => listing.asset.info.stickers.map((sticker) => sticker.market_hash_name)),
    ),
  ];
  const floors = await lowestPrices(ctx, goodsIds, names);
  for (const listing of stickered) {
    const goodsFloor = floors.byGoodsId.get(listing.goodsId);
    if (goodsFloor === undefined) continue;
    const stickerValue = listing.asset.info.stickers.reduce(
      (sum, sticker) => sum + (floors.byName.get(sticker.market_hash_name) ?? 0),
      0,
    );
    if (stickerValue === 0) continue;
    premiums.set(
      listing.listingId,
      Math.round(((listing.price - goodsFloor) / stickerValue) * 10_000) / 10_000,
    );
  }
  return premiums;
}

/**
 * The lowest price a buyer can take now (on sale, out of trade cooldown) of each goods and of each
 * named sticker, each read from the front of the market index (goods_id, price).
 */
async function lowestPrices(ctx: DomainContext, goodsIds: number[], stickerNames: string[]) {
  const now = ctx.clock.now();
  const rows = await sql<{ goods_id: number; market_hash_name: string; price: number | null }>`
    SELECT goods.goods_id, goods.market_hash_name, (
      SELECT listings.price FROM listings
      WHERE listings.goods_id = goods.goods_id AND listings.state = 'ON_SALE'
        AND (listings.tradable_after IS NULL OR listings.tradable_after <= ${now})
      ORDER BY listings.price LIMIT 1
    ) AS price
    FROM goods
    WHERE goods.goods_id IN (${sql.join(goodsIds)}) OR goods.market_hash_name IN (${sql.join(stickerNames)})
  `.execute(ctx.db);
  const byGoodsId = new Map<number, number>();
  const byName = new Map<string, number>();
  for (const row of rows.rows) {
    if (row.price === null) continue;
    byGoodsId.set(row.goods_id, Number(row.price));
    byName.set(row.market_hash_name, Number(row.price));
  }
  return { byGoodsId, byName };
}
