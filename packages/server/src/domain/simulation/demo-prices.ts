import type { GoodsTagRow } from "../../storage/schema.ts";
import { DemoRandom } from "./demo-random.ts";
import {
  AGENT_RARITY,
  CASELESS_COLLECTION,
  GLOVE_EXTERIOR,
  GLOVE_FINISH,
  GLOVE_MODEL,
  GLOVE_MODEL_DEFAULT,
  KNIFE_AND_GLOVES_FLOOR,
  KNIFE_EXTERIOR,
  KNIFE_FINISH,
  KNIFE_MODEL,
  KNIFE_MODEL_DEFAULT,
  PHASE_FACTOR,
  QUALITY_FACTOR,
  STEEP_FINISHES,
  STICKER_RARITY,
  STICKER_YEAR,
  TYPE_BASE,
  WEAPON_EXTERIOR,
  WEAPON_RARITY,
} from "./price-rules.ts";

/**
 * Plausible prices for the demo market, in fen (docs/design/platform-and-sandbox.md#demo-prices):
 * a goods' typical price is a level from the rules the catalog knows (`price-rules.ts`: the knife
 * or glove model and its finish, the weapon skin's rarity and its collection, the sticker's rarity
 * and tournament year, the type of the rest), times its exterior and quality, times bounded
 * factors drawn from the seed: one per collection, one per skin (shared by its exteriors and
 * qualities) and a small one per goods, too small to put a skin's exteriors or qualities out of
 * order. A listing asks a little above that, more for a low float within its exterior or a rare
 * Doppler phase.
 */

export interface PricedGoods {
  goods_id: number;
  /** The Steam market hash name: a knife's or glove's finish is read from it. */
  market_hash_name: string;
  /** The item without quality and exterior (`AK-47 | 红线`): one skin's exteriors share its demand. */
  short_name: string;
  type: string;
  quality: string;
  exterior: string | null;
  tags: GoodsTagRow[];
}

function tagOf(goods: PricedGoods, category: string): string | undefined {
  return goods.tags.find((tag) => tag.category === category)?.internal_name;
}

/** The finish of a knife or glove from its name (`★ StatTrak™ Karambit | Lore (Field-Tested)`: `Lore`); null for a vanilla knife. */
export function finishOf(marketHashName: string): string | null {
  const bar = marketHashName.indexOf(" | ");
  if (bar < 0) return null;
  const rest = marketHashName.slice(bar + 3);
  const paren = rest.lastIndexOf(" (");
  return paren < 0 ? rest : rest.slice(0, paren);
}

/**
 * A normal draw for a name (a skin, a collection) from the seed, cut at two standard deviations so
 * that no goods strays far. A skin's exteriors and qualities share the draw, so it is kept for the
 * seed last asked about: a demo build asks for every goods of the catalog with one seed.
 */
function namedDraw(seed: number, stream: number, name: string): number {
  if (memo.seed !== seed) {
    memo.seed = seed;
    memo.draws.clear();
  }
  let draws = memo.draws.get(stream);
  if (draws === undefined) memo.draws.set(stream, (draws = new Map()));
  let draw = draws.get(name);
  if (draw === undefined) {
    draw = Math.max(-2, Math.min(2, new DemoRandom(seed, stream, stringHash(name)).normal()));
    draws.set(name, draw);
  }
  return draw;
}
const memo = { seed: Number.NaN, draws: new Map<number, Map<string, number>>() };

/** The level of a goods in yuan before its exterior, quality and the seed's factors, and how much its skin varies. */
function level(
  goods: PricedGoods,
  seed: number,
): { yuan: number; exteriors: Record<string, number>; spread: number } {
  const rarity = tagOf(goods, "rarity") ?? "";
  switch (goods.type) {
    case "knife": {
      const finish = finishOf(goods.market_hash_name);
      const base = KNIFE_MODEL[tagOf(goods, "weapon") ?? ""] ?? KNIFE_MODEL_DEFAULT;
      const steep = finish !== null && STEEP_FINISHES.has(finish);
      const exteriors = steep ? STEEP_KNIFE_EXTERIOR : KNIFE_EXTERIOR;
      return { yuan: base * (finish === null ? 1 : (KNIFE_FINISH[finish] ?? 1)), exteriors, spread: 0.12 };
    }
    case "gloves": {
      const finish = finishOf(goods.market_hash_name) ?? "";
      const base = GLOVE_MODEL[tagOf(goods, "weapon") ?? ""] ?? GLOVE_MODEL_DEFAULT;
      return { yuan: base * (GLOVE_FINISH[finish] ?? 1), exteriors: GLOVE_EXTERIOR, spread: 0.2 };
    }
    case "weapon": {
      let yuan = WEAPON_RARITY[rarity] ?? 2;
      const collection = tagOf(goods, "itemset");
      const fromCase = goods.tags.some(
        (tag) => tag.category === "weaponcase" && !tag.internal_name.endsWith("souvenir_package"),
      );
      if (!fromCase) yuan *= CASELESS_COLLECTION[rarity] ?? 1;
      if (collection) yuan *= Math.exp(0.3 * namedDraw(seed, 104, collection));
      return { yuan, exteriors: WEAPON_EXTERIOR, spread: 0.5 };
    }
    case "sticker":
    case "sticker_slab": {
      const series = tagOf(goods, "series") ?? "";
      const yuan = (STICKER_RARITY[rarity] ?? 1) * (STICKER_YEAR[series.slice(0, 4)] ?? 1);
      return { yuan: yuan * (goods.type === "sticker_slab" ? 1.3 : 1), exteriors: {}, spread: 0.7 };
    }
    case "agent":
      return { yuan: AGENT_RARITY[rarity] ?? 10, exteriors: {}, spread: 0.5 };
    case "patch":
    case "charm":
      return {
        yuan: ((TYPE_BASE[goods.type] ?? 5) * (STICKER_RARITY[rarity] ?? 1)) / 0.6,
        exteriors: {},
        spread: 0.5,
      };
    default:
      return { yuan: TYPE_BASE[goods.type] ?? 5, exteriors: {}, spread: 0.5 };
  }
}

/** A steep finish's exteriors: the knife's factors squared. */
const STEEP_KNIFE_EXTERIOR: Record<string, number> = Object.fromEntries(
  Object.entries(KNIFE_EXTERIOR).map(([key, value]) => [key, value * value]),
);

/** The goods' typical price in fen (at least 0.03 yuan; plain knives and gloves at least `KNIFE_AND_GLOVES_FLOOR`). */
export function typicalPrice(goods: PricedGoods, seed: number): number {
  const { yuan: base, exteriors, spread } = level(goods, seed);
  let yuan = base;
  if (goods.exterior) yuan *= exteriors[goods.exterior] ?? 1;
  // Goods of one kind differ: a factor per skin, shared by its exteriors and qualities so that
  // Factory New stays dearer than Battle-Scarred, and one per goods within ±3 %, less than the
  // smallest step between exteriors or qualities.
  yuan *= Math.exp(spread * namedDraw(seed, 101, goods.short_name));
  yuan *= Math.exp(0.03 * (2 * new DemoRandom(seed, 103, goods.goods_id).next() - 1));
  if (goods.type === "knife" || goods.type === "gloves") yuan = Math.max(KNIFE_AND_GLOVES_FLOOR, yuan);
  yuan *= QUALITY_FACTOR[goods.quality] ?? 1;
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
