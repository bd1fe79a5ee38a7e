-- Trigger function of listings (listings_events, migration 0020): the event of a listing's change,
-- written to event_outbox in the transaction of the change (docs/design/events.md#written-by-the-changes-own-transaction).
CREATE OR REPLACE FUNCTION listing_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_type text;
BEGIN
  IF events_quiet() THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    event_type := 'listing.created';
  ELSIF NEW.state IS DISTINCT FROM OLD.state THEN
    event_type := CASE NEW.state WHEN 'SOLD' THEN 'listing.sold' WHEN 'CANCELLED' THEN 'listing.withdrawn'
      ELSE 'listing.changed' END;
  ELSIF NEW.state = 'ON_SALE' AND NEW.price IS DISTINCT FROM OLD.price THEN
    event_type := 'listing.repriced';
  ELSIF NEW.state = 'ON_SALE' AND (NEW.description, NEW.allow_bargain, NEW.allow_wallet_zft, NEW.allow_epay,
      NEW.allow_pending_divide_balance, NEW.force_buyer_send_offer, NEW.tradable_after)
      IS DISTINCT FROM (OLD.description, OLD.allow_bargain, OLD.allow_wallet_zft, OLD.allow_epay,
      OLD.allow_pending_divide_balance, OLD.force_buyer_send_offer, OLD.tradable_after) THEN
    event_type := 'listing.changed';
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO event_outbox (type, user_id, goods_id, subject)
    VALUES (event_type, NEW.user_id, NEW.goods_id, to_jsonb(NEW));
  RETURN NULL;
END $$
