import { sql, type Kysely } from "kysely";

/**
 * An item is on its way to at most one buyer: a second live trade of the same asset (a relisting
 * racing a purchase of the first listing) is refused by the database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE UNIQUE INDEX trades_one_live_per_asset ON trades (assetid)
    WHERE state IN ('PAYING', 'SELLER_TO_SEND_OFFER', 'TRADING')
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX trades_one_live_per_asset`.execute(db);
}
