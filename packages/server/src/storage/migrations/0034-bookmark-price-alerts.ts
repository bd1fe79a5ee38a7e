import { sql, type Kysely } from "kysely";

/**
 * Price alerts on bookmarked goods (docs/design/events.md#price-alerts-on-bookmarks):
 * - `alert_sell_at`: alert when the goods' lowest tradable listing falls to or below it (fen);
 * - `alert_buy_at`: alert when its highest buy order rises to or above it (fen);
 * - `alert_sell_reached` / `alert_buy_reached`: the condition held when last looked at, so the
 *   alert has fired (or was set while it held) and waits to be re-armed by the price moving back;
 *   the sequencer flips them with conditional updates, so one crossing fires once;
 * - `alert_fired_at`, `alert_fired_price`: the last alert sent, for the bookmarks page.
 * Only a goods' bookmark carries an alert (a listing's price is its own). The partial index finds
 * the armed alerts of the goods a round of the sequencer repriced.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `ALTER TABLE bookmarks
      ADD COLUMN alert_sell_at bigint CHECK (alert_sell_at > 0),
      ADD COLUMN alert_buy_at bigint CHECK (alert_buy_at > 0),
      ADD COLUMN alert_sell_reached boolean NOT NULL DEFAULT false,
      ADD COLUMN alert_buy_reached boolean NOT NULL DEFAULT false,
      ADD COLUMN alert_fired_at timestamptz,
      ADD COLUMN alert_fired_price bigint,
      ADD CONSTRAINT bookmarks_alert_on_goods
        CHECK (target_type = 'goods' OR (alert_sell_at IS NULL AND alert_buy_at IS NULL))`,
    `CREATE INDEX bookmarks_price_alerts_idx ON bookmarks (target_id)
      WHERE target_type = 'goods' AND (alert_sell_at IS NOT NULL OR alert_buy_at IS NOT NULL)`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX bookmarks_price_alerts_idx`.execute(db);
  await sql
    .raw(
      `ALTER TABLE bookmarks
    DROP CONSTRAINT bookmarks_alert_on_goods,
    DROP COLUMN alert_sell_at, DROP COLUMN alert_buy_at,
    DROP COLUMN alert_sell_reached, DROP COLUMN alert_buy_reached,
    DROP COLUMN alert_fired_at, DROP COLUMN alert_fired_price`,
    )
    .execute(db);
}
