-- Sticker, patch and charm entries of an item's JSON with the game's own kit ids (migration 0026):
-- each entry's `id_key` becomes the catalog's `game_index` of the goods its market hash name
-- names; entries of goods without one stay as they are (docs/design/domain-model.md#catalog-goods, kit ids).
CREATE OR REPLACE FUNCTION follow_kit_ids(items jsonb, id_key text) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT coalesce(jsonb_agg(
           CASE WHEN goods.game_index IS NULL THEN entry.item
                ELSE jsonb_set(entry.item, ARRAY[id_key], to_jsonb(goods.game_index)) END
           ORDER BY entry.position), '[]'::jsonb)
  FROM jsonb_array_elements(items) WITH ORDINALITY AS entry(item, position)
  LEFT JOIN goods ON goods.market_hash_name = entry.item ->> 'market_hash_name'
$$
