import { parseMoney } from "@skinmarket/contract";
import { invalidArgument, ok, type Result } from "../result.ts";
import { entryOf, isStickerLike, type PriceEntry, type PriceSnapshot } from "./price-snapshot.ts";

/** A liquidity rank of at least 80 % (in hundredths) is high liquidity (`high_liquidity=1`). */
export const HIGH_LIQUIDITY = 8000;

export interface PriceQuery {
  /** Enterprise operations also take `dota2`, whose catalog is empty (docs/design/wire-conventions.md#wire-conventions). */
  game?: "cs2" | "csgo" | "dota2";
  goodsId?: number;
  marketHashName?: string;
  minPrice?: unknown;
  includeSticker: boolean;
  highLiquidity?: boolean;
}

export interface PriceSelection {
  statTime: Date;
  entries: PriceEntry[];
}

/**
 * The snapshot entries a price operation answers (docs/design/market-data.md#get-apimarketitems). With `goods_id` (which
 * wins) or `market_hash_name`: that goods alone, even off the market; unknown goods are `Invalid
 * Argument` naming the field. Without: every goods on the market, less stickers, slabs and sealed
 * graffiti with `include_sticker=0`, or only ranks of at least 80 % with `high_liquidity=1` (which
 * wins over `include_sticker`). `min_price` keeps goods whose lowest tradable price reaches it.
 */
export function selectPriceEntries(snapshot: PriceSnapshot, query: PriceQuery): Result<PriceSelection> {
  const filter = minPriceFilter(query.minPrice);
  if (!filter.ok) return filter;
  const reaches = filter.value;
  const statTime = snapshot.builtAt;
  const dota = query.game === "dota2";
  if (query.goodsId !== undefined || query.marketHashName !== undefined) {
    const field = query.goodsId !== undefined ? "goods_id" : "market_hash_name";
    const goods = dota
      ? undefined
      : query.goodsId !== undefined
        ? snapshot.catalog.byId.get(query.goodsId)
        : snapshot.catalog.byName.get(query.marketHashName!);
    if (!goods) return invalidArgument(field, `no such goods in the ${dota ? "Dota 2 " : ""}catalog`);
    const entry = entryOf(snapshot, goods);
    return ok({ statTime, entries: reaches(entry) ? [entry] : [] });
  }
  if (dota) return ok({ statTime, entries: [] });
  const entries: PriceEntry[] = [];
  for (const entry of snapshot.entries.values()) {
    if (query.highLiquidity) {
      if (entry.liquidityRank < HIGH_LIQUIDITY) continue;
    } else if (!query.includeSticker && isStickerLike(entry)) continue;
    if (reaches(entry)) entries.push(entry);
  }
  return ok({ statTime, entries });
}

/** `min_price` of the price operations: keeps goods whose lowest tradable price reaches it. */
export function minPriceFilter(given: unknown): Result<(entry: PriceEntry) => boolean> {
  if (given === undefined) return ok(() => true);
  const minPrice = parseMoney(given);
  if (!minPrice.ok) return invalidArgument("min_price", minPrice.reason);
  return ok((entry) => entry.whole.minPrice >= minPrice.fen);
}

/** The goods of `POST /api/market/float/items`: by id, then by name, each once, in that order. */
export function selectListedGoods(
  snapshot: PriceSnapshot,
  query: { goodsIds?: readonly number[]; marketHashNames?: readonly string[] },
): Result<PriceSelection> {
  const goodsIds = query.goodsIds ?? [];
  const names = query.marketHashNames ?? [];
  if (goodsIds.length === 0 && names.length === 0)
    return invalidArgument("goods_ids", "give at least one goods id, or market_hash_names");
  const entries = new Map<number, PriceEntry>();
  for (const [index, goodsId] of goodsIds.entries()) {
    const goods = snapshot.catalog.byId.get(goodsId);
    if (!goods) return invalidArgument(`goods_ids.${index}`, "no such goods in the catalog");
    entries.set(goods.goods_id, entryOf(snapshot, goods));
  }
  for (const [index, name] of names.entries()) {
    const goods = snapshot.catalog.byName.get(name);
    if (!goods) return invalidArgument(`market_hash_names.${index}`, "no such goods in the catalog");
    if (!entries.has(goods.goods_id)) entries.set(goods.goods_id, entryOf(snapshot, goods));
  }
  return ok({ statTime: snapshot.builtAt, entries: [...entries.values()] });
}
