import type { GoodsTagRow } from "../../storage/schema.ts";
import { DemoRandom } from "./demo-random.ts";

/**
 * Plausible prices for the demo market, in fen: a goods' typical price comes from its type, rarity,
 * exterior and quality (knives and gloves high, cases and stickers low, StatTrak and souvenir
 * dearer, Factory New dearer than Battle-Scarred), times a fixed per-goods factor from the seed so
 * that goods of one kind differ. A listing asks a little above that, more for a low float within
 * its exterior or a rare Doppler phase.
 */

export interface PricedGoods {
  goods_id: number;
  /** The item without quality and exterior (`AK-47 | 红线`): one skin's exteriors share its demand. */
  short_name: string;
  type: string;
  quality: string;
  exterior: string | null;
  tags: GoodsTagRow[];
}

/** Yuan by rarity tag, per family of goods. */
const WEAPON_RARITY: Record<string, number> = {
  common_weapon: 0.4,
  uncommon_weapon: 1.2,
  rare_weapon: 3,
  mythical_weapon: 14,
  legendary_weapon: 55,
  ancient_weapon: 260,
  contraband: 9000,
};
const STICKER_RARITY: Record<string, number> = {
  common: 0.3,
  rare: 0.6,
  mythical: 3,
  legendary: 14,
  ancient: 70,
  contraband: 4000,
};
const AGENT_RARITY: Record<string, number> = {
  rare_character: 6,
  mythical_character: 18,
  legendary_character: 45,
  ancient_character: 120,
};
const TYPE_BASE: Record<string, number> = {
  knife: 1600,
  gloves: 1300,
  container: 2.5,
  key: 16,
  tool: 12,
  music_kit: 25,
  collectible: 45,
  charm: 8,
  graffiti: 0.5,
  patch: 4,
};
const EXTERIOR_FACTOR: Record<string, number> = {
  wearcategory0: 2.2,
  wearcategory1: 1.35,
  wearcategory2: 1,
  wearcategory3: 0.85,
  wearcategory4: 0.75,
};
const QUALITY_FACTOR: Record<string, number> = {
  stattrak: 2.6,
  souvenir: 3.2,
  unusual_stattrak: 1.35,
};
/** Doppler phases: the gems fetch several times a plain phase. */
export const PHASE_FACTOR: Record<string, number> = {
  ruby: 5,
  sapphire: 6,
  black_pearl: 3.5,
  emerald: 7,
  phase_1: 0.95,
  phase_2: 1.15,
  phase_3: 0.9,
  phase_4: 1.05,
};

function rarityOf(goods: PricedGoods): string | undefined {
  return goods.tags.find((tag) => tag.category === "rarity")?.internal_name;
}

/** The goods' typical price in fen (at least 0.03 yuan). */
export function typicalPrice(goods: PricedGoods, seed: number): number {
  const rarity = rarityOf(goods) ?? "";
  let yuan: number;
  if (goods.type === "weapon") yuan = WEAPON_RARITY[rarity] ?? 2;
  else if (goods.type === "sticker" || goods.type === "sticker_slab")
    yuan = (STICKER_RARITY[rarity] ?? 1) * (goods.type === "sticker_slab" ? 1.3 : 1);
  else if (goods.type === "agent") yuan = AGENT_RARITY[rarity] ?? 10;
  else yuan = TYPE_BASE[goods.type] ?? 5;
  if (goods.type === "patch") yuan *= (STICKER_RARITY[rarity] ?? 1) / 0.6;
  if (goods.type === "charm") yuan *= (STICKER_RARITY[rarity] ?? 1) / 0.6;
  if (goods.exterior) yuan *= EXTERIOR_FACTOR[goods.exterior] ?? 1;
  yuan *= QUALITY_FACTOR[goods.quality] ?? 1;
  // Goods of one kind differ: a log-normal factor per skin (shared by its exteriors and
  // qualities, so Factory New stays dearer than Battle-Scarred) and a small one per goods.
  yuan *= Math.exp(0.7 * new DemoRandom(seed, 101, stringHash(goods.short_name)).normal());
  yuan *= Math.exp(0.12 * new DemoRandom(seed, 103, goods.goods_id).normal());
  return Math.max(3, Math.round(yuan * 100));
}

/**
 * How often a goods trades and is listed, relative to others: cheap goods change hands far more
 * than dear ones, weapon skins and cases more than sticker slabs, and a few goods of every kind are
 * much in demand (a log-normal factor fixed per goods and seed), as on a real market where a small
 * share of the goods makes most of the trades.
 */
export function popularity(goods: PricedGoods, price: number, seed: number): number {
  const byType: Record<string, number> = {
    weapon: 1.6,
    knife: 1.2,
    gloves: 1.2,
    container: 2.5,
    key: 2,
    sticker: 0.6,
    sticker_slab: 0.25,
    graffiti: 0.3,
  };
  const demand = Math.exp(1.2 * new DemoRandom(seed, 102, goods.goods_id).normal());
  return ((byType[goods.type] ?? 0.8) * demand) / Math.max(1, price / 100) ** 0.75;
}

/** How likely a goods is to be among those on sale at all. */
export function coverageWeight(goods: PricedGoods): number {
  const byType: Record<string, number> = {
    weapon: 6,
    knife: 4,
    gloves: 6,
    container: 6,
    key: 6,
    agent: 6,
    music_kit: 4,
    sticker: 1.5,
    sticker_slab: 0.5,
    graffiti: 0.8,
  };
  return byType[goods.type] ?? 3;
}

/**
 * A listing's asking price: the typical price times the phase's factor, a premium for a float low
 * in its exterior's range (up to 15 %), and a seller's markup above the going rate (0-35 %,
 * most sellers near it).
 */
export function askingPrice(
  typical: number,
  random: DemoRandom,
  item: { phase?: string | undefined; wearPosition?: number | undefined },
  maxFen: number,
): number {
  let price = typical * (item.phase ? (PHASE_FACTOR[item.phase] ?? 1) : 1);
  if (item.wearPosition !== undefined) price *= 1 + 0.15 * (1 - item.wearPosition) ** 3;
  price *= 1 + 0.35 * random.next() ** 2.5;
  return Math.min(maxFen, Math.max(3, Math.round(price)));
}

/** A 32-bit FNV-1a hash of a string's UTF-16 code units. */
function stringHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  }
  return hash >>> 0;
}
