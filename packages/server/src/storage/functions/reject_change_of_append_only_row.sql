-- The journal and the audit log are append-only; only a sandbox reset (TRUNCATE) empties them.
-- Trigger function of journal_entries, journal_lines and audit_events (migration 0001).
CREATE OR REPLACE FUNCTION reject_change_of_append_only_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END
$$
