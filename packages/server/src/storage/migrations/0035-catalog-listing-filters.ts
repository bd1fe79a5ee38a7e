import { sql, type Kysely } from "kysely";

/**
 * The catalog's listing filters (docs/design/website-goods-routes.md#the-catalogs-listing-filters):
 * the goods that have a listing on sale of a wear range or of a paint seed, over every goods at
 * once. Each index is partial on listings on sale and carries the goods id, so finding the goods
 * is an index-only range read of the matching listings, not a read of every listing; the sticker
 * filter reads `listings_stickers_idx` (migration 0026).
 */
const INDEXES: Record<string, string> = {
  listings_paintwear_goods_idx: `listings (paintwear, goods_id) WHERE state = 'ON_SALE' AND paintwear IS NOT NULL`,
  listings_paintseed_goods_idx: `listings (paintseed, goods_id) WHERE state = 'ON_SALE' AND paintseed IS NOT NULL`,
};

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, definition] of Object.entries(INDEXES))
    await sql.raw(`CREATE INDEX ${name} ON ${definition}`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of Object.keys(INDEXES)) await sql.raw(`DROP INDEX ${name}`).execute(db);
}
