-- Trigger function of ledger_accounts (ledger_accounts_events, migration 0020): a user's balances
-- after a change, all accounts in one event (docs/design/events.md#written-by-the-changes-own-transaction).
CREATE OR REPLACE FUNCTION balance_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF events_quiet() THEN RETURN NULL; END IF;
  INSERT INTO event_outbox (type, user_id, goods_id, subject)
    SELECT 'balance.changed', NEW.user_id, NULL, jsonb_object_agg(account.kind, account.balance)
    FROM ledger_accounts AS account WHERE account.user_id = NEW.user_id;
  RETURN NULL;
END $$
