import type { CS2Item, CS2ItemTranslationMap } from "@ianlucas/cs2-lib";
import type {
  CatalogGoods,
  CatalogTag,
  GoodsQuality,
  GoodsType,
} from "../src/domain/catalog/catalog-file.ts";

/**
 * The pure half of `npm run catalog:build`: cs2-lib items plus the committed id mappings in, the
 * catalog file content and the grown mappings out. No I/O, so tests can run it on any input.
 * Rules (docs/design.md section 5, packages/server/catalog/README.md):
 * - one goods per Steam market hash name; skins expand per exterior their wear range reaches and
 *   per quality that exists; items that cannot be on the Steam market are left out;
 * - goods and tag ids come from append-only TSV mappings: a known name keeps its id forever, a
 *   new one gets the next id, a name cs2-lib stopped yielding keeps its line.
 */

export interface CatalogSource {
  /** Recorded in the file, e.g. `@ianlucas/cs2-lib@7.33.1`. */
  name: string;
  items: readonly CS2Item[];
  english: CS2ItemTranslationMap;
  chinese: CS2ItemTranslationMap;
  iconBaseUrl: string;
}

export interface CatalogMappings {
  /** `goods_id<TAB>market_hash_name` lines sorted by id; empty for a first build. */
  goodsIdsTsv: string;
  /** `tag_id<TAB>category<TAB>internal_name` lines sorted by id. */
  tagIdsTsv: string;
}

export interface CatalogBuild extends CatalogMappings {
  /** Ordered by goods id. */
  goods: CatalogGoods[];
  /** The uncompressed catalog file: compact JSON with one row per line, so diffs stay readable. */
  catalogJson: string;
  report: CatalogBuildReport;
}

export interface CatalogBuildReport {
  goodsByType: Record<GoodsType, number>;
  newGoods: number;
  newTags: number;
  /** Names in the mapping that this cs2-lib no longer yields; their ids stay reserved. */
  absentGoods: number;
  /** cs2-lib items sharing one market hash name; one of each is kept. */
  duplicates: DuplicateName[];
  /** cs2-lib items left out, by reason. */
  skipped: Record<string, number>;
  /** Data oddities worth a look (missing translations, unexpected prefixes ...). */
  warnings: string[];
}

export interface DuplicateName {
  name: string;
  keptSourceId: number;
  droppedSourceIds: number[];
  /** `phase`: Doppler-like finishes, one goods whose phases are variants (paint indexes). */
  kind: "phase" | "duplicate";
}

interface TagDraft {
  category: string;
  internalName: string;
  localizedName: string;
}

type GoodsDraft = Omit<CatalogGoods, "goodsId" | "tags" | "iconUrl"> & { tags: TagDraft[]; icon: string };

interface Exterior {
  key: string;
  english: string;
  chinese: string;
  min: number;
  max: number;
}

/** The Steam exterior intervals (not cs2-lib's constants, which end Field-Tested at 0.37). */
const EXTERIORS: readonly Exterior[] = [
  { key: "wearcategory0", english: "Factory New", chinese: "崭新出厂", min: 0, max: 0.07 },
  { key: "wearcategory1", english: "Minimal Wear", chinese: "略有磨损", min: 0.07, max: 0.15 },
  { key: "wearcategory2", english: "Field-Tested", chinese: "久经沙场", min: 0.15, max: 0.38 },
  { key: "wearcategory3", english: "Well-Worn", chinese: "破损不堪", min: 0.38, max: 0.45 },
  { key: "wearcategory4", english: "Battle-Scarred", chinese: "战痕累累", min: 0.45, max: 1 },
];

const QUALITIES: Record<
  GoodsQuality,
  { internal: string; chinese: string; english: string; marker: string }
> = {
  normal: { internal: "normal", chinese: "普通", english: "", marker: "" },
  stattrak: { internal: "strange", chinese: "StatTrak™", english: "StatTrak™ ", marker: "（StatTrak™）" },
  souvenir: { internal: "tournament", chinese: "纪念品", english: "Souvenir ", marker: "（纪念品）" },
  unusual: { internal: "unusual", chinese: "★", english: "★ ", marker: "" },
  unusual_stattrak: {
    internal: "unusual_strange",
    chinese: "★ StatTrak™",
    english: "★ StatTrak™ ",
    marker: "（StatTrak™）",
  },
};

