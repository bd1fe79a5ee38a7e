import type { GoodsQuality, GoodsType } from "../../src/domain/catalog/catalog-file.ts";

/**
 * Steam's vocabulary: the names and tag values the market uses for exteriors, qualities, types,
 * weapon classes, rarities, phases and containers, in English and Simplified Chinese.
 */

export interface Exterior {
  key: string;
  english: string;
  chinese: string;
  min: number;
  max: number;
}

/** The Steam exterior intervals (not cs2-lib's constants, which end Field-Tested at 0.37). */
export const EXTERIORS: readonly Exterior[] = [
  { key: "wearcategory0", english: "Factory New", chinese: "崭新出厂", min: 0, max: 0.07 },
  { key: "wearcategory1", english: "Minimal Wear", chinese: "略有磨损", min: 0.07, max: 0.15 },
  { key: "wearcategory2", english: "Field-Tested", chinese: "久经沙场", min: 0.15, max: 0.38 },
  { key: "wearcategory3", english: "Well-Worn", chinese: "破损不堪", min: 0.38, max: 0.45 },
  { key: "wearcategory4", english: "Battle-Scarred", chinese: "战痕累累", min: 0.45, max: 1 },
];

export const QUALITIES: Record<
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
export const TYPE_TAGS: Record<Exclude<GoodsType, "weapon">, [string, string]> = {
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

export type WeaponClass =
  "pistol" | "rifle" | "sniper_rifle" | "smg" | "shotgun" | "machinegun" | "equipment";

export const WEAPON_CLASSES: Record<WeaponClass, { type: [string, string]; group: string }> = {
  pistol: { type: ["csgo_type_pistol", "手枪"], group: "pistol" },
  rifle: { type: ["csgo_type_rifle", "步枪"], group: "rifle" },
  // The marketplace browses sniper rifles among rifles; Steam's type tag keeps them apart.
  sniper_rifle: { type: ["csgo_type_sniperrifle", "狙击步枪"], group: "rifle" },
  smg: { type: ["csgo_type_smg", "微型冲锋枪"], group: "smg" },
  shotgun: { type: ["csgo_type_shotgun", "霰弹枪"], group: "shotgun" },
  machinegun: { type: ["csgo_type_machinegun", "机枪"], group: "machinegun" },
  equipment: { type: ["csgo_type_equipment", "装备"], group: "equipment" },
};

export const CATEGORY_GROUPS: Record<string, string> = {
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

/** cs2-lib rarity colours to Steam rarity names. */
export const RARITY_BY_COLOR: Record<string, string> = {
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
export const RARITY_NAMES: Record<"weapon" | "character" | "other", Record<string, string>> = {
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

export const PHASE_NAMES: Record<string, string> = {
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
export const CONTAINER_KINDS: Record<string, [string, string]> = {
  "0": ["weapon_case", "武器箱"],
  "1": ["sticker_capsule", "印花胶囊"],
  "2": ["graffiti_box", "涂鸦箱"],
  "3": ["souvenir_package", "纪念包"],
  musickit: ["music_kit_box", "音乐盒集"],
  collectible: ["pin_capsule", "收藏胸章胶囊"],
  patch: ["patch_pack", "布章包"],
};

/** What the market shows in front of a name per cs2-lib type; stripped where Steam has no prefix. */
export const STRIPPED_PREFIXES: Partial<Record<GoodsType, [string, string]>> = {
  agent: ["Agent | ", "探员 | "],
  container: ["Container | ", "武器箱 | "],
  key: ["Key | ", "钥匙 | "],
  tool: ["Tool | ", "工具 | "],
  collectible: ["Collectible | ", "收藏品 | "],
};
