import { sql, type Kysely } from "kysely";

/** The sandbox card network's per-user setting: whether the user's card declines payments. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE sandbox_cards (
      user_id bigint PRIMARY KEY REFERENCES users (user_id),
      declines boolean NOT NULL
    )
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE sandbox_cards`.execute(db);
}
