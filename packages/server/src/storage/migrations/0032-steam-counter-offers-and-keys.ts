import { sql, type Kysely } from "kysely";

/**
 * Counter-offers and Web API keys on the Steam face (docs/design/steam-face.md#counter-offers,
 * docs/design/steam-face.md#web-api-keys):
 * - `sandbox_trade_offers.countered_by`: the offer that countered this one. A countered offer
 *   ends `declined` for the marketplace (its receiver did not accept it) and reads as Steam's
 *   state 4 (Countered) on the face.
 * - a unique index on `sandbox_platform_accounts.api_key`: a call authenticated by `key=` finds
 *   its account by the key; `api_key_domain`, the domain the key was registered for (Steam's
 *   `/dev/apikey` page shows it), null for a key registered through the platform port.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sandbox_trade_offers
    ADD COLUMN countered_by bigint REFERENCES sandbox_trade_offers (tradeofferid)`.execute(db);
  await sql`ALTER TABLE sandbox_platform_accounts ADD COLUMN api_key_domain text`.execute(db);
  await sql`CREATE UNIQUE INDEX sandbox_platform_accounts_api_key_idx
    ON sandbox_platform_accounts (api_key) WHERE api_key IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX sandbox_platform_accounts_api_key_idx`.execute(db);
  await sql`ALTER TABLE sandbox_platform_accounts DROP COLUMN api_key_domain`.execute(db);
  await sql`ALTER TABLE sandbox_trade_offers DROP COLUMN countered_by`.execute(db);
}
