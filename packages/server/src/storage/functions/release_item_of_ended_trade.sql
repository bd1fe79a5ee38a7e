-- Trigger function of trades (trades_release_item, migration 0014): a trade that ends (delivered
-- or failed) releases its item, in the statement that ends it, so no writer of trades can forget
-- to (docs/design/domain-model.md#the-commitment-rule-for-items).
CREATE OR REPLACE FUNCTION release_item_of_ended_trade() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE listings SET trade_ended = true WHERE listing_id = NEW.listing_id AND NOT trade_ended;
  RETURN NULL;
END $$
