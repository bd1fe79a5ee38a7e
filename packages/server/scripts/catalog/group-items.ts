import type { CS2Item } from "@ianlucas/cs2-lib";
import type { GoodsType } from "../../src/domain/catalog/catalog-file.ts";
import { baseNames } from "./goods-names.ts";
import type { SourceIndex } from "./source-index.ts";

/** Which cs2-lib items become goods, of which type, and which of them share one market hash name. */

/** Tools that exist in the game but cannot be traded: Storage Unit (1201), a single Charm Detachment (65). */
const UNTRADABLE_TOOL_DEFS = new Set([65, 1201]);

export interface ItemGroup {
  type: GoodsType;
  /** The kept item first; the others share its market hash name. */
  items: CS2Item[];
}

/** Classifies every item, then gathers the ones that would share a market hash name. */
export function groupByName(items: readonly CS2Item[], context: SourceIndex): ItemGroup[] {
  const groups = new Map<string, ItemGroup>();
  for (const item of items) {
    const type = goodsTypeOf(item, context);
    if (type === null) continue;
    const key = `${type}\n${context.english(item)}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { type, items: [item] });
    else group.items.push(item);
  }
  const result = [...groups.values()];
  for (const group of result) {
    if (group.items.length > 1) keepPreferredItem(group, context);
  }
  return result;
}

function goodsTypeOf(item: CS2Item, context: SourceIndex): GoodsType | null {
  if (context.english(item) === "") {
    context.warn(`no English name for cs2-lib item ${item.id}; left out`);
    return context.skip("no English name");
  }
  if (item.free === true)
    return context.skip("default item, given to everyone (stock weapons, default knives ...)");
  switch (item.type) {
    case "weapon":
      return item.base === true ? context.skip("weapon without a finish") : "weapon";
    case "melee":
      return "knife";
    case "glove":
      return item.base === true ? context.skip("glove model without a finish") : "gloves";
    case "sticker":
      return "sticker";
    case "keychain":
      if (item.stickerId !== undefined) return "sticker_slab";
      // Steam names each souvenir highlight charm after its highlight; cs2-lib has one generic item.
      if (context.english(item).endsWith(" Highlight"))
        return context.skip("generic souvenir highlight charm");
      return "charm";
    case "graffiti":
      return "graffiti";
    case "patch":
      return "patch";
    case "agent":
      return "agent";
    case "musickit":
      return "music_kit";
    case "case":
      return "container";
    case "key":
      return "key";
    case "tool":
      return UNTRADABLE_TOOL_DEFS.has(item.def ?? -1) ? context.skip("untradable tool") : "tool";
    case "collectible":
      // Only pins trade; coins, medals, trophies and badges stay with the account that earned them.
      return /\bPin - /.test(item.altName ?? "") ? "collectible" : context.skip("untradable collectible");
    default:
      return context.skip(`cs2-lib type ${item.type}, not an inventory item`);
  }
}

/**
 * Picks which item a shared name keeps. Doppler-like finishes are one cs2-lib item per phase:
 * the goods keeps Phase 1 and lists every phase as a tag. Otherwise the item some container
 * drops wins (pins: the tradable "commodity" copy), then the oldest cs2-lib id.
 */
function keepPreferredItem(group: ItemGroup, context: SourceIndex): void {
  const rank = (item: CS2Item): number[] => [
    item.altName !== undefined && item.altName !== "Phase 1" && isSkinType(group.type) ? 1 : 0,
    context.containersOf(item).length > 0 ? 0 : 1,
    item.id,
  ];
  group.items.sort((a, b) => compareRanks(rank(a), rank(b)));
  const [kept, ...dropped] = group.items;
  if (kept === undefined) return;
  context.duplicates.push({
    name: baseNames(group.type, kept, context).english,
    keptSourceId: kept.id,
    droppedSourceIds: dropped.map((item) => item.id),
    kind: isPhaseGroup(group) ? "phase" : "duplicate",
  });
}

/** cs2-lib's one-item-per-phase finishes: skins sharing a name, each naming its phase. */
export function isPhaseGroup(group: ItemGroup): boolean {
  return (
    isSkinType(group.type) &&
    group.items.length > 1 &&
    group.items.every((item) => item.altName !== undefined)
  );
}

function compareRanks(a: number[], b: number[]): number {
  for (let index = 0; index < a.length; index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

export function isSkinType(type: GoodsType): boolean {
  return type === "weapon" || type === "knife" || type === "gloves";
}
