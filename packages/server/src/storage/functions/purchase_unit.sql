-- One unit of an immediate-or-cancel purchase of a standard goods, as one statement: the cheapest
-- listing the buyer may take (listing_takeable) at or below p_max_price, paid by pay_for_listing.
-- Rows other buyers hold are skipped (FOR UPDATE SKIP LOCKED) so that buyers of one goods do not
-- queue behind each other; when every matching listing is held, the unit waits for the cheapest
-- held one (FOR UPDATE), whose holder may give it up, rather than turn the buyer away while a
-- listing stays on sale (docs/design/purchases-and-trades.md#purchases-and-trades). Outcomes: 'bought', 'none', 'insufficient';
-- o_withdrawn is always 0 (callers keep their shape). The server calls purchase_goods_unit, which
-- does this and first finds the buyer's trade URL and checks the goods; this one stays for
-- migration 0019's down.
CREATE OR REPLACE FUNCTION purchase_unit(
  p_buyer_id bigint, p_goods_id integer, p_max_price bigint, p_pay_order text[],
  p_trade_url text, p_buyer_platformid text, p_now timestamptz, p_delivery_window_ms bigint,
  p_actor text, p_request_id text,
  OUT o_outcome text, OUT o_trade_id bigint, OUT o_price bigint, OUT o_balance_after bigint,
  OUT o_withdrawn integer
) LANGUAGE plpgsql AS $$
DECLARE
  candidate record;
  payment record;
BEGIN
  o_withdrawn := 0;
  IF NOT EXISTS (SELECT 1 FROM goods WHERE goods.goods_id = p_goods_id AND goods.is_standard) THEN
    o_outcome := 'none';
    RETURN;
  END IF;
  SELECT listing.listing_id, listing.price, listing.fee INTO candidate
  FROM listings AS listing
  WHERE listing.goods_id = p_goods_id AND listing_takeable(listing, p_buyer_id, p_max_price, p_now, false)
  ORDER BY listing.price, listing.listing_id
  LIMIT 1 FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN
    SELECT listing.listing_id, listing.price, listing.fee INTO candidate
    FROM listings AS listing
    WHERE listing.goods_id = p_goods_id AND listing_takeable(listing, p_buyer_id, p_max_price, p_now, false)
    ORDER BY listing.price, listing.listing_id
    LIMIT 1 FOR UPDATE;
  END IF;
  IF NOT FOUND THEN
    o_outcome := 'none';
    RETURN;
  END IF;
  SELECT * INTO payment FROM pay_for_listing(p_buyer_id, candidate.listing_id, candidate.price,
    candidate.fee, p_pay_order, p_trade_url, p_buyer_platformid, p_now, p_delivery_window_ms,
    p_actor, p_request_id);
  o_outcome := payment.o_outcome;
  o_trade_id := payment.o_trade_id;
  o_balance_after := payment.o_balance_after;
  IF o_outcome = 'bought' THEN
    o_price := candidate.price;
  END IF;
END $$
