import { sql, type Kysely } from "kysely";

/**
 * Liquidity ranks (docs/design/market-data.md#the-market-figures-and-the-other-price-operations): each goods traded in the last 30 days with its
 * percentile among the catalog, in hundredths of a percent (8752 is "87.52%"); a goods without a
 * row ranks 0. The one-row state says when they were computed, so that the daily job knows when the
 * next computation is due whichever instance runs it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TABLE liquidity_ranks (
      goods_id integer PRIMARY KEY REFERENCES goods (goods_id),
      rank_hundredths integer NOT NULL CHECK (rank_hundredths BETWEEN 0 AND 10000),
      traded_amount bigint NOT NULL CHECK (traded_amount >= 0),
      traded_quantity integer NOT NULL CHECK (traded_quantity >= 0)
    )`,
    `CREATE TABLE liquidity_rank_state (
      id integer PRIMARY KEY CHECK (id = 1),
      computed_at timestamptz NOT NULL
    )`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE liquidity_rank_state, liquidity_ranks`.execute(db);
}
