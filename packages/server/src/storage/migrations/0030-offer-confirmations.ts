import { sql, type Kysely } from "kysely";

/**
 * Mobile confirmations of the Steam face (docs/design/steam-face.md#confirmations):
 * `sandbox_trade_offers.confirmation_nonce` is the key (`ck`) of the confirmation an offer waits
 * for, null when it waits for none. An offer sent through the face that gives items waits for its
 * sender's confirmation, as on Steam; the receiver does not see it until it is confirmed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sandbox_trade_offers ADD COLUMN confirmation_nonce text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sandbox_trade_offers DROP COLUMN confirmation_nonce`.execute(db);
}
