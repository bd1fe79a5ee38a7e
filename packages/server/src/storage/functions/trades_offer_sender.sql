-- Trigger function of trades (trades_offer_sender, migration 0025): a trade opened on a listing
-- of a seller who asks buyers to send the offers of their sales is the buyer's to send, whichever
-- verb opened it (docs/design/purchases-and-trades.md#offer-modes). Buy-order fills stay the seller's.
CREATE OR REPLACE FUNCTION trades_offer_sender() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.buy_order_id IS NULL
    AND (SELECT force_buyer_send_offer FROM users WHERE user_id = NEW.seller_id) THEN
    NEW.offer_sender := 'buyer';
  END IF;
  RETURN NEW;
END $$
