import { sql, type Kysely } from "kysely";

/**
 * Steam's trade protection on the sandbox platform (docs/design/trade-protection.md#the-platforms-window):
 * - `sandbox_trade_offers.reversible_until`: the end of an accepted offer's protection window,
 *   set when it is accepted; the platform reverses the trade only before it. Offers accepted
 *   before this migration get the default window from their answer.
 * - the offer state `reverted`: a trade the platform reversed inside the window, which Steam's
 *   own client numbers `k_ETradeOfferStateReverted` (12).
 * - `trades.protected_until` and `trades.released_at` (docs/design/trade-protection.md#who-is-credited-when):
 *   a delivered trade's seller income waits in the seller's escrow until the platform's window
 *   ends, then the `release-protected-trades` job moves it to their balance and sets
 *   `released_at`. Trades delivered before this migration were paid at delivery: released then.
 *   The partial index is the job's list of sales still held.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sandbox_trade_offers ADD COLUMN reversible_until timestamptz`.execute(db);
  await sql`UPDATE sandbox_trade_offers SET reversible_until = updated_at + interval '7 days'
    WHERE state = 'accepted'`.execute(db);
  await sql`ALTER TABLE sandbox_trade_offers DROP CONSTRAINT sandbox_trade_offers_state_check`.execute(db);
  await sql`ALTER TABLE sandbox_trade_offers ADD CONSTRAINT sandbox_trade_offers_state_check
    CHECK (state IN ('active', 'accepted', 'declined', 'cancelled', 'expired', 'reverted'))`.execute(db);
  await sql`ALTER TABLE trades ADD COLUMN protected_until timestamptz`.execute(db);
  await sql`ALTER TABLE trades ADD COLUMN released_at timestamptz`.execute(db);
  await sql`UPDATE trades SET released_at = updated_at WHERE state = 'SUCCESS'`.execute(db);
  await sql`ALTER TABLE trades ADD CONSTRAINT trades_released_when_delivered
    CHECK (released_at IS NULL OR state IN ('SUCCESS', 'FAIL'))`.execute(db);
  await sql`CREATE INDEX trades_held_idx ON trades (protected_until)
    WHERE state = 'SUCCESS' AND released_at IS NULL`.execute(db);
}