/** Steam's type tag per goods type; weapons get theirs from the weapon class. */
const TYPE_TAGS: Record<Exclude<GoodsType, "weapon">, [string, string]> = {
  knife: ["csgo_type_knife", "匕首"],
  gloves: ["type_hands", "手套"],
  sticker: ["csgo_tool_sticker", "印花"],
  sticker_slab: ["csgo_tool_keychain", "挂件"],
  graffiti: ["csgo_type_spray", "涂鸦"],
  patch: ["csgo_tool_patch", "布章"],
  agent: ["type_customplayer", "探员"],
  music_kit: ["csgo_type_musickit", "音乐盒"],
  container: ["csgo_type_weaponcase", "武器箱"],
  key: ["csgo_tool_weaponcase_keytag", "钥匙"],
  tool: ["csgo_type_tool", "工具"],
  collectible: ["csgo_type_collectible", "收藏品"],
  charm: ["csgo_tool_keychain", "挂件"],
};

type WeaponClass = "pistol" | "rifle" | "sniper_rifle" | "smg" | "shotgun" | "machinegun" | "equipment";

const WEAPON_CLASSES: Record<WeaponClass, { type: [string, string]; group: string }> = {
  pistol: { type: ["csgo_type_pistol", "手枪"], group: "pistol" },
  rifle: { type: ["csgo_type_rifle", "步枪"], group: "rifle" },
  // The marketplace browses sniper rifles among rifles; Steam's type tag keeps them apart.
  sniper_rifle: { type: ["csgo_type_sniperrifle", "狙击步枪"], group: "rifle" },
  smg: { type: ["csgo_type_smg", "微型冲锋枪"], group: "smg" },
  shotgun: { type: ["csgo_type_shotgun", "霰弹枪"], group: "shotgun" },
  machinegun: { type: ["csgo_type_machinegun", "机枪"], group: "machinegun" },
  equipment: { type: ["csgo_type_equipment", "装备"], group: "equipment" },
};

const CATEGORY_GROUPS: Record<string, string> = {
  pistol: "手枪",
  rifle: "步枪",
  smg: "微型冲锋枪",
  shotgun: "霰弹枪",
  machinegun: "机枪",
  equipment: "装备",
  knife: "匕首",
  gloves: "手套",
  sticker: "印花",
  sticker_slab: "印花板",
  graffiti: "涂鸦",
  patch: "布章",
  agent: "探员",
  music_kit: "音乐盒",
  container: "武器箱",
  key: "钥匙",
  tool: "工具",
  collectible: "收藏品",
  charm: "挂件",
};

const SNIPER_MODELS = new Set(["awp", "g3sg1", "scar20", "ssg08"]);
const MACHINEGUN_MODELS = new Set(["m249", "negev"]);

/** cs2-lib rarity colours to Steam rarity names. */
const RARITY_BY_COLOR: Record<string, string> = {
  "#ded6cc": "common",
  "#b0c3d9": "common",
  "#5e98d9": "uncommon",
  "#4b69ff": "rare",
  "#8847ff": "mythical",
  "#d32ce6": "legendary",
  "#eb4b4b": "ancient",
  "#e4ae39": "contraband",
};

/** Steam names a rarity by what carries it: Covert weapons, Master agents, Extraordinary gloves. */
const RARITY_NAMES: Record<"weapon" | "character" | "other", Record<string, string>> = {
  weapon: {
    common: "消费级",
    uncommon: "工业级",
    rare: "军规级",
    mythical: "受限",
    legendary: "保密",
    ancient: "隐秘",
    contraband: "违禁",
  },
  character: { rare: "高级", mythical: "卓越", legendary: "非凡", ancient: "大师" },
  other: {
    common: "普通级",
    uncommon: "工业级",
    rare: "高级",
    mythical: "卓越",
    legendary: "奇异",
    ancient: "非凡",
    contraband: "违禁",
  },
};

const PHASE_NAMES: Record<string, string> = {
  "Phase 1": "P1",
  "Phase 2": "P2",
  "Phase 3": "P3",
  "Phase 4": "P4",
  Ruby: "红宝石",
  Sapphire: "蓝宝石",
  "Black Pearl": "黑珍珠",
  Emerald: "绿宝石",
};

