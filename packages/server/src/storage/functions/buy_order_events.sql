-- Trigger function of buy_orders (buy_orders_events, migration 0020): the event of a buy order's
-- change, written to event_outbox in the transaction of the change (docs/design/events.md#written-by-the-changes-own-transaction).
CREATE OR REPLACE FUNCTION buy_order_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_type text;
BEGIN
  IF events_quiet() THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    event_type := 'buy_order.created';
  ELSIF NEW.state IS DISTINCT FROM OLD.state AND NEW.state = 'failed' THEN
    event_type := CASE WHEN NEW.fail_reason LIKE '%expired%' THEN 'buy_order.expired'
      ELSE 'buy_order.cancelled' END;
  ELSIF NEW.frozen_num > OLD.frozen_num THEN
    -- A unit matched: a listing bought for the order, its trade opened.
    event_type := 'buy_order.filled';
  ELSIF NEW.state IS DISTINCT FROM OLD.state THEN
    event_type := 'buy_order.state_changed';
  ELSIF (NEW.price, NEW.num, NEW.real_num, NEW.frozen_num)
      IS DISTINCT FROM (OLD.price, OLD.num, OLD.real_num, OLD.frozen_num) THEN
    event_type := 'buy_order.changed';
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO event_outbox (type, user_id, goods_id, subject)
    VALUES (event_type, NEW.user_id, NEW.goods_id, to_jsonb(NEW));
  RETURN NULL;
END $$
