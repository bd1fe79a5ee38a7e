import { sql, type Kysely } from "kysely";

/**
 * Listings on sale by the end of their trade cooldown (docs/design/market-snapshots.md#when-a-snapshot-is-rebuilt and docs/design/performance.md#no-stall-at-start-or-during-a-rebuild): the
 * price snapshot's next cooldown end, and the goods whose pre-sell listings turned tradable
 * since, are read from this small index (pre-sell listings only) instead of a scan of every
 * listing on sale's goods index: 0.2 s over a million listings, growing with the market, where
 * a cooldown ends every few seconds at ten million.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX listings_cooldown_end_idx ON listings (tradable_after) INCLUDE (goods_id)
    WHERE state = 'ON_SALE' AND tradable_after IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX listings_cooldown_end_idx`.execute(db);
}
