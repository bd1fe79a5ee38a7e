import { formatMoney, SUGGESTION_COUNT } from "@skinmarket/contract";
import type { CatalogIndex } from "./catalog-index.ts";
import { matchCatalog } from "./search-catalog.ts";

/**
 * Name suggestions for a typed text (website route `search/suggest`, docs/design/website-goods-routes.md#the-name-search):
 * the goods the forgiving name search finds, the closest phrase first (the whole name, then names
 * starting with the text, then names containing it, then word-by-word matches), each tier by
 * popularity: the most traded goods first (so the most traded exterior of a skin leads), then
 * the most listed, then the newest. Each suggestion shows the name that matched best (the
 * Chinese one when both match as well), so a tool comparing `option` with the name it typed
 * finds its goods, and its lowest tradable listing from the catalog index.
 */
export function suggestGoods(catalog: CatalogIndex, text: string | undefined) {
  const matches = text === undefined ? undefined : matchCatalog(catalog, text);
  if (!matches) return { suggestions: [] };
  matches.sort(
    (a, b) =>
      a.tier - b.tier ||
      b.entry.transacted - a.entry.transacted ||
      b.entry.sellNum - a.entry.sellNum ||
      b.entry.goods.goods_id - a.entry.goods.goods_id,
  );
  return {
    suggestions: matches.slice(0, SUGGESTION_COUNT).map(({ entry, english }) => ({
      goods_ids: String(entry.goods.goods_id),
      option: english ? entry.goods.market_hash_name : entry.goods.name,
      sell_min_price: formatMoney(entry.sellMin ?? 0),
      sell_num: entry.sellNum,
    })),
  };
}
