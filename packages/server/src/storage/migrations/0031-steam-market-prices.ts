import { sql, type Kysely } from "kysely";

/**
 * The sandbox's Steam Community Market (docs/design/steam-face.md#market-prices): one reference
 * price per goods (the lowest ask on the platform's market, in fen) with the units sold in the last
 * 24 hours, and a daily history of the market's median price and volume. The demo market seeds
 * them and the simulator moves them; the face's `priceoverview` and `pricehistory` and the
 * marketplace's `steam_price` read them. A goods without a row has no price on the platform.
 *
 * The demo's past is not stored: a goods it priced keeps the seed, the day and the price its
 * history walks back from (`history_*`), and the days are made from them when read; the history
 * table holds the days the simulator wrote, which win over a made one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE sandbox_steam_market_prices (
    goods_id integer PRIMARY KEY REFERENCES goods (goods_id),
    price bigint NOT NULL CHECK (price > 0),
    volume integer NOT NULL CHECK (volume >= 0),
    updated_at timestamptz NOT NULL,
    history_seed bigint,
    history_until date,
    history_days integer CHECK (history_days > 0),
    history_price bigint CHECK (history_price > 0),
    history_volume integer CHECK (history_volume >= 0),
    CHECK (num_nulls(history_seed, history_until, history_days, history_price, history_volume) IN (0, 5))
  )`.execute(db);
  await sql`CREATE TABLE sandbox_steam_market_history (
    goods_id integer NOT NULL REFERENCES goods (goods_id),
    day date NOT NULL,
    price bigint NOT NULL CHECK (price > 0),
    volume integer NOT NULL CHECK (volume >= 0),
    PRIMARY KEY (goods_id, day)
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE sandbox_steam_market_history`.execute(db);
  await sql`DROP TABLE sandbox_steam_market_prices`.execute(db);
}
