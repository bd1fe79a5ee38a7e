import { sql, type Kysely } from "kysely";

/**
 * Who sends a trade's offer (docs/design/purchases-and-trades.md#offer-modes, offer modes): `trades.offer_sender` is the
 * seller's by default, the buyer's when the seller asks buyers to send them
 * (`users.force_buyer_send_offer`, the real service's account preference) or when the buyer takes
 * it on (`bill_order/notify_buyer_to_send_offer`). A buyer's offer on the sandbox platform asks
 * for the receiver's items (`sandbox_trade_offers.items_from` `receiver`), as a platform offer's
 * items to receive do.
 *
 * The preference is read when the trade opens, by a trigger, so every way a listing is bought
 * (`pay_for_listing`, called by the official purchase and `goods/buy`) follows it without a second
 * copy of the rule; a buy order's fill stays the seller's to deliver, as a supply is on the real
 * service.
 *
 * A user's live trades, as seller and as buyer, are found by two partial indexes: the website's
 * notification counts and lists of trades to act on read only these, not every trade the user
 * ever made (a seller's history grows without end; the live ones are few).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN force_buyer_send_offer boolean NOT NULL DEFAULT false`.execute(db);
  await sql`ALTER TABLE trades ADD COLUMN offer_sender text NOT NULL DEFAULT 'seller'
    CHECK (offer_sender IN ('seller', 'buyer'))`.execute(db);
  await sql`ALTER TABLE sandbox_trade_offers ADD COLUMN items_from text NOT NULL DEFAULT 'sender'
    CHECK (items_from IN ('sender', 'receiver'))`.execute(db);
  await sql`CREATE FUNCTION trades_offer_sender() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.buy_order_id IS NULL
        AND (SELECT force_buyer_send_offer FROM users WHERE user_id = NEW.seller_id) THEN
        NEW.offer_sender := 'buyer';
      END IF;
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER trades_offer_sender BEFORE INSERT ON trades
    FOR EACH ROW EXECUTE FUNCTION trades_offer_sender()`.execute(db);
  await sql`CREATE INDEX trades_live_seller_idx ON trades (seller_id)
    WHERE state IN ('PAYING', 'SELLER_TO_SEND_OFFER', 'TRADING')`.execute(db);
  await sql`CREATE INDEX trades_live_buyer_idx ON trades (buyer_id)
    WHERE state IN ('PAYING', 'SELLER_TO_SEND_OFFER', 'TRADING')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX trades_live_buyer_idx`.execute(db);
  await sql`DROP INDEX trades_live_seller_idx`.execute(db);
  await sql`DROP TRIGGER trades_offer_sender ON trades`.execute(db);
  await sql`DROP FUNCTION trades_offer_sender`.execute(db);
  await sql`ALTER TABLE sandbox_trade_offers DROP COLUMN items_from`.execute(db);
  await sql`ALTER TABLE trades DROP COLUMN offer_sender`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN force_buyer_send_offer`.execute(db);
}
