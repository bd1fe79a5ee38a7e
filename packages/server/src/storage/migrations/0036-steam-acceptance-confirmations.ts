import { sql, type Kysely } from "kysely";

/**
 * The mobile confirmation of an acceptance (docs/design/steam-face.md#confirmations):
 * `sandbox_trade_offers.acceptance_nonce` is the key (`ck`) of the confirmation that the receiver's
 * acceptance waits for: set when the receiver accepts, through the Steam face, an offer that asks
 * for its items; the offer stays active until the receiver's authenticator allows it (then it is
 * accepted and the column null again) or cancels it (then it is `declined` and the column keeps the
 * key, which the face reads as Steam's state 10, CanceledBySecondFactor).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sandbox_trade_offers ADD COLUMN acceptance_nonce text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sandbox_trade_offers DROP COLUMN acceptance_nonce`.execute(db);
}
