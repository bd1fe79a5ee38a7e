import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";

/**
 * The committed catalog file (`packages/server/catalog/catalog.json.gz`, written by
 * `npm run catalog:build`, see `packages/server/catalog/README.md`) and its reader.
 * Design: docs/design/domain-model.md#catalog-goods.
 */

export type GoodsType =
  | "weapon"
  | "knife"
  | "gloves"
  | "sticker"
  | "sticker_slab"
  | "graffiti"
  | "patch"
  | "agent"
  | "music_kit"
  | "container"
  | "key"
  | "tool"
  | "collectible"
  | "charm";

/**
 * The Steam item quality the market hash name shows:
 * - `normal`: no prefix (every sticker, case, key, agent... and plain skins);
 * - `stattrak`: `StatTrak™ ` (weapon skins from keyed cases, music kits);
 * - `souvenir`: `Souvenir ` (weapon skins from souvenir packages);
 * - `unusual`: `★ ` (knives and gloves);
 * - `unusual_stattrak`: `★ StatTrak™ ` (knives; gloves never count kills).
 * The quality tag carries Steam's internal names (`normal`, `strange`, `tournament`, `unusual`,
 * `unusual_strange`), as the reference's tag objects do.
 */
export type GoodsQuality = "normal" | "stattrak" | "souvenir" | "unusual" | "unusual_stattrak";

/**
 * One tag of the reference's tag groups. `category` is one of: `type`, `weapon`, `category`,
 * `category_group`, `rarity`, `quality`, `exterior`, `itemset` (collection), `weaponcase` (every
 * container the item drops from), `series` (sticker, patch and graffiti series such as a
 * tournament), `phase` (Doppler and Gamma Doppler phases of the goods). Ids are stable
 * (`catalog/tag-ids.tsv`, append-only).
 */
export interface CatalogTag {
  id: number;
  category: string;
  internalName: string;
  localizedName: string;
}

export interface CatalogGoods {
  /** Stable: `catalog/goods-ids.tsv` maps market hash names to ids and only ever grows. */
  goodsId: number;
  /** The Steam market hash name, English. */
  marketHashName: string;
  /** Simplified Chinese full name, in the marketplace's form: `AK-47（StatTrak™） | 红线 (久经沙场)`. */
  name: string;
  /** `name` without quality and exterior: `AK-47 | 红线`, `爪子刀 | 多普勒`. */
  shortName: string;
  type: GoodsType;
  quality: GoodsQuality;
  /** Steam's exterior tag, lower case: `wearcategory0` (Factory New) ... `wearcategory4` (Battle-Scarred); null without wear. */
  exterior: string | null;
  tags: CatalogTag[];
  /** The paintwear this goods can have: the exterior's interval intersected with the skin's own range. */
  paintwearMin: string | null;
  paintwearMax: string | null;
  /** The finish's paint index for skins (the Phase 1 index for Doppler-like finishes); null otherwise. */
  paintIndex: number | null;
  iconUrl: string;
  /**
   * Fungible goods without wear or pattern (docs/design/domain-model.md#catalog-goods): stickers, sticker slabs,
   * sealed graffiti, patches, agents, music kits, containers, keys, tools and collectibles.
   * Not standard: weapon skins, knives and gloves (wear and pattern) and charms (each charm has a
   * pattern template that changes its look and price).
   */
  isStandard: boolean;
  /** The `@ianlucas/cs2-lib` item id this goods comes from (sticker kit, skin, charm ...). */
  sourceId: number;
  /** Rarity colour as `#rrggbb`. */
  rarityColor: string | null;
  /**
   * The game's own id of the item's kit, the one inventories and inspect links carry and tools
   * map against their tables (docs/design/domain-model.md#catalog-goods): the sticker kit id of stickers, patches
   * and sealed graffiti (49 for "Sticker | 3DMAX (Holo) | Katowice 2014"), the keychain definition
   * index of charms and sticker slabs, the music kit id of music kits; null for skins (their paint
   * index is `paintIndex`) and items without a kit.
   */
  gameIndex: number | null;
}

