import { parseMoney } from "@skinmarket/contract";
import { toUnixSeconds } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import { invalidArgument, ok } from "../result.ts";
import { isStickerLike, toItemPrice, type PriceSnapshots } from "./price-snapshot.ts";

export interface MarketItemsQuery {
  goodsId?: number;
  marketHashName?: string;
  minPrice?: unknown;
  includeSticker: boolean;
}

/**
 * Lowest prices (reference: GET /api/market/items). With `goods_id` or `market_hash_name`, that
 * goods alone (prices `0.00` while it has no listing); without, every goods on the market (with a
 * listing on sale or a buy order in the public book), stickers, slabs and sealed graffiti left out
 * with `include_sticker=0`. `min_price` keeps the goods whose lowest tradable price reaches it.
 */
export async function getMarketItems(ctx: DomainContext, snapshots: PriceSnapshots, query: MarketItemsQuery) {
  const minPrice = query.minPrice === undefined ? undefined : parseMoney(query.minPrice);
  if (minPrice && !minPrice.ok) return invalidArgument("min_price", minPrice.reason);
  const snapshot = await snapshots.current(ctx);
  const statTime = snapshot.builtAt;
  if (query.goodsId !== undefined || query.marketHashName !== undefined) {
    let lookup = ctx.db.selectFrom("goods").select(["goods_id", "market_hash_name", "name"]);
    if (query.goodsId !== undefined) lookup = lookup.where("goods_id", "=", query.goodsId);
    if (query.marketHashName !== undefined)
      lookup = lookup.where("market_hash_name", "=", query.marketHashName);
    const goods = await lookup.executeTakeFirst();
    if (!goods)
      return invalidArgument(
        query.goodsId !== undefined ? "goods_id" : "market_hash_name",
        "no such goods in the catalog",
      );
    const entry = snapshot.entries.get(goods.goods_id) ?? { ...goods, minPrice: 0, preSellMinPrice: 0 };
    const kept = minPrice === undefined || entry.minPrice >= minPrice.fen;
    return ok({ info: kept ? [toItemPrice(entry, statTime)] : [], stat_time: toUnixSeconds(statTime) });
  }
  const info = [];
  for (const entry of snapshot.entries.values()) {
    if (!query.includeSticker && isStickerLike(entry)) continue;
    if (minPrice !== undefined && entry.minPrice < minPrice.fen) continue;
    info.push(toItemPrice(entry, statTime));
  }
  return ok({ info, stat_time: toUnixSeconds(statTime) });
}
