import { SUGGESTION_COUNT } from "@skinmarket/contract";
import type { CatalogEntry, CatalogIndex } from "./catalog-index.ts";

/** How well a name matches the typed text: the whole name, its start, or somewhere inside. */
function rank(name: string, text: string): number | undefined {
  if (name === text) return 0;
  if (name.startsWith(text)) return 1;
  return name.includes(text) ? 2 : undefined;
}

/**
 * Name suggestions for a typed text (website route `search/suggest`, docs/design/website-goods-routes.md#the-websites-market-data-routes):
 * goods whose Chinese or English name contains it, case-insensitively; exact names first, then
 * names starting with it, then the rest, each group in the catalog's default order (most listings
 * first). Each suggestion shows the name that matched best (the Chinese one when both match as
 * well), so a tool comparing `option` with the name it typed finds its goods.
 */
export function suggestGoods(catalog: CatalogIndex, text: string | undefined) {
  const typed = text?.trim().toLowerCase();
  if (!typed) return { suggestions: [] };
  const groups: Array<Array<{ entry: CatalogEntry; english: boolean }>> = [[], [], []];
  for (const entry of catalog.orders.get("sell_num.desc")!) {
    const chinese = rank(entry.nameLower, typed);
    const english = rank(entry.hashNameLower, typed);
    const best = Math.min(chinese ?? 3, english ?? 3);
    if (best === 3) continue;
    groups[best]!.push({ entry, english: chinese === undefined || english! < chinese });
  }
  return {
    suggestions: groups
      .flat()
      .slice(0, SUGGESTION_COUNT)
      .map(({ entry, english }) => ({
        goods_ids: String(entry.goods.goods_id),
        option: english ? entry.goods.market_hash_name : entry.goods.name,
      })),
  };
}
