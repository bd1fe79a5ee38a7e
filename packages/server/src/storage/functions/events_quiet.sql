-- Whether this transaction writes no events: one that sets skinmarket.events to 'off'
-- (set_config(..., true), for that transaction only). The demo market's bulk build is a starting
-- picture, not history (docs/design/events.md#quiet-bulk-writes).
CREATE OR REPLACE FUNCTION events_quiet() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('skinmarket.events', true), '') = 'off'
$$
