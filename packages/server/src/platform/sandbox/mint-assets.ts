import { createHash, randomInt } from "node:crypto";
import { phasePaintIndex, phaseTagsOf } from "../../domain/catalog/phases.ts";
import { sql } from "kysely";
import type { DomainContext } from "../../domain/context.ts";
import { fail, invalidArgument, ok, type Result } from "../../domain/result.ts";
import type { GoodsTagRow, KeychainRow, StickerRow } from "../../storage/schema.ts";

/**
 * Realistic item attributes minted from the catalog: wear drawn inside the goods' own paintwear
 * range (a float32, printed at full precision, as the game stores it), a pattern seed, the paint
 * index (per phase for Doppler-style finishes), and on some weapons stickers, a charm or a name tag.
 */
export interface MintableGoods {
  goods_id: number;
  type: string;
  paintwear_min: string | null;
  paintwear_max: string | null;
  paint_index: number | null;
  is_standard: boolean;
  tags: GoodsTagRow[];
}

export interface StickerRequest {
  goods_id?: number;
  market_hash_name?: string;
  slot?: number;
  wear?: number;
}

export interface MintOptions {
  paintwear?: string;
  paintseed?: number;
  stickers?: StickerRequest[];
  /** A name tag text; null for none; absent: some weapons get one when extras are on. */
  nametag?: string | null;
  randomExtras: boolean;
}

export interface MintedAttributes {
  classid: string;
  instanceid: string;
  paintwear: string | null;
  paintseed: number | null;
  paintindex: number | null;
  stickers: StickerRow[];
  keychains: KeychainRow[];
  nametag: string | null;
}

const WEARABLE_TYPES = new Set(["weapon", "knife", "gloves"]);
const NAMEABLE_TYPES = new Set(["weapon", "knife"]);
const PAINTWEAR_PATTERN = /^(0(\.\d{1,20})?|1(\.0{1,20})?)$/;
const NAME_TAGS = ["Dragon Slayer", "Lucky Charm", "Bot Food", "Ez Clap", "Old Faithful", "Sandbox Special"];

export async function mintAttributes(
  ctx: DomainContext,
  goods: MintableGoods,
  options: MintOptions,
): Promise<Result<MintedAttributes>> {
  const wearable =
    WEARABLE_TYPES.has(goods.type) && goods.paintwear_min !== null && goods.paintwear_max !== null;
  const paintwear = wearable ? pickPaintwear(goods, options.paintwear) : undefined;
  if (paintwear && !paintwear.ok) return paintwear;
  if (!wearable && options.paintwear !== undefined) {
    return invalidArgument("paintwear", "this goods has no wear");
  }
  if (!wearable && options.paintseed !== undefined)
    return invalidArgument("paintseed", "this goods has no pattern");
  if (options.nametag && !NAMEABLE_TYPES.has(goods.type)) {
    return invalidArgument("nametag", "only weapons and knives take name tags");
  }
  const stickers = await pickStickers(ctx, goods, options);
  if (!stickers.ok) return stickers;
  const weapon = goods.type === "weapon";
  const keychains = weapon && options.randomExtras && randomInt(10) === 0 ? await randomKeychain(ctx) : [];
  const nametag =
    options.nametag !== undefined
      ? options.nametag && `Name Tag: ''${options.nametag}''`
      : weapon && options.randomExtras && randomInt(20) === 0
        ? `Name Tag: ''${NAME_TAGS[randomInt(NAME_TAGS.length)]}''`
        : null;
  const attributes = {
    paintwear: paintwear?.ok ? paintwear.value : null,
    paintseed: wearable ? (options.paintseed ?? randomInt(0, 1001)) : null,
    paintindex: wearable ? paintIndexOf(goods) : null,
    stickers: stickers.value,
    keychains,
    nametag,
  };
  return ok({
    classid: String(4_000_000_000 + goods.goods_id),
    instanceid: goods.is_standard && !nametag ? "0" : instanceIdOf(attributes),
    ...attributes,
  });
}