/** cs2-lib container types (CS2ContainerType); kept here so this module loads without cs2-lib's data. */
const CONTAINER_KINDS: Record<string, [string, string]> = {
  "0": ["weapon_case", "武器箱"],
  "1": ["sticker_capsule", "印花胶囊"],
  "2": ["graffiti_box", "涂鸦箱"],
  "3": ["souvenir_package", "纪念包"],
  musickit: ["music_kit_box", "音乐盒集"],
  collectible: ["pin_capsule", "收藏胸章胶囊"],
  patch: ["patch_pack", "布章包"],
};
const WEAPON_CASE = 0;
const SOUVENIR_PACKAGE = 3;

/** Tools that exist in the game but cannot be traded: Storage Unit (1201), a single Charm Detachment (65). */
const UNTRADABLE_TOOL_DEFS = new Set([65, 1201]);

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

/** What the market shows in front of a name per cs2-lib type; stripped where Steam has no prefix. */
const STRIPPED_PREFIXES: Partial<Record<GoodsType, [string, string]>> = {
  agent: ["Agent | ", "探员 | "],
  container: ["Container | ", "武器箱 | "],
  key: ["Key | ", "钥匙 | "],
  tool: ["Tool | ", "工具 | "],
  collectible: ["Collectible | ", "收藏品 | "],
};

export function buildCatalog(source: CatalogSource, mappings: CatalogMappings): CatalogBuild {
  const context = new SourceIndex(source);
  const groups = groupByName(source.items, context);
  const drafts = uniqueDrafts(
    groups.flatMap((group) => expandGroup(group, context)),
    context,
  );
  const goodsIds = new IdMapping(mappings.goodsIdsTsv, 1, "goods-ids.tsv");
  const tagIds = new IdMapping(mappings.tagIdsTsv, 2, "tag-ids.tsv");
  const tags = new Map<number, CatalogTag>();
  const toTag = (draft: TagDraft): CatalogTag => {
    const id = tagIds.idOf([draft.category, draft.internalName]);
    const known = tags.get(id);
    if (known === undefined) {
      const tag = { id, ...draft };
      tags.set(id, tag);
      return tag;
    }
    if (known.localizedName !== draft.localizedName) {
      context.warn(
        `tag ${draft.category}/${draft.internalName} is named ${known.localizedName} and ${draft.localizedName}`,
      );
    }
    return known;
  };
  const goods: CatalogGoods[] = drafts.map(({ tags: tagDrafts, icon, ...draft }) => ({
    goodsId: goodsIds.idOf([draft.marketHashName]),
    ...draft,
    tags: tagDrafts.map(toTag),
    iconUrl: source.iconBaseUrl + icon,
  }));
  goods.sort((a, b) => a.goodsId - b.goodsId);
  const presentNames = new Set(goods.map((item) => item.marketHashName));
  return {
    goods,
    goodsIdsTsv: goodsIds.toTsv(),
    tagIdsTsv: tagIds.toTsv(),
    catalogJson: serializeCatalog(source, goods, tags),
    report: {
      goodsByType: countByType(goods),
      newGoods: goodsIds.added,
      newTags: tagIds.added,
      absentGoods: goodsIds.knownKeys().filter((name) => !presentNames.has(name)).length,
      duplicates: context.duplicates,
      skipped: context.skipped,
      warnings: [...context.warnings],
    },
  };
}

/** Lookups over one cs2-lib version, and the report the build collects on the way. */
class SourceIndex {
  readonly source: CatalogSource;
  readonly duplicates: DuplicateName[] = [];
  readonly skipped: Record<string, number> = {};
  readonly warnings = new Set<string>();
  readonly #byId = new Map<number, CS2Item>();
  readonly #containersOf = new Map<number, CS2Item[]>();

  constructor(source: CatalogSource) {
    this.source = source;
    for (const item of source.items) this.#byId.set(item.id, item);
    for (const container of source.items) {
      for (const id of [...(container.contents ?? []), ...(container.specials ?? [])]) {
        const list = this.#containersOf.get(id) ?? [];
        list.push(container);
        this.#containersOf.set(id, list);
      }
    }
  }

