import type { CS2Item } from "@ianlucas/cs2-lib";
import type { GoodsQuality } from "../../src/domain/catalog/catalog-file.ts";
import { slug, type BaseNames } from "./goods-names.ts";
import { isPhaseGroup, type ItemGroup } from "./group-items.ts";
import type { SourceIndex } from "./source-index.ts";
import {
  CATEGORY_GROUPS,
  CONTAINER_KINDS,
  PHASE_NAMES,
  QUALITIES,
  RARITY_BY_COLOR,
  RARITY_NAMES,
  TYPE_TAGS,
  WEAPON_CLASSES,
  type WeaponClass,
} from "./steam-names.ts";

/** The Steam tags of a goods, before they get ids from tag-ids.tsv. */

export interface TagDraft {
  category: string;
  internalName: string;
  localizedName: string;
}

const SNIPER_MODELS = new Set(["awp", "g3sg1", "scar20", "ssg08"]);
const MACHINEGUN_MODELS = new Set(["m249", "negev"]);

export function qualityTag(quality: GoodsQuality): TagDraft {
  const { internal, chinese } = QUALITIES[quality];
  return { category: "quality", internalName: internal, localizedName: chinese };
}

/** Tags every goods of the item shares: type, weapon, category, group, rarity, set, series, phases. */
export function commonTags(group: ItemGroup, item: CS2Item, context: SourceIndex): TagDraft[] {
  const tags: TagDraft[] = [];
  const tag = (category: string, internalName: string, localizedName: string): void => {
    tags.push({ category, internalName, localizedName });
  };
  const groupName = (internal: string): void =>
    tag("category_group", internal, CATEGORY_GROUPS[internal] ?? internal);
  if (group.type === "weapon") {
    const weaponClass = WEAPON_CLASSES[weaponClassOf(item)];
    tag("type", ...weaponClass.type);
    tags.push(...weaponTags(item, context));
    groupName(weaponClass.group);
  } else if (group.type === "knife" || group.type === "gloves") {
    tag("type", ...TYPE_TAGS[group.type]);
    tags.push(...weaponTags(item, context));
    groupName(group.type);
  } else {
    tag("type", ...TYPE_TAGS[group.type]);
    groupName(group.type);
    if (group.type === "container") tag("category", ...containerKind(item, context));
  }
  const rarity = RARITY_BY_COLOR[item.rarity ?? ""];
  if (rarity !== undefined) {
    const kind =
      group.type === "weapon" || group.type === "knife"
        ? "weapon"
        : group.type === "agent"
          ? "character"
          : "other";
    const suffix = kind === "other" || rarity === "contraband" ? "" : `_${kind}`;
    tag("rarity", rarity + suffix, RARITY_NAMES[kind][rarity] ?? RARITY_NAMES.other[rarity] ?? rarity);
  } else if (item.rarity !== undefined) {
    context.warn(`unknown rarity colour ${item.rarity} on cs2-lib item ${item.id}`);
  }
  if (item.collection !== undefined) {
    tag("itemset", item.collection, context.source.chinese[item.id]?.collectionName ?? item.collection);
  }
  const series = seriesOf(item, context);
  if (series !== null) tag("series", slug(series.english), series.chinese);
  if (isPhaseGroup(group)) {
    for (const phase of [...group.items].sort((a, b) => (a.index ?? 0) - (b.index ?? 0))) {
      const name = phase.altName ?? "";
      if (PHASE_NAMES[name] === undefined)
        context.warn(`unknown phase ${JSON.stringify(name)} on cs2-lib item ${phase.id}`);
      tag("phase", slug(name), PHASE_NAMES[name] ?? name);
    }
  }
  return tags;
}

/** `weapon_ak47` named after the weapon: the Chinese name before the finish. */
function weaponTags(item: CS2Item, context: SourceIndex): TagDraft[] {
  const internalName = `weapon_${item.model ?? "unknown"}`;
  const localizedName = context.chinese(item).split(" | ")[0] ?? "";
  return [
    { category: "weapon", internalName, localizedName },
    { category: "category", internalName, localizedName },
  ];
}

function weaponClassOf(item: CS2Item): WeaponClass {
  const model = item.model ?? "";
  switch (item.category) {
    case "secondary":
      return "pistol";
    case "rifle":
      return SNIPER_MODELS.has(model) ? "sniper_rifle" : "rifle";
    case "smg":
      return "smg";
    case "heavy":
      return MACHINEGUN_MODELS.has(model) ? "machinegun" : "shotgun";
    case "equipment":
      return "equipment";
    default:
      throw new Error(`cs2-lib item ${item.id}: unknown weapon category ${String(item.category)}`);
  }
}

function containerKind(item: CS2Item, context: SourceIndex): [string, string] {
  const firstContent = context.item(item.contents?.[0]);
  const key = item.containerType !== undefined ? String(item.containerType) : (firstContent?.type ?? "");
  return CONTAINER_KINDS[key] ?? ["other_container", "其他"];
}

/** The sticker series (tournament or capsule) of stickers, slabs, patches and graffiti. */
function seriesOf(item: CS2Item, context: SourceIndex): BaseNames | null {
  const id = item.stickerId ?? item.id;
  const english = context.source.english[id]?.category;
  if (english === undefined || english === "") return null;
  return { english, chinese: context.source.chinese[id]?.category ?? english };
}