function pickPaintwear(goods: MintableGoods, given: string | undefined): Result<string> {
  const min = Number(goods.paintwear_min);
  const max = Number(goods.paintwear_max);
  if (given !== undefined) {
    if (!PAINTWEAR_PATTERN.test(given)) return invalidArgument("paintwear", "must be a decimal from 0 to 1");
    const value = Number(given);
    // The top of a range belongs to the next exterior (0.38 is Well-Worn), except wear 1 itself.
    if (value < min || (value >= max && !(max === 1 && value === 1))) {
      return invalidArgument(
        "paintwear",
        `must be within this goods' range ${goods.paintwear_min}-${goods.paintwear_max}`,
      );
    }
    return ok(given);
  }
  // The game stores wear as a 32-bit float; draw one inside [min, max).
  for (;;) {
    const wear = Math.fround(min + Math.random() * (max - min));
    if (wear >= min && wear < max) return ok(String(wear));
  }
}

function paintIndexOf(goods: MintableGoods): number | null {
  if (goods.paint_index === null) return null;
  const phases = phaseTagsOf(goods);
  if (phases.length === 0) return goods.paint_index;
  return phasePaintIndex(goods, phases[randomInt(phases.length)]!.internal_name);
}

async function pickStickers(
  ctx: DomainContext,
  goods: MintableGoods,
  options: MintOptions,
): Promise<Result<StickerRow[]>> {
  if (options.stickers !== undefined) {
    if (options.stickers.length > 0 && goods.type !== "weapon")
      return invalidArgument("stickers", "only weapons carry stickers");
    if (options.stickers.length > 5) return invalidArgument("stickers", "at most 5");
    const rows: StickerRow[] = [];
    for (const [index, request] of options.stickers.entries()) {
      const sticker = await findSticker(ctx, request);
      if (!sticker) return invalidArgument(`stickers.${index}`, "no such sticker in the catalog");
      const slot = request.slot ?? index;
      if (rows.some((row) => row.slot === slot))
        return invalidArgument(`stickers.${index}.slot`, `slot ${slot} is taken`);
      rows.push(stickerRow(sticker, slot, request.wear ?? 0));
    }
    return ok(rows);
  }
  if (goods.type !== "weapon" || !options.randomExtras || randomInt(4) !== 0) return ok([]);
  const count = randomInt(1, 5);
  const stickers = await sql<KitGoods>`
    SELECT game_index, market_hash_name FROM goods
    WHERE type = 'sticker' AND game_index IS NOT NULL ORDER BY random() LIMIT ${count}
  `.execute(ctx.db);
  return ok(
    stickers.rows.map((sticker, slot) =>
      stickerRow(sticker, slot, randomInt(3) === 0 ? randomInt(1, 60) / 100 : 0),
    ),
  );
}

async function findSticker(ctx: DomainContext, request: StickerRequest) {
  if (request.goods_id === undefined && request.market_hash_name === undefined) return undefined;
  let query = ctx.db
    .selectFrom("goods")
    .select(["game_index", "market_hash_name"])
    .where("type", "=", "sticker")
    .where("game_index", "is not", null)
    .$narrowType<{ game_index: number }>();
  if (request.goods_id !== undefined) query = query.where("goods_id", "=", request.goods_id);
  else if (request.market_hash_name !== undefined)
    query = query.where("market_hash_name", "=", request.market_hash_name);
  return query.executeTakeFirst();
}

/** A sticker or charm goods with the game's own id of its kit, which an item's record carries. */
type KitGoods = { game_index: number; market_hash_name: string };

function stickerRow(sticker: KitGoods, slot: number, wear: number): StickerRow {
  return {
    sticker_id: sticker.game_index,
    slot,
    wear,
    category: "sticker",
    market_hash_name: sticker.market_hash_name,
    offset_x: 0,
    offset_y: 0,
    rotation: 0,
  };
}

async function randomKeychain(ctx: DomainContext): Promise<KeychainRow[]> {
  const charm = await sql<KitGoods>`
    SELECT game_index, market_hash_name FROM goods
    WHERE type = 'charm' AND game_index IS NOT NULL ORDER BY random() LIMIT 1
  `.execute(ctx.db);
  const row = charm.rows[0];
  if (!row) return [];
  return [
    {
      keychain_id: row.game_index,
      slot: 0,
      pattern: randomInt(0, 100_001),
      market_hash_name: row.market_hash_name,
      offset_x: 0,
      offset_y: 0,
      offset_z: 0,
    },
  ];
}

/** Items with the same unique attributes share an instance id, as on the platform. */
export function instanceIdOf(attributes: Omit<MintedAttributes, "classid" | "instanceid">): string {
  const digest = createHash("sha1").update(JSON.stringify(attributes)).digest();
  return String(digest.readUInt32BE(0));
}

export function unknownGoods(field: string) {
  return fail("Not Found", `${field}: no such goods in the catalog`);
}
