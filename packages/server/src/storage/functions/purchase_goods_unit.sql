-- One unit of a purchase of goods (purchase/orders) in one round trip (docs/design/buy-orders.md#placing-supplying-and-cancelling):
-- - without a trade URL (p_trade_url NULL), the buyer's bound account: the given p_buyer_platformid
--   or the first bound (then by platformid) that has a trade URL; 'no_account' when the given
--   platformid is not bound to the buyer, 'no_trade_url' when none has one. The trade URL and
--   platformid used come back (o_trade_url, o_platformid) for the request's next units.
-- - 'no_goods' for an id the catalog does not hold, 'not_standard' for goods that cannot be bought
--   in batch.
-- - then the cheapest listing the buyer may take (listing_takeable) at or below p_max_price. Rows
--   other buyers hold are skipped (FOR UPDATE SKIP LOCKED), so that buyers of one goods do not
--   queue behind each other; when every matching listing is held, the unit waits for the cheapest
--   held one (FOR UPDATE): once its holder ends the row is checked again, and a sold one is passed
--   over for the next. 'none' when there is nothing to take.
-- - paid by pay_for_listing: 'bought' or 'insufficient'.
CREATE OR REPLACE FUNCTION purchase_goods_unit(
  p_buyer_id bigint, p_goods_id integer, p_max_price bigint, p_pay_order text[],
  p_trade_url text, p_buyer_platformid text, p_now timestamptz, p_delivery_window_ms bigint,
  p_actor text, p_request_id text,
  OUT o_outcome text, OUT o_trade_id bigint, OUT o_price bigint, OUT o_balance_after bigint,
  OUT o_trade_url text, OUT o_platformid text
) LANGUAGE plpgsql AS $$
DECLARE
  destination record;
  standard boolean;
  candidate record;
  payment record;
BEGIN
  IF p_trade_url IS NULL THEN
    SELECT bound.platformid, bound.trade_url INTO destination
    FROM bound_platform_accounts AS bound
    WHERE bound.user_id = p_buyer_id AND bound.trade_url IS NOT NULL
      AND (p_buyer_platformid IS NULL OR bound.platformid = p_buyer_platformid)
    ORDER BY bound.bound_at, bound.platformid
    LIMIT 1;
    IF NOT FOUND THEN
      IF p_buyer_platformid IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM bound_platform_accounts AS bound
        WHERE bound.user_id = p_buyer_id AND bound.platformid = p_buyer_platformid
      ) THEN
        o_outcome := 'no_account';
      ELSE
        o_outcome := 'no_trade_url';
      END IF;
      RETURN;
    END IF;
    o_trade_url := destination.trade_url;
    o_platformid := destination.platformid;
  ELSE
    o_trade_url := p_trade_url;
    o_platformid := p_buyer_platformid;
  END IF;
  SELECT goods.is_standard INTO standard FROM goods WHERE goods.goods_id = p_goods_id;
  IF NOT FOUND THEN
    o_outcome := 'no_goods';
    RETURN;
  ELSIF NOT standard THEN
    o_outcome := 'not_standard';
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
    candidate.fee, p_pay_order, o_trade_url, o_platformid, p_now, p_delivery_window_ms,
    p_actor, p_request_id);
  o_outcome := payment.o_outcome;
  o_trade_id := payment.o_trade_id;
  o_balance_after := payment.o_balance_after;
  IF o_outcome = 'bought' THEN
    o_price := candidate.price;
  END IF;
END $$
