import { sql, type Kysely } from "kysely";

/**
 * The game's own kit ids and the sticker search (docs/design/domain-model.md#catalog-goods and docs/design/website-goods-routes.md#the-websites-goods-pages):
 * - `goods.game_index`: the sticker kit, keychain or music kit id the game gives the goods'
 *   kit, which items' `sticker_id`/`keychain_id` carry (filled by the next catalog load), and
 *   its index, for the search's look-up of the stickers it is asked for.
 * - `follow_kit_ids(items, id_key)`: an item's stickers or charms with their ids set to their
 *   goods' `game_index`, found by the market hash name each entry carries; an entry whose goods
 *   has none keeps its id. A catalog load applies it to the records stored before the catalog
 *   carried these ids (the catalog library's own ids), and does nothing to records already right.
 * - `goods_tags_idx`: the goods by their tags' containment (`@>`), which the inspect view's
 *   finishes of one weapon (`custom_inspect/get_skins`) read.
 * - `listings_stickers_idx`: the stickers of listings on sale (`asset -> info -> stickers`), a
 *   GIN index of their containment (`@>`), which `goods/sell_order`'s `extra_tag_ids` reads.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE goods ADD COLUMN game_index integer`.execute(db);
  await sql`CREATE INDEX goods_game_index_idx ON goods (game_index, type) WHERE game_index IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE FUNCTION follow_kit_ids(items jsonb, id_key text) RETURNS jsonb
    LANGUAGE sql STABLE AS $$
      SELECT coalesce(jsonb_agg(
               CASE WHEN goods.game_index IS NULL THEN entry.item
                    ELSE jsonb_set(entry.item, ARRAY[id_key], to_jsonb(goods.game_index)) END
               ORDER BY entry.position), '[]'::jsonb)
      FROM jsonb_array_elements(items) WITH ORDINALITY AS entry(item, position)
      LEFT JOIN goods ON goods.market_hash_name = entry.item ->> 'market_hash_name'
    $$`.execute(db);
  await sql`CREATE INDEX goods_tags_idx ON goods USING gin (tags jsonb_path_ops)`.execute(db);
  await sql`CREATE INDEX listings_stickers_idx ON listings
    USING gin ((asset -> 'info' -> 'stickers') jsonb_path_ops) WHERE state = 'ON_SALE'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX listings_stickers_idx`.execute(db);
  await sql`DROP INDEX goods_tags_idx`.execute(db);
  await sql`DROP FUNCTION follow_kit_ids(jsonb, text)`.execute(db);
  await sql`DROP INDEX goods_game_index_idx`.execute(db);
  await sql`ALTER TABLE goods DROP COLUMN game_index`.execute(db);
}
