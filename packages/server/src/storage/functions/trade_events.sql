-- Trigger function of trades (trades_events, migration 0020): the event of a trade's change,
-- written to event_outbox in the transaction of the change (docs/design/events.md#written-by-the-changes-own-transaction).
CREATE OR REPLACE FUNCTION trade_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_type text;
BEGIN
  IF events_quiet() THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    event_type := 'trade.created';
  ELSIF NEW.state IS DISTINCT FROM OLD.state THEN
    event_type := CASE
      WHEN NEW.state = 'TRADING' THEN 'trade.offer_sent'
      WHEN NEW.state = 'SUCCESS' THEN 'trade.delivered'
      WHEN NEW.state = 'FAIL' AND OLD.state = 'SUCCESS' THEN 'trade.rolled_back'
      WHEN NEW.state = 'FAIL' THEN 'trade.cancelled'
      ELSE 'trade.state_changed' END;
  ELSIF NEW.tradeofferid IS DISTINCT FROM OLD.tradeofferid AND NEW.tradeofferid IS NOT NULL THEN
    event_type := 'trade.offer_sent';
  ELSIF NEW.state = 'SUCCESS' AND OLD.released_at IS NULL AND NEW.released_at IS NOT NULL THEN
    -- A sale held under the platform's trade protection is paid to the seller.
    event_type := 'trade.released';
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO event_outbox (type, user_id, goods_id, subject)
    VALUES (event_type, NEW.seller_id, NEW.goods_id, to_jsonb(NEW));
  RETURN NULL;
END $$
