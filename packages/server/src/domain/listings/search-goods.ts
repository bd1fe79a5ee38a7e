import type { DomainContext } from "../context.ts";
import { marketCatalog, type MarketCatalog } from "../market/market-goods.ts";

const lowered = new WeakMap<MarketCatalog, Array<{ goodsId: number; name: string; hashName: string }>>();

/**
 * The goods whose Chinese name or market hash name contains `search`, case-insensitively (the
 * listing filters' `search`). Matched against the catalog in memory: a pattern search over the
 * goods table would read all of it on every request, whatever the caller's listings.
 */
export async function searchGoods(ctx: DomainContext, search: string): Promise<number[]> {
  const catalog = await marketCatalog(ctx);
  let names = lowered.get(catalog);
  if (!names) {
    names = [...catalog.byId.values()].map((goods) => ({
      goodsId: goods.goods_id,
      name: goods.name.toLowerCase(),
      hashName: goods.market_hash_name.toLowerCase(),
    }));
    lowered.set(catalog, names);
  }
  const term = search.trim().toLowerCase();
  return names
    .filter((goods) => goods.name.includes(term) || goods.hashName.includes(term))
    .map((goods) => goods.goodsId);
}
