import { sql, type Expression, type SqlBool } from "kysely";
import type { DomainContext } from "../context.ts";
import { invalidArgument, ok, type Result } from "../result.ts";

/**
 * The sticker search of a goods' listings (`goods/sell_order`'s `extra_tag_ids` and
 * `wearless_sticker`, docs/design/website-goods-routes.md#the-websites-goods-pages), as the real website's filter sends it:
 * - `empty`: no sticker; `non_empty`: at least one; `squad_combos`: four or more of one kit;
 * - otherwise up to five comma-separated stickers, each the game's sticker kit id (`49`), or
 *   `slot_<0-4>_<id>` for that sticker in that slot; the item carries every one of them (a kit
 *   named twice, twice);
 * - `wearless_sticker=1`: the stickers searched for are unscraped (wear 0): for `non_empty` every
 *   sticker on the item, for `squad_combos` the four, for a list each one.
 * Read from the listing's own copy of its item (`asset -> info -> stickers`), through the GIN index
 * `listings_stickers_idx` for a list (containment) and the goods' own index for the rest.
 */
export type StickerSearch =
  | { kind: "empty" }
  | { kind: "non_empty" | "squad_combos"; wearless: boolean }
  | { kind: "stickers"; wearless: boolean; stickers: Array<{ kit: number; slot: number | undefined }> };

/** The item types that carry stickers (weapons) or patches (agents). */
const STICKERED_TYPES = new Set(["weapon", "agent"]);
const MAX_STICKERS = 5;
const STICKER_TERM = /^(?:slot_([0-4])_)?(\d{1,9})$/;

export async function parseStickerSearch(
  ctx: DomainContext,
  goods: { type: string; market_hash_name: string },
  extraTagIds: string | undefined,
  wearlessSticker: number | undefined,
): Promise<Result<StickerSearch | undefined>> {
  const wearless = wearlessSticker === 1;
  if (extraTagIds === undefined || extraTagIds === "") {
    return wearless
      ? invalidArgument("wearless_sticker", "needs extra_tag_ids (non_empty, squad_combos or sticker ids)")
      : ok(undefined);
  }
  if (!STICKERED_TYPES.has(goods.type))
    return invalidArgument("extra_tag_ids", `${goods.market_hash_name} carries no stickers`);
  if (extraTagIds === "empty") {
    return wearless
      ? invalidArgument("wearless_sticker", "an item without stickers has none to be unscraped")
      : ok({ kind: "empty" });
  }
  if (extraTagIds === "non_empty" || extraTagIds === "squad_combos")
    return ok({ kind: extraTagIds, wearless });
  const terms = extraTagIds.split(",");
  if (terms.length > MAX_STICKERS)
    return invalidArgument("extra_tag_ids", `at most ${MAX_STICKERS} stickers, ${terms.length} given`);
  const stickers: Array<{ kit: number; slot: number | undefined }> = [];
  for (const term of terms) {
    const match = STICKER_TERM.exec(term);
    if (!match)
      return invalidArgument(
        "extra_tag_ids",
        `${JSON.stringify(term)} is none of empty, non_empty, squad_combos, a sticker kit id or slot_<0-4>_<sticker kit id>`,
      );
    const slot = match[1] === undefined ? undefined : Number(match[1]);
    if (slot !== undefined && stickers.some((sticker) => sticker.slot === slot))
      return invalidArgument("extra_tag_ids", `slot ${slot} is named twice`);
    stickers.push({ kit: Number(match[2]), slot });
  }
  const kits = [...new Set(stickers.map((sticker) => sticker.kit))];
  const known = await ctx.db
    .selectFrom("goods")
    .select("game_index")
    .where("game_index", "in", kits)
    .where("type", "in", ["sticker", "patch"])
    .execute();
  const unknown = kits.filter((kit) => !known.some((row) => row.game_index === kit));
  if (unknown.length > 0)
    return invalidArgument("extra_tag_ids", `no sticker has the kit id ${unknown.join(", ")}`);
  return ok({ kind: "stickers", wearless, stickers });
}

const STICKERS = sql`(listings.asset -> 'info' -> 'stickers')`;

/** The listings whose item meets the search. */
export function meetsStickerSearch(search: StickerSearch): Expression<SqlBool> {
  switch (search.kind) {
    case "empty":
      return sql<SqlBool>`${STICKERS} = '[]'::jsonb`;
    case "non_empty":
      return search.wearless
        ? sql<SqlBool>`${STICKERS} <> '[]'::jsonb AND NOT EXISTS (
            SELECT 1 FROM jsonb_array_elements(${STICKERS}) AS sticker
            WHERE (sticker ->> 'wear')::numeric <> 0)`
        : sql<SqlBool>`${STICKERS} <> '[]'::jsonb`;
    case "squad_combos":
      return sql<SqlBool>`EXISTS (
          SELECT 1 FROM jsonb_array_elements(${STICKERS}) AS sticker
          ${search.wearless ? sql`WHERE (sticker ->> 'wear')::numeric = 0` : sql``}
          GROUP BY sticker ->> 'sticker_id' HAVING count(*) >= 4)`;
    case "stickers": {
      // Containment finds the candidates through the index; a kit asked for more than once (or
      // in several slots) is then counted, since containment ignores how often an entry occurs.
      const entries = search.stickers.map((sticker) => ({
        sticker_id: sticker.kit,
        ...(sticker.slot === undefined ? {} : { slot: sticker.slot }),
        ...(search.wearless ? { wear: 0 } : {}),
      }));
      const counts = new Map<number, number>();
      for (const sticker of search.stickers) counts.set(sticker.kit, (counts.get(sticker.kit) ?? 0) + 1);
      const repeated = [...counts].filter(([, count]) => count > 1);
      const containment = sql<SqlBool>`${STICKERS} @> ${JSON.stringify(entries)}::jsonb`;
      if (repeated.length === 0) return containment;
      return sql<SqlBool>`${containment} AND ${sql.join(
        repeated.map(
          ([kit, count]) => sql`(SELECT count(*) FROM jsonb_array_elements(${STICKERS}) AS sticker
            WHERE sticker -> 'sticker_id' = ${String(kit)}::jsonb
            ${search.wearless ? sql`AND (sticker ->> 'wear')::numeric = 0` : sql``}) >= ${count}`,
        ),
        sql` AND `,
      )}`;
    }
  }
}
