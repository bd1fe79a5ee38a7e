-- Trigger function of bound_platform_accounts (bound_platform_accounts_events, migration 0020): a
-- platform account's cookies expired (docs/design/events.md#expired-cookies).
CREATE OR REPLACE FUNCTION cookie_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF events_quiet() THEN RETURN NULL; END IF;
  INSERT INTO event_outbox (type, user_id, goods_id, subject)
    VALUES ('platform.cookie_expired', NEW.user_id, NULL, jsonb_build_object(
      'platformid', NEW.platformid, 'cookie_state', NEW.cookie_state,
      'cookies_checked_at', NEW.cookies_checked_at));
  RETURN NULL;
END $$
