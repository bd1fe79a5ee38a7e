import { sql, type Kysely } from "kysely";

/**
 * Bookmarks of the website (docs/design/website-goods-routes.md#the-websites-goods-pages): a signed-in user keeps goods and listings
 * to come back to; the goods pages answer `bookmarked` for the viewer. One row per user and
 * target; a listing's bookmark outlives its sale (the page then no longer shows it). The goods
 * pages also read each goods' completed trades (price history, recent trades, sold counts), so
 * those trades get an index by goods and completion time, and the goods page finds a skin's
 * other exteriors and qualities by short name.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TABLE bookmarks (
      user_id bigint NOT NULL REFERENCES users (user_id),
      target_type text NOT NULL CHECK (target_type IN ('goods', 'sell_order')),
      target_id bigint NOT NULL,
      created_at timestamptz NOT NULL,
      PRIMARY KEY (user_id, target_type, target_id)
    )`,
    `CREATE INDEX bookmarks_target_idx ON bookmarks (target_type, target_id)`,
    `CREATE INDEX trades_goods_completed_idx ON trades (goods_id, updated_at) WHERE state = 'SUCCESS'`,
    `CREATE INDEX goods_short_name_idx ON goods (short_name)`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX goods_short_name_idx`.execute(db);
  await sql`DROP INDEX trades_goods_completed_idx`.execute(db);
  await sql`DROP TABLE bookmarks`.execute(db);
}
