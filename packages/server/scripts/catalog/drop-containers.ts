import type { CS2Item } from "@ianlucas/cs2-lib";
import { baseNames, slug } from "./goods-names.ts";
import type { TagDraft } from "./goods-tags.ts";
import type { SourceIndex } from "./source-index.ts";

/**
 * The cs2-lib container types (CS2ContainerType) that decide a weapon skin's qualities; numbers here
 * so this module loads without cs2-lib's data.
 */
const WEAPON_CASE = 0;
const SOUVENIR_PACKAGE = 3;

export interface ContainerRef {
  tag: TagDraft;
  keyedWeaponCase: boolean;
  souvenirPackage: boolean;
}

/** Containers that drop the item, once per market hash name (cs2-lib lists a few containers twice). */
export function uniqueContainers(containers: CS2Item[], context: SourceIndex): ContainerRef[] {
  const refs = new Map<string, ContainerRef>();
  for (const container of [...containers].sort((a, b) => a.id - b.id)) {
    const names = baseNames("container", container, context);
    const internalName = slug(names.english) || `container_${container.id}`;
    const ref = refs.get(internalName);
    const keyedWeaponCase = container.containerType === WEAPON_CASE && (container.keys?.length ?? 0) > 0;
    const souvenirPackage = container.containerType === SOUVENIR_PACKAGE;
    if (ref === undefined) {
      const tag = { category: "weaponcase", internalName, localizedName: names.chinese };
      refs.set(internalName, { tag, keyedWeaponCase, souvenirPackage });
    } else {
      ref.keyedWeaponCase ||= keyedWeaponCase;
      ref.souvenirPackage ||= souvenirPackage;
    }
  }
  return [...refs.values()];
}
