-- Trigger function of users (users_buy_order_status_events, migration 0020): a user's buy-order
-- status changed (docs/design/events.md#written-by-the-changes-own-transaction).
CREATE OR REPLACE FUNCTION buy_order_status_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF events_quiet() THEN RETURN NULL; END IF;
  INSERT INTO event_outbox (type, user_id, goods_id, subject)
    VALUES ('buy_order.status_changed', NEW.user_id, NULL, jsonb_build_object(
      'buy_order_status', NEW.buy_order_status, 'buy_order_auto_offline', NEW.buy_order_auto_offline));
  RETURN NULL;
END $$
