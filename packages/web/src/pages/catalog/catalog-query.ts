import { fenOf } from "../../format.ts";
import { t } from "../../i18n.ts";

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

/**
 * The float and seed filters among `values`, as the query of an item page's address ("" without
 * any): the goods a card links to lists only the listings that meet them. The sticker filter is
 * the catalog's alone (the listings route searches stickers by kit id, not by name).
 */
export function listingFiltersQuery(values: Record<string, string>): string {
  const params = new URLSearchParams();
  for (const key of ["min_paintwear", "max_paintwear", "paintseed"])
    if (values[key]) params.set(key, values[key]);
  const text = params.toString();
  return text ? `?${text}` : "";
}

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

/**
 * Why a price range cannot be searched, naming the field ("" when it can): a price that is not
 * one, or a min above the max. Checked before the address changes, so the old results never stand
 * in silently for a search that was not run.
 */
export function priceRangeError(min: string, max: string): string {
  const low = min ? fenOf(min) : 0;
  const high = max ? fenOf(max) : null;
  if (low === null) return t("Min price: enter an amount such as 12.50.");
  if (max && high === null) return t("Max price: enter an amount such as 12.50.");
  if (high !== null && low > high) return t("Min price must not be above Max price.");
  return "";
}
