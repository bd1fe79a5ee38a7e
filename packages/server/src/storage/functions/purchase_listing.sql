-- The website's purchase of one chosen listing (goods/buy) at the price the buyer saw, as one
-- statement. The listing is locked (waiting for another buyer's transaction rather than skipping
-- it: the second buyer then finds it sold). It is bought when the buyer may take it
-- (listing_takeable, with the cooldown the buyer accepted) at exactly p_price; a refusal is named
-- by the first condition it breaks, in this order: 'gone' (no listing of that goods on sale with
-- that id), 'own', 'price_changed' (o_price is the listing's price now), 'cooldown' (a pre-sell
-- listing the buyer did not accept), 'buyer_sends' (the buyer must send its offer, which trades
-- here cannot take). A condition added to listing_takeable refuses here too, as 'gone' until it
-- is named below. Then 'method_refused' (the seller does not accept the wallet or the card), or
-- pay_for_listing's 'insufficient' or 'bought'.
CREATE OR REPLACE FUNCTION purchase_listing(
  p_buyer_id bigint, p_listing_id bigint, p_goods_id integer, p_price bigint,
  p_allow_cooldown boolean, p_pay_order text[], p_trade_url text, p_buyer_platformid text,
  p_now timestamptz, p_delivery_window_ms bigint, p_actor text, p_request_id text,
  OUT o_outcome text, OUT o_trade_id bigint, OUT o_price bigint, OUT o_balance_after bigint
) LANGUAGE plpgsql AS $$
DECLARE
  chosen listings;
  payment record;
BEGIN
  SELECT listing.* INTO chosen
  FROM listings AS listing
  WHERE listing.listing_id = p_listing_id AND listing.goods_id = p_goods_id AND listing.state = 'ON_SALE'
  FOR UPDATE;
  IF NOT FOUND THEN
    o_outcome := 'gone';
    RETURN;
  END IF;
  o_price := chosen.price;
  IF NOT (listing_takeable(chosen, p_buyer_id, p_price, p_now, p_allow_cooldown) AND chosen.price = p_price) THEN
    o_outcome := CASE
      WHEN chosen.user_id = p_buyer_id THEN 'own'
      WHEN chosen.price <> p_price THEN 'price_changed'
      WHEN chosen.tradable_after > p_now AND NOT p_allow_cooldown THEN 'cooldown'
      WHEN chosen.force_buyer_send_offer THEN 'buyer_sends'
      ELSE 'gone'
    END;
  ELSIF (p_pay_order IS NULL AND NOT chosen.allow_epay)
    OR ('wallet' = ANY (p_pay_order) AND NOT chosen.allow_wallet_zft) THEN
    o_outcome := 'method_refused';
  ELSE
    SELECT * INTO payment FROM pay_for_listing(p_buyer_id, chosen.listing_id, chosen.price,
      chosen.fee, p_pay_order, p_trade_url, p_buyer_platformid, p_now, p_delivery_window_ms,
      p_actor, p_request_id);
    o_outcome := payment.o_outcome;
    o_trade_id := payment.o_trade_id;
    o_balance_after := payment.o_balance_after;
  END IF;
END $$
