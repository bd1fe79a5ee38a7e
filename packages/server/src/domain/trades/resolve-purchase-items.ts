import { INT32_MAX, parseMoney, type Fen } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { invalidArgument, ok, type Result } from "../result.ts";

export interface PurchaseItem {
  goodsId?: number;
  marketHashName?: string;
  maxPrice: unknown;
  quantity: number;
}

/** One entry of a purchase, resolved before any unit is bought. */
export interface ResolvedPurchaseItem {
  /** The entry's key in the answer: the goods id, or what the entry named when no goods has it. */
  key: string;
  maxPrice: Fen;
  quantity: number;
  /**
   * The goods to buy, or why nothing of this entry can be bought (its `msg`). A goods named by id
   * is not looked up here: the unit's statement answers an id the catalog lacks, or goods that are
   * not standard, with `NO_SUCH_GOODS` and `NOT_STANDARD` (one round trip less per purchase).
   */
  goods: { goodsId: number } | { refusal: string };
}

export const NO_SUCH_GOODS = "no such goods in the catalog";
export const NOT_STANDARD =
  "only standard goods (stickers, cases, keys, music kits, ...) can be bought in batch";

/**
 * Resolves every entry of a purchase (price, goods, whether it can be bought in batch) before the
 * first unit is bought, so that nothing the request says can fail it after a purchase: a bad
 * price refuses the whole request, goods that do not exist or are not standard answer their
 * entry's `msg` (for goods named by id, the unit's statement finds that out; the catalog's goods
 * do not change while a request runs). An id beyond the database's integer, or a name no catalog holds (one with a NUL
 * byte, which PostgreSQL cannot even compare), is looked up as no goods rather than sent.
 */
export async function resolvePurchaseItems(
  ctx: DomainContext,
  items: readonly PurchaseItem[],
): Promise<Result<ResolvedPurchaseItem[]>> {
  const prices: Fen[] = [];
  for (const [index, item] of items.entries()) {
    if (item.goodsId === undefined && item.marketHashName === undefined)
      return invalidArgument(`items.${index}.goods_id`, "required unless market_hash_name is given");
    if (!Number.isSafeInteger(item.quantity) || item.quantity < 1)
      return invalidArgument(`items.${index}.quantity`, "must be a whole number of at least 1");
    const maxPrice = parseMoney(item.maxPrice);
    if (!maxPrice.ok) return invalidArgument(`items.${index}.max_price`, maxPrice.reason);
    prices.push(maxPrice.fen);
  }
  const names = items.flatMap((item) =>
    item.goodsId === undefined && item.marketHashName !== undefined && !item.marketHashName.includes("\u0000")
      ? [item.marketHashName]
      : [],
  );
  const found = await findCatalogGoods(ctx, names);
  return ok(
    items.map((item, index) => {
      // `goods_id` takes precedence over `market_hash_name` (reference: purchase/orders).
      const base = { maxPrice: prices[index]!, quantity: item.quantity };
      if (item.goodsId !== undefined)
        return {
          ...base,
          key: String(item.goodsId),
          goods: storableId(item.goodsId) ? { goodsId: item.goodsId } : { refusal: NO_SUCH_GOODS },
        };
      const goods = found.find((row) => row.market_hash_name === item.marketHashName);
      if (!goods) return { ...base, key: String(item.marketHashName), goods: { refusal: NO_SUCH_GOODS } };
      const key = String(goods.goods_id);
      if (!goods.is_standard) return { ...base, key, goods: { refusal: NOT_STANDARD } };
      return { ...base, key, goods: { goodsId: goods.goods_id } };
    }),
  );
}

/** Goods ids are the database's `integer`: a larger id names no goods (and must not reach a query). */
function storableId(goodsId: number): boolean {
  return Number.isSafeInteger(goodsId) && goodsId >= 1 && goodsId <= INT32_MAX;
}

async function findCatalogGoods(ctx: DomainContext, names: string[]) {
  if (names.length === 0) return [];
  return ctx.db
    .selectFrom("goods")
    .select(["goods_id", "market_hash_name", "is_standard"])
    .where("market_hash_name", "in", names)
    .execute();
}
