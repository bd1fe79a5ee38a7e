/** The catalog's filters, sorts and how its state is kept in the page's address. */

export const FILTERS = [
  ["category_group", "Type"],
  ["category", "Weapon"],
  ["exterior", "Exterior"],
  ["quality", "Quality"],
  ["rarity", "Rarity"],
] as const;
export const SORTS = [
  ["sell_num.desc", "Most listings"],
  ["price.asc", "Price: low to high"],
  ["price.desc", "Price: high to low"],
  ["transacted_num.desc", "Most traded"],
  ["created.desc", "Newest"],
] as const;
/** Filters on the listings of each goods (a goods stays when one of its listings meets them all). */
export const LISTING_FILTERS = [
  ["min_paintwear", "Min float", "decimal"],
  ["max_paintwear", "Max float", "decimal"],
  ["paintseed", "Paint seed", "numeric"],
  ["sticker", "Sticker", "text"],
] as const;
const QUERY_KEYS = [
  "search",
  ...FILTERS.map(([key]) => key),
  "min_price",
  "max_price",
  ...LISTING_FILTERS.map(([key]) => key),
  "sort_by",
  "page_num",
];

export function readQuery(query: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const key of QUERY_KEYS) {
    const value = query.get(key);
    if (value) values[key] = value;
  }
  return values;
}

export function urlOf(values: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `/?${text}` : "/";
}