  item(id: number | undefined): CS2Item | undefined {
    return id === undefined ? undefined : this.#byId.get(id);
  }

  containersOf(item: CS2Item): CS2Item[] {
    return this.#containersOf.get(item.id) ?? [];
  }

  english(item: CS2Item): string {
    return this.source.english[item.id]?.name ?? "";
  }

  chinese(item: CS2Item): string {
    const name = this.source.chinese[item.id]?.name;
    if (name !== undefined && name !== "") return name;
    this.warn(
      `no Chinese name for cs2-lib item ${item.id} (${this.english(item)}); the English name stands in`,
    );
    return this.english(item);
  }

  skip(reason: string): null {
    this.skipped[reason] = (this.skipped[reason] ?? 0) + 1;
    return null;
  }

  warn(message: string): void {
    this.warnings.add(message);
  }
}

interface ItemGroup {
  type: GoodsType;
  /** The kept item first; the others share its market hash name. */
  items: CS2Item[];
}

/** Classifies every item, then gathers the ones that would share a market hash name. */
function groupByName(items: readonly CS2Item[], context: SourceIndex): ItemGroup[] {
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
function isPhaseGroup(group: ItemGroup): boolean {
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

function isSkinType(type: GoodsType): boolean {
  return type === "weapon" || type === "knife" || type === "gloves";
}

function expandGroup(group: ItemGroup, context: SourceIndex): GoodsDraft[] {
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

interface BaseNames {
  english: string;
  chinese: string;
}

/** The names without quality and exterior, in the form Steam and the marketplace use. */
function baseNames(type: GoodsType, item: CS2Item, context: SourceIndex): BaseNames {
  let english = context.english(item);
  let chinese = context.chinese(item);
  const prefixes = STRIPPED_PREFIXES[type];
  if (prefixes !== undefined) {
    english = stripPrefix(english, prefixes[0], context);
    chinese = stripPrefix(chinese, prefixes[1], context);
  }
  if (type === "graffiti") {
    // Only sealed graffiti trade; an opened one is a spray with charges left.
    english = `Sealed ${english}`;
    chinese = chinese.replace(/^涂鸦 \| /, "封装的涂鸦 | ");
  }
  return { english, chinese };
}

function stripPrefix(name: string, prefix: string, context: SourceIndex): string {
  if (name.startsWith(prefix)) return name.slice(prefix.length);
  context.warn(`${JSON.stringify(name)} does not start with ${JSON.stringify(prefix)}; kept whole`);
  return name;
}

/** `StatTrak™ AK-47 | Redline` and `AK-47（StatTrak™） | 红线`, `★ Karambit` and `★ 爪子刀`. */
function qualityNames(names: BaseNames, quality: GoodsQuality): { marketHashName: string; name: string } {
  const { english, marker } = QUALITIES[quality];
  const star = quality === "unusual" || quality === "unusual_stattrak" ? "★ " : "";
  const separator = names.chinese.indexOf(" | ");
  const chinese =
    separator < 0
      ? names.chinese + marker
      : names.chinese.slice(0, separator) + marker + names.chinese.slice(separator);
  return { marketHashName: english + names.english, name: star + chinese };
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

function qualityTag(quality: GoodsQuality): TagDraft {
  const { internal, chinese } = QUALITIES[quality];
  return { category: "quality", internalName: internal, localizedName: chinese };
}

/** Tags every goods of the item shares: type, weapon, category, group, rarity, set, series, phases. */
function commonTags(group: ItemGroup, item: CS2Item, context: SourceIndex): TagDraft[] {
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

interface ContainerRef {
  tag: TagDraft;
  keyedWeaponCase: boolean;
  souvenirPackage: boolean;
}

/** Containers that drop the item, once per market hash name (cs2-lib lists a few containers twice). */
function uniqueContainers(containers: CS2Item[], context: SourceIndex): ContainerRef[] {
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

function slug(text: string): string {
  return text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/** The market hash name is the goods' identity: if two drafts still share one, the first stays. */
function uniqueDrafts(drafts: GoodsDraft[], context: SourceIndex): GoodsDraft[] {
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

/**
 * An append-only `id<TAB>key...` mapping. Lines are parsed strictly so that writing them back
 * reproduces the committed text byte for byte; new keys get ids above the highest one.
 */
class IdMapping {
  readonly #lines: string[] = [];
  readonly #ids = new Map<string, number>();
  readonly #file: string;
  #next = 1;
  added = 0;

  constructor(tsv: string, fields: number, file: string) {
    this.#file = file;
    const lines = tsv === "" ? [] : tsv.replace(/\n$/, "").split("\n");
    lines.forEach((line, index) => {
      const [idText = "", ...key] = line.split("\t");
      const id = Number(idText);
      if (!/^[1-9][0-9]*$/.test(idText) || key.length !== fields || key.some((part) => part === "")) {
        throw new Error(
          `${file} line ${index + 1}: expected an id and ${fields} non-empty fields: ${JSON.stringify(line)}`,
        );
      }
      if (id < this.#next)
        throw new Error(`${file} line ${index + 1}: id ${id} is not above the previous line's`);
      if (this.#ids.has(key.join("\t")))
        throw new Error(`${file} line ${index + 1}: ${key.join(" ")} is mapped twice`);
      this.#ids.set(key.join("\t"), id);
      this.#lines.push(line);
      this.#next = id + 1;
    });
  }

  idOf(key: string[]): number {
    const joined = key.join("\t");
    const known = this.#ids.get(joined);
    if (known !== undefined) return known;
    if (key.some((part) => part === "" || /[\t\n\r]/.test(part))) {
      throw new Error(`${this.#file}: ${JSON.stringify(key)} cannot be a mapping key`);
    }
    const id = this.#next++;
    this.#ids.set(joined, id);
    this.#lines.push(`${id}\t${joined}`);
    this.added++;
    return id;
  }

  /** Every mapped key, its fields joined by tabs. */
  knownKeys(): string[] {
    return [...this.#ids.keys()];
  }

  toTsv(): string {
    return this.#lines.map((line) => `${line}\n`).join("");
  }
}

const TAG_COLUMNS = ["id", "category", "internalName", "localizedName"];
const GOODS_COLUMNS = [
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
];

/**
 * The layout `readCatalogFile` expects (src/domain/catalog/catalog-file.ts): tags once, goods as
 * rows that point at tag ids, icons relative to one base URL. The freshness test reads the
 * written file back and compares it with the build, so the two sides cannot drift apart.
 */
function serializeCatalog(
  source: CatalogSource,
  goods: CatalogGoods[],
  tags: Map<number, CatalogTag>,
): string {
  const tagRows = [...tags.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, tag]) => JSON.stringify([tag.id, tag.category, tag.internalName, tag.localizedName]));
  const goodsRows = goods.map((item) =>
    JSON.stringify([
      item.goodsId,
      item.marketHashName,
      item.name,
      item.shortName,
      item.type,
      item.quality,
      item.exterior,
      item.tags.map((tag) => tag.id),
      item.paintwearMin,
      item.paintwearMax,
      item.paintIndex,
      item.iconUrl.slice(source.iconBaseUrl.length),
      item.isStandard,
      item.sourceId,
      item.rarityColor,
    ]),
  );
  const header = JSON.stringify({
    format: "skinmarket-catalog/1",
    source: source.name,
    iconBaseUrl: source.iconBaseUrl,
  });
  return (
    `${header.slice(0, -1)},\n"tags":{"columns":${JSON.stringify(TAG_COLUMNS)},"rows":[\n${tagRows.join(",\n")}\n]},\n` +
    `"goods":{"columns":${JSON.stringify(GOODS_COLUMNS)},"rows":[\n${goodsRows.join(",\n")}\n]}}\n`
  );
}

function countByType(goods: CatalogGoods[]): Record<GoodsType, number> {
  const counts: Record<GoodsType, number> = {
    weapon: 0,
    knife: 0,
    gloves: 0,
    sticker: 0,
    sticker_slab: 0,
    graffiti: 0,
    patch: 0,
    agent: 0,
    music_kit: 0,
    container: 0,
    key: 0,
    tool: 0,
    collectible: 0,
    charm: 0,
  };
  for (const item of goods) counts[item.type]++;
  return counts;
}
