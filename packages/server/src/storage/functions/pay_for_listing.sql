-- The payment of a listing the caller has locked and found takeable (listing_takeable): the
-- buyer's accounts are locked after the listing (the order every money path keeps) and pay in
-- p_pay_order's order as far as each goes; a NULL order is a card payment, confirmed later by the
-- card network. Then the listing is sold and its trade opened. 'insufficient' writes nothing.
CREATE OR REPLACE FUNCTION pay_for_listing(
  p_buyer_id bigint, p_listing_id bigint, p_price bigint, p_fee bigint, p_pay_order text[],
  p_trade_url text, p_buyer_platformid text, p_now timestamptz, p_delivery_window_ms bigint,
  p_actor text, p_request_id text,
  OUT o_outcome text, OUT o_trade_id bigint, OUT o_balance_after bigint
) LANGUAGE plpgsql AS $$
DECLARE
  account record;
  kinds text[] := '{}';
  ids bigint[] := '{}';
  balances bigint[] := '{}';
  pay_kind text;
  slot integer;
  part bigint;
  remaining bigint;
  paying_ids bigint[] := '{}';
  paying_amounts bigint[] := '{}';
  paid jsonb := '{}';
  first_kind text;
BEGIN
  IF p_pay_order IS NULL THEN
    paid := jsonb_build_object('bankcard', p_price);
    first_kind := 'bankcard';
  ELSE
    FOR account IN
      SELECT ledger.account_id, ledger.kind, ledger.balance FROM ledger_accounts AS ledger
      WHERE ledger.user_id = p_buyer_id ORDER BY ledger.account_id FOR UPDATE
    LOOP
      kinds := kinds || account.kind;
      ids := ids || account.account_id;
      balances := balances || account.balance;
    END LOOP;
    remaining := p_price;
    FOREACH pay_kind IN ARRAY p_pay_order LOOP
      slot := array_position(kinds, pay_kind);
      part := least(balances[slot], remaining);
      IF part > 0 THEN
        paying_ids := paying_ids || ids[slot];
        paying_amounts := paying_amounts || -part;
        paid := paid || jsonb_build_object(pay_kind, part);
        first_kind := coalesce(first_kind, pay_kind);
        remaining := remaining - part;
      END IF;
    END LOOP;
    IF remaining > 0 THEN
      o_outcome := 'insufficient';
      RETURN;
    END IF;
    PERFORM post_journal_entry('purchase_payment', p_now, 'listing:' || p_listing_id, '{}'::jsonb,
      paying_ids || ids[array_position(kinds, 'escrow')], paying_amounts || p_price);
    o_balance_after := balances[array_position(kinds, 'balance')] - coalesce((paid ->> 'balance')::bigint, 0);
  END IF;

  UPDATE listings SET state = 'SOLD', updated_at = p_now WHERE listings.listing_id = p_listing_id;
  o_trade_id := open_trade(p_listing_id, p_buyer_id, p_trade_url, p_buyer_platformid,
    p_price, p_fee, first_kind, paid, NULL, p_now, p_delivery_window_ms, p_actor, p_request_id);
  o_outcome := 'bought';
END $$
