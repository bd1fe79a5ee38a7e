import { sql } from "kysely";
import type { DomainContext } from "../context.ts";

/**
 * Stored items' stickers and charms carry the ids the catalog gives their kits (the game's own,
 * `goods.game_index`): after a catalog load, every record whose ids differ is rewritten through
 * `follow_kit_ids` (migration 0026), by the market hash name each entry carries. Records already
 * right are left alone, so a load that changes no kit id writes nothing here. The platform's
 * items, the inventories read from it, and the listings and trades made of them each keep a copy.
 */
export async function followKitIds(ctx: DomainContext): Promise<void> {
  await sql`UPDATE sandbox_assets SET
      stickers = follow_kit_ids(stickers, 'sticker_id'),
      keychains = follow_kit_ids(keychains, 'keychain_id')
    WHERE (stickers <> '[]' AND stickers <> follow_kit_ids(stickers, 'sticker_id'))
       OR (keychains <> '[]' AND keychains <> follow_kit_ids(keychains, 'keychain_id'))`.execute(ctx.db);
  for (const table of ["listings", "trades", "platform_inventory_items"] as const) {
    await sql`UPDATE ${sql.table(table)} SET asset = jsonb_set(jsonb_set(asset,
        '{info,stickers}', follow_kit_ids(asset #> '{info,stickers}', 'sticker_id')),
        '{info,keychains}', follow_kit_ids(asset #> '{info,keychains}', 'keychain_id'))
      WHERE jsonb_typeof(asset #> '{info,stickers}') = 'array'
        AND jsonb_typeof(asset #> '{info,keychains}') = 'array'
        AND (asset #> '{info,stickers}' <> follow_kit_ids(asset #> '{info,stickers}', 'sticker_id')
          OR asset #> '{info,keychains}' <> follow_kit_ids(asset #> '{info,keychains}', 'keychain_id'))`.execute(
      ctx.db,
    );
  }
}
