import type { CatalogEntry, CatalogIndex } from "./catalog-index.ts";
import { compactText, phraseTier, searchWords } from "./goods-search.ts";

/** A goods the typed text found, how closely (`phraseTier`), and in which of its names. */
export interface CatalogMatch {
  entry: CatalogEntry;
  tier: number;
  /** The English name matched better than the Chinese one (the one a suggestion shows). */
  english: boolean;
}

/**
 * The goods a typed text finds (docs/design/website-goods-routes.md#the-name-search), unordered,
 * each with its closeness; undefined when the text has no letter or digit.
 */
export function matchCatalog(catalog: CatalogIndex, text: string): CatalogMatch[] | undefined {
  const found = catalog.search.match(text);
  if (found === undefined) return undefined;
  const typed = compactText(text);
  const han = searchWords(text).some((word) => /\p{Script=Han}/u.test(word));
  const entries = found.flatMap((goods) => catalog.byId.get(goods.goods_id) ?? []);
  return entries.map((entry) => {
    const english = phraseTier(entry.hashNameCompact, typed);
    const chinese = phraseTier(entry.nameCompact, typed);
    return {
      entry,
      tier: Math.min(english, chinese),
      // Equally close: the Chinese name, unless only words matched and the text has no Han.
      english: english < chinese || (english === 3 && chinese === 3 && !han),
    };
  });
}

/**
 * The goods of a catalog order that a search finds; with `phraseFirst` (the order is the page's
 * default) the closest phrase matches come first, the order kept within each tier.
 */
export function searchOrder(
  catalog: CatalogIndex,
  order: readonly CatalogEntry[],
  search: string | undefined,
  phraseFirst: boolean,
): readonly CatalogEntry[] {
  if (search === undefined) return order;
  const matches = matchCatalog(catalog, search);
  if (matches === undefined) return order;
  const tiers = new Map(matches.map((match) => [match.entry, match.tier]));
  const found = order.filter((entry) => tiers.has(entry));
  // Array.prototype.sort is stable: the order holds within a tier.
  return phraseFirst ? found.sort((a, b) => tiers.get(a)! - tiers.get(b)!) : found;
}
