import { sql, type Kysely } from "kysely";

/**
 * Purchases take the cheapest listing of a goods, ties by listing id. With the id in the index the
 * database reads the first eligible row in index order instead of sorting every listing on sale
 * of that goods for each unit bought.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX listings_market_idx`.execute(db);
  await sql`CREATE INDEX listings_market_idx ON listings (goods_id, price, listing_id) WHERE state = 'ON_SALE'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX listings_market_idx`.execute(db);
  await sql`CREATE INDEX listings_market_idx ON listings (goods_id, price) WHERE state = 'ON_SALE'`.execute(
    db,
  );
}