export const CATALOG_FILE_PATH: string = resolve(import.meta.dirname, "../../../catalog/catalog.json.gz");

/** The file names its columns; a reader built for another layout stops instead of misreading. */
export const CATALOG_FORMAT = "skinmarket-catalog/2";
export const CATALOG_TAG_COLUMNS: readonly string[] = ["id", "category", "internalName", "localizedName"];
export const CATALOG_GOODS_COLUMNS: readonly string[] = [
  "goodsId",
  "marketHashName",
  "name",
  "shortName",
  "type",
  "quality",
  "exterior",
  "tagIds",
  "paintwearMin",
  "paintwearMax",
  "paintIndex",
  "icon",
  "isStandard",
  "sourceId",
  "rarityColor",
  "gameIndex",
];

type GoodsRow = [
  goodsId: number,
  marketHashName: string,
  name: string,
  shortName: string,
  type: GoodsType,
  quality: GoodsQuality,
  exterior: string | null,
  tagIds: number[],
  paintwearMin: string | null,
  paintwearMax: string | null,
  paintIndex: number | null,
  icon: string,
  isStandard: boolean,
  sourceId: number,
  rarityColor: string | null,
  gameIndex: number | null,
];

interface CatalogFileContent {
  format: string;
  iconBaseUrl: string;
  tags: { columns: string[]; rows: [number, string, string, string][] };
  goods: { columns: string[]; rows: GoodsRow[] };
}

const gunzipAsync = promisify(gunzip);

/** Reads the whole catalog, ordered by goods id. Goods sharing a tag share one tag object. */
export async function readCatalogFile(path: string = CATALOG_FILE_PATH): Promise<CatalogGoods[]> {
  const content = parseCatalogFile(await gunzipAsync(await readFile(path)), path);
  const tags = new Map<number, CatalogTag>();
  for (const [id, category, internalName, localizedName] of content.tags.rows) {
    tags.set(id, { id, category, internalName, localizedName });
  }
  return content.goods.rows.map((row) => toGoods(row, tags, content.iconBaseUrl, path));
}

function parseCatalogFile(bytes: Buffer, path: string): CatalogFileContent {
  const content = JSON.parse(bytes.toString("utf8")) as CatalogFileContent;
  if (content.format !== CATALOG_FORMAT) {
    throw new Error(`${path}: format ${JSON.stringify(content.format)}, expected ${CATALOG_FORMAT}`);
  }
  if (
    !sameColumns(content.tags.columns, CATALOG_TAG_COLUMNS) ||
    !sameColumns(content.goods.columns, CATALOG_GOODS_COLUMNS)
  ) {
    throw new Error(`${path}: unexpected columns; rebuild it with npm run catalog:build`);
  }
  return content;
}

function sameColumns(actual: readonly string[], expected: readonly string[]): boolean {
  return actual.length === expected.length && actual.every((column, index) => column === expected[index]);
}

function toGoods(
  row: GoodsRow,
  tags: Map<number, CatalogTag>,
  iconBaseUrl: string,
  path: string,
): CatalogGoods {
  const [goodsId, marketHashName, name, shortName, type, quality, exterior, tagIds, ...rest] = row;
  const [paintwearMin, paintwearMax, paintIndex, icon, isStandard, sourceId, rarityColor, gameIndex] = rest;
  return {
    goodsId,
    marketHashName,
    name,
    shortName,
    type,
    quality,
    exterior,
    tags: tagIds.map((id) => {
      const tag = tags.get(id);
      if (tag === undefined) throw new Error(`${path}: goods ${goodsId} refers to unknown tag ${id}`);
      return tag;
    }),
    paintwearMin,
    paintwearMax,
    paintIndex,
    iconUrl: iconBaseUrl + icon,
    isStandard,
    sourceId,
    rarityColor,
    gameIndex,
  };
}
