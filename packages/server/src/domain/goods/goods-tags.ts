import type { GoodsTagRow } from "../../storage/schema.ts";

export interface TagObject {
  id: number;
  category: string;
  internal_name: string;
  localized_name: string;
}

/**
 * A goods' tags grouped as the reference's tag objects, one per category: the first of each of
 * `categories` the goods carries (a skin drops from several cases; the first is its own case).
 * Categories the goods lacks are left out.
 */
export function tagObjects<Category extends string>(
  tags: readonly GoodsTagRow[],
  categories: readonly Category[],
): Partial<Record<Category, TagObject>> {
  const grouped: Partial<Record<Category, TagObject>> = {};
  for (const category of categories) {
    const tag = tags.find((entry) => entry.category === category);
    if (tag)
      grouped[category] = {
        id: tag.id,
        category: tag.category,
        internal_name: tag.internal_name,
        localized_name: tag.localized_name,
      };
  }
  return grouped;
}

/** The tag groups of `goods_infos` and catalog items (reference: Internal sell listing item). */
export const LISTING_TAG_CATEGORIES = [
  "category",
  "category_group",
  "custom",
  "exterior",
  "itemset",
  "model_version",
  "quality",
  "rarity",
  "series",
  "type",
  "weapon",
  "weaponcase",
] as const;

/** The tag groups of goods details. */
export const DETAIL_TAG_CATEGORIES = ["type", "rarity", "weapon", "quality", "exterior"] as const;

/** Goods whose items can be inspected in game (they have a look of their own). */
export function canInspect(type: string): boolean {
  return ["weapon", "knife", "gloves", "charm", "agent"].includes(type);
}
