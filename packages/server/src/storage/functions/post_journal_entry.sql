-- One journal entry: the entry, its lines, and each account's balance by the lines' net change.
-- The caller has locked the accounts (in id order) and refused an overdraft; the balances' CHECK
-- constraint stays the backstop. Every verb that moves money writes its entry here.
CREATE OR REPLACE FUNCTION post_journal_entry(
  p_kind text, p_created_at timestamptz, p_reference text, p_memo jsonb,
  p_account_ids bigint[], p_amounts bigint[]
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  new_entry_id bigint;
BEGIN
  IF cardinality(p_account_ids) < 2 OR cardinality(p_account_ids) <> cardinality(p_amounts) THEN
    RAISE EXCEPTION 'journal entry %: needs two or more lines, each an account and an amount', p_kind;
  END IF;
  IF (SELECT sum(amount) FROM unnest(p_amounts) AS line (amount)) <> 0 THEN
    RAISE EXCEPTION 'journal entry % does not balance', p_kind;
  END IF;
  INSERT INTO journal_entries (kind, created_at, reference, memo)
  VALUES (p_kind, p_created_at, p_reference, p_memo)
  RETURNING entry_id INTO new_entry_id;
  INSERT INTO journal_lines (entry_id, account_id, amount)
  SELECT new_entry_id, line.account_id, line.amount
  FROM unnest(p_account_ids, p_amounts) WITH ORDINALITY AS line (account_id, amount, position)
  ORDER BY line.position;
  UPDATE ledger_accounts AS account SET balance = account.balance + change.amount
  FROM (
    SELECT line.account_id, sum(line.amount) AS amount
    FROM unnest(p_account_ids, p_amounts) AS line (account_id, amount)
    GROUP BY line.account_id
  ) AS change
  WHERE account.account_id = change.account_id AND change.amount <> 0;
  RETURN new_entry_id;
END $$
