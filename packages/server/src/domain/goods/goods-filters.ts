import { PAINTWEAR_INTERVALS } from "@skinmarket/contract";
import type { GoodsTagRow } from "../../storage/schema.ts";
import { FADE_RANGES } from "../market/market-variants.ts";
import { phaseTagsOf } from "../catalog/phases.ts";
import { fadeCalculatorOf } from "../market/specific.ts";

export interface FilterGoods {
  market_hash_name: string;
  paintwear_min: string | null;
  paintwear_max: string | null;
  paint_index: number | null;
  tags: GoodsTagRow[];
}

/**
 * The reference's fixed intervals (those of the price operations) that overlap the goods' wear
 * range, none for goods without wear; `goods/sell_order` takes any `min_paintwear`/`max_paintwear`.
 */
export function paintwearChoices(goods: FilterGoods): Array<[string, string]> {
  if (goods.paintwear_min === null || goods.paintwear_max === null) return [];
  const low = Number(goods.paintwear_min);
  const high = Number(goods.paintwear_max);
  return PAINTWEAR_INTERVALS.filter(([min, max]) => Number(max) > low && Number(min) < high).map(
    ([min, max]) => [min, max],
  );
}

/** The fade ranges of the price operations, in percent, for Fade-style skins only. */
export function fadeChoices(goods: FilterGoods): Array<[string, string]> {
  return fadeCalculatorOf(goods) ? FADE_RANGES.map((range) => [String(range.from), String(range.to)]) : [];
}

/** The website's sorts of a goods' listings (the values `goods/sell_order` accepts). */
export const SELL_ORDER_SORT_MENU = [
  { title: "默认排序", value: "default" },
  { title: "价格从低到高", value: "price.asc" },
  { title: "价格从高到低", value: "price.desc" },
  { title: "最新上架", value: "created.desc" },
  { title: "最早上架", value: "created.asc" },
  { title: "磨损从低到高", value: "paintwear.asc" },
  { title: "磨损从高到低", value: "paintwear.desc" },
] as const;

/** The sort menu of the listings of a goods; wear sorts only where items have wear. */
export function sellOrderSortMenu(goods: FilterGoods) {
  const hasWear = goods.paintwear_min !== null;
  return {
    title: "排序",
    list: [
      {
        attribute: "sort_by",
        default_value: "default",
        list: SELL_ORDER_SORT_MENU.filter((entry) => hasWear || !entry.value.startsWith("paintwear")).map(
          (entry) => ({ title: entry.title, value: entry.value }),
        ),
      },
    ],
  };
}

/** A menu the marketplace does not offer (renting, auctions, deposits): nothing to choose. */
export const EMPTY_MENU = { title: "", list: [] };

/** Tag filters of the listings: the phases of a Doppler-style goods (`tag_ids`). */
export function listingAssetTags(goods: FilterGoods) {
  const phases = phaseTagsOf(goods);
  if (phases.length === 0) return [];
  return [
    {
      category: "phase",
      depth: 1,
      items: phases.map((tag) => ({ category: "phase", id: tag.id, name: tag.localized_name })),
      name: "款式",
      type: "tag_ids",
    },
  ];
}

/** The paint seed filter of the listings, for goods whose items have a pattern. */
export function listingPaintseedFilters(goods: FilterGoods) {
  if (goods.paint_index === null) return [];
  return [{ max: 1000, name: "图案模板", placeholder: "0-1000", search: true, type: "paintseed" }];
}
