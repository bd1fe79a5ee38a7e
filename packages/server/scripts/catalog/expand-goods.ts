import type { CatalogGoods, GoodsQuality, GoodsType } from "../../src/domain/catalog/catalog-file.ts";
import { uniqueContainers, type ContainerRef } from "./drop-containers.ts";
import { baseNames, qualityNames } from "./goods-names.ts";
import { commonTags, qualityTag, type TagDraft } from "./goods-tags.ts";
import { isSkinType, type ItemGroup } from "./group-items.ts";
import type { SourceIndex } from "./source-index.ts";
import { EXTERIORS, type Exterior } from "./steam-names.ts";

/** One goods per quality and exterior an item group comes in, named and tagged, before it gets ids. */

export type GoodsDraft = Omit<CatalogGoods, "goodsId" | "tags" | "iconUrl"> & {
  tags: TagDraft[];
  icon: string;
};

/** Goods whose cs2-lib `index` is the game's id of their kit (sticker kit, keychain, music kit). */
const KIT_TYPES = new Set<GoodsType>(["sticker", "sticker_slab", "patch", "graffiti", "charm", "music_kit"]);

const STANDARD_TYPES = new Set<GoodsType>([
  "sticker",
  "sticker_slab",
  "graffiti",
  "patch",
  "agent",
  "music_kit",
  "container",
  "key",
  "tool",
  "collectible",
]);

export function expandGroup(group: ItemGroup, context: SourceIndex): GoodsDraft[] {
  const [item] = group.items;
  if (item === undefined) return [];
  const names = baseNames(group.type, item, context);
  const containers = uniqueContainers(
    group.items.flatMap((member) => context.containersOf(member)),
    context,
  );
  const tags = [...commonTags(group, item, context), ...containers.map((container) => container.tag)];
  const base = {
    type: group.type,
    paintIndex: null,
    icon: item.image ?? "",
    isStandard: STANDARD_TYPES.has(group.type),
    sourceId: item.id,
    rarityColor: item.rarity ?? null,
    gameIndex: KIT_TYPES.has(group.type) ? (item.index ?? null) : null,
  };
  if (base.icon === "") context.warn(`no image for cs2-lib item ${item.id} (${names.english})`);
  const qualities = qualitiesOf(group, containers);
  if (!isSkinType(group.type) || item.index === 0 || item.index === undefined) {
    return qualities.map((quality) => ({
      ...base,
      ...qualityNames(names, quality),
      shortName: names.chinese,
      quality,
      exterior: null,
      tags: [...tags, qualityTag(quality)],
      paintwearMin: null,
      paintwearMax: null,
    }));
  }
  const wearMin = item.wearMin ?? 0;
  const wearMax = item.wearMax ?? 1;
  return qualities.flatMap((quality) =>
    EXTERIORS.filter((exterior) => reaches(exterior, wearMin, wearMax)).map((exterior) => {
      const named = qualityNames(names, quality);
      return {
        ...base,
        marketHashName: `${named.marketHashName} (${exterior.english})`,
        name: `${named.name} (${exterior.chinese})`,
        shortName: names.chinese,
        quality,
        exterior: exterior.key,
        tags: [
          ...tags,
          qualityTag(quality),
          { category: "exterior", internalName: exterior.key, localizedName: exterior.chinese },
        ],
        paintwearMin: formatWear(Math.max(wearMin, exterior.min)),
        paintwearMax: formatWear(Math.min(wearMax, exterior.max)),
        paintIndex: item.index ?? null,
      };
    }),
  );
}

function qualitiesOf(group: ItemGroup, containers: ContainerRef[]): GoodsQuality[] {
  switch (group.type) {
    case "knife":
      return ["unusual", "unusual_stattrak"];
    case "gloves":
      return ["unusual"];
    case "music_kit":
      return ["normal", "stattrak"];
    case "weapon": {
      const qualities: GoodsQuality[] = ["normal"];
      // StatTrak™ comes from keyed weapon cases; the Howl left its case but kept its StatTrak™ copies.
      const contraband = group.items.some((item) => item.rarity === "#e4ae39");
      if (contraband || containers.some((container) => container.keyedWeaponCase)) qualities.push("stattrak");
      if (containers.some((container) => container.souvenirPackage)) qualities.push("souvenir");
      return qualities;
    }
    default:
      return ["normal"];
  }
}

function reaches(exterior: Exterior, wearMin: number, wearMax: number): boolean {
  if (wearMin === wearMax) return wearMin >= exterior.min && (wearMin < exterior.max || exterior.max === 1);
  return wearMin < exterior.max && wearMax > exterior.min;
}

/** Decimal text with at least two decimals: 0 -> "0.00", 0.8 -> "0.80", 0.501961 stays. */
function formatWear(wear: number): string {
  const [whole, fraction = ""] = String(wear).split(".");
  return `${whole}.${fraction.padEnd(2, "0")}`;
}

/** The market hash name is the goods' identity: if two drafts still share one, the first stays. */
export function uniqueDrafts(drafts: GoodsDraft[], context: SourceIndex): GoodsDraft[] {
  const byName = new Map<string, GoodsDraft>();
  for (const draft of drafts) {
    const kept = byName.get(draft.marketHashName);
    if (kept === undefined) byName.set(draft.marketHashName, draft);
    else {
      context.duplicates.push({
        name: draft.marketHashName,
        keptSourceId: kept.sourceId,
        droppedSourceIds: [draft.sourceId],
        kind: "duplicate",
      });
    }
  }
  return [...byName.values()];
}
