import { phasePaintIndex, phaseTagsOf } from "../domain/catalog/phases.ts";
import { instanceIdOf } from "../platform/sandbox/mint-assets.ts";
import type { GoodsTagRow, KeychainRow, StickerRow } from "../storage/schema.ts";
import type { DemoRandom } from "../domain/simulation/demo-random.ts";

/**
 * Items of the demo market, minted as the sandbox platform mints them (`mint-assets.ts`): wear a
 * float32 inside the goods' paintwear range, a pattern seed, the paint index of the item's Doppler
 * phase, and on some weapons stickers, a charm or a name tag. Draws come from the caller's
 * generator, so an item is fixed by the seed and its position.
 */

export interface DemoGoods {
  goods_id: number;
  short_name: string;
  market_hash_name: string;
  type: string;
  quality: string;
  exterior: string | null;
  tags: GoodsTagRow[];
  paintwear_min: string | null;
  paintwear_max: string | null;
  paint_index: number | null;
  is_standard: boolean;
  icon_url: string;
}

/** A sticker or charm an item may carry: its goods' name and the game's own id of its kit. */
export interface Extra {
  game_index: number;
  market_hash_name: string;
}

export interface DemoItem {
  classid: string;
  instanceid: string;
  paintwear: string | null;
  paintseed: number | null;
  paintindex: number | null;
  stickers: StickerRow[];
  keychains: KeychainRow[];
  nametag: string | null;
  /** The Doppler phase (a tag's internal name), for the price. */
  phase: string | undefined;
  /** Where the wear sits in the goods' range, 0 (best) to 1, for the price. */
  wearPosition: number | undefined;
}

const WEARABLE_TYPES = new Set(["weapon", "knife", "gloves"]);
const NAME_TAGS = ["Dragon Slayer", "Lucky Charm", "Bot Food", "Ez Clap", "Old Faithful", "Sandbox Special"];

export function mintDemoItem(
  goods: DemoGoods,
  random: DemoRandom,
  extras: { stickers: readonly Extra[]; charms: readonly Extra[] },
): DemoItem {
  const wearable =
    WEARABLE_TYPES.has(goods.type) && goods.paintwear_min !== null && goods.paintwear_max !== null;
  let paintwear: string | null = null;
  let wearPosition: number | undefined;
  if (wearable) {
    const min = Number(goods.paintwear_min);
    const max = Number(goods.paintwear_max);
    // The game stores wear as a 32-bit float; one inside [min, max).
    for (;;) {
      const wear = Math.fround(min + random.next() * (max - min));
      if (wear >= min && wear < max) {
        paintwear = String(wear);
        wearPosition = max > min ? (wear - min) / (max - min) : 0;
        break;
      }
    }
  }
  const phases = wearable && goods.paint_index !== null ? phaseTagsOf(goods) : [];
  const phase = phases.length > 0 ? random.pick(phases).internal_name : undefined;
  const paintindex = !wearable ? null : phase ? phasePaintIndex(goods, phase) : goods.paint_index;
  const weapon = goods.type === "weapon";
  const stickers: StickerRow[] = [];
  if (weapon && extras.stickers.length > 0 && random.chance(0.25)) {
    const count = random.int(1, 4);
    for (let slot = 0; slot < count; slot++) {
      const sticker = random.pick(extras.stickers);
      stickers.push({
        sticker_id: sticker.game_index,
        slot,
        wear: random.chance(1 / 3) ? random.int(1, 59) / 100 : 0,
        category: "sticker",
        market_hash_name: sticker.market_hash_name,
        offset_x: 0,
        offset_y: 0,
        rotation: 0,
      });
    }
  }
  const keychains: KeychainRow[] = [];
  if (weapon && extras.charms.length > 0 && random.chance(0.1)) {
    const charm = random.pick(extras.charms);
    keychains.push({
      keychain_id: charm.game_index,
      slot: 0,
      pattern: random.int(0, 100_000),
      market_hash_name: charm.market_hash_name,
      offset_x: 0,
      offset_y: 0,
      offset_z: 0,
    });
  }
  const nametag = weapon && random.chance(0.05) ? `Name Tag: ''${random.pick(NAME_TAGS)}''` : null;
  const attributes = {
    paintwear,
    paintseed: wearable ? random.int(0, 1000) : null,
    paintindex,
    stickers,
    keychains,
    nametag,
  };
  return {
    classid: String(4_000_000_000 + goods.goods_id),
    instanceid: goods.is_standard && !nametag ? "0" : instanceIdOf(attributes),
    ...attributes,
    phase,
    wearPosition,
  };
}
