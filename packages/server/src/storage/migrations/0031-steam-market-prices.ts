import { sql, type Kysely } from "kysely";

/**
 * The sandbox's Steam Community Market (docs/design/steam-face.md#market-prices): one reference
 * price per goods (the lowest ask on the platform's market, in fen) with the units sold in the last
 * 24 hours, and a daily history of the market's median price and volume. The demo market seeds
 * them and the simulator moves them; the face's `priceoverview` and `pricehistory` and the
 * marketplace's `steam_price` read them. A goods without a row has no price on the platform.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE sandbox_steam_market_prices (
    goods_id integer PRIMARY KEY REFERENCES goods (goods_id),
    price bigint NOT NULL CHECK (price > 0),
    volume integer NOT NULL CHECK (volume >= 0),
    updated_at timestamptz NOT NULL
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
