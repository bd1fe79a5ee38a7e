/**
 * Writes `src/tags.json`: the catalog's filter tags (weapon groups, weapons, exteriors, qualities,
 * rarities) with their Chinese names from the catalog and English names, for the catalog page's
 * filters. Run after the catalog changes: `node packages/web/scripts/build-tags.ts`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

interface Catalog {
  tags: { rows: Array<[number, string, string, string]> };
  goods: { columns: string[]; rows: unknown[][] };
}

const catalog = JSON.parse(
  gunzipSync(readFileSync(join(import.meta.dirname, "../../server/catalog/catalog.json.gz"))).toString(
    "utf8",
  ),
) as Catalog;

const ENGLISH: Record<string, string> = {
  wearcategory0: "Factory New",
  wearcategory1: "Minimal Wear",
  wearcategory2: "Field-Tested",
  wearcategory3: "Well-Worn",
  wearcategory4: "Battle-Scarred",
  normal: "Normal",
  strange: "StatTrak™",
  unusual: "★",
  unusual_strange: "★ StatTrak™",
  tournament: "Souvenir",
  common_weapon: "Consumer Grade",
  uncommon_weapon: "Industrial Grade",
  rare_weapon: "Mil-Spec Grade",
  mythical_weapon: "Restricted",
  legendary_weapon: "Classified",
  ancient_weapon: "Covert",
  contraband: "Contraband",
  common: "Base Grade",
  rare: "High Grade",
  mythical: "Remarkable",
  legendary: "Exotic",
  ancient: "Extraordinary",
  rare_character: "Distinguished",
  mythical_character: "Exceptional",
  legendary_character: "Superior",
  ancient_character: "Master",
  knife: "Knives",
  gloves: "Gloves",
  pistol: "Pistols",
  rifle: "Rifles",
  smg: "SMGs",
  shotgun: "Shotguns",
  machinegun: "Machine guns",
  equipment: "Equipment",
  sticker: "Stickers",
  sticker_slab: "Sticker slabs",
  charm: "Charms",
  music_kit: "Music kits",
  graffiti: "Graffiti",
  patch: "Patches",
  agent: "Agents",
  collectible: "Collectibles",
  tool: "Tools",
  key: "Keys",
  container: "Containers",
};

/** A weapon's English name, read from the first goods carrying its tag: `AK-47 | Redline (...)` -> `AK-47`. */
const column = (name: string) => catalog.goods.columns.indexOf(name);
const englishOfTag = new Map<number, string>();
for (const row of catalog.goods.rows) {
  const name = (row[column("marketHashName")] as string)
    .replace(/^★ /, "")
    .replace(/^(StatTrak™|Souvenir) /, "")
    .split(" | ")[0]!;
  for (const id of row[column("tagIds")] as number[]) if (!englishOfTag.has(id)) englishOfTag.set(id, name);
}

const wanted = ["category_group", "category", "exterior", "quality", "rarity"];
const tags: Record<string, Array<{ name: string; zh: string; en: string }>> = {};
for (const [id, category, internalName, localizedName] of catalog.tags.rows) {
  if (!wanted.includes(category)) continue;
  if (category === "category" && !internalName.startsWith("weapon_")) continue;
  const en =
    ENGLISH[internalName] ?? (category === "category" ? englishOfTag.get(id) : undefined) ?? internalName;
  (tags[category] ??= []).push({ name: internalName, zh: localizedName, en });
}
tags.category?.sort((a, b) => a.en.localeCompare(b.en));
writeFileSync(join(import.meta.dirname, "../src/tags.json"), JSON.stringify(tags) + "\n");
console.log(
  Object.entries(tags)
    .map(([key, list]) => `${key} ${list.length}`)
    .join(", "),
);
