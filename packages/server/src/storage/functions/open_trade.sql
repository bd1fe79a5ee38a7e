-- The trade of a listing sold in the caller's transaction, with its audit row. A paid trade waits
-- for the seller's offer, its delivery time running from the end of the item's trade cooldown (a
-- pre-sell sale) or from now; a card payment waits in PAYING. Only a sold listing that still
-- commits its item gets a trade (docs/design/domain-model.md#the-commitment-rule-for-items), so a
-- live trade always stands behind an entry of listings_one_commitment_per_asset.
CREATE OR REPLACE FUNCTION open_trade(
  p_listing_id bigint, p_buyer_id bigint, p_trade_url text, p_buyer_platformid text,
  p_price bigint, p_fee bigint, p_pay_method text, p_paid_from jsonb, p_buy_order_id bigint,
  p_now timestamptz, p_delivery_window_ms bigint, p_actor text, p_request_id text
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  new_trade_id bigint;
  card boolean := p_pay_method = 'bankcard';
BEGIN
  INSERT INTO trades (listing_id, buyer_id, seller_id, goods_id, assetid, seller_platformid,
    buyer_platformid, buyer_trade_url, price, fee, pay_method, paid_from, state, asset, deliver_by,
    buy_order_id, created_at, updated_at)
  SELECT sold.listing_id, p_buyer_id, sold.user_id, sold.goods_id, sold.assetid, sold.platformid,
    p_buyer_platformid, p_trade_url, p_price, p_fee, p_pay_method, p_paid_from,
    CASE WHEN card THEN 'PAYING' ELSE 'SELLER_TO_SEND_OFFER' END,
    sold.asset,
    CASE WHEN card THEN NULL
      ELSE greatest(p_now, coalesce(sold.tradable_after, p_now)) + p_delivery_window_ms * interval '1 millisecond'
    END,
    p_buy_order_id, p_now, p_now
  FROM listings AS sold
  WHERE sold.listing_id = p_listing_id AND sold.state = 'SOLD' AND NOT sold.trade_ended
  RETURNING trade_id INTO new_trade_id;
  IF new_trade_id IS NULL THEN
    RAISE EXCEPTION 'listing % is not a sale that commits its item', p_listing_id;
  END IF;
  INSERT INTO audit_events (created_at, actor, action, subject, details, request_id)
  VALUES (p_now, p_actor, 'trade.create', 'trade:' || new_trade_id,
    jsonb_build_object('listing_id', p_listing_id, 'price_fen', p_price, 'paid_from', p_paid_from)
      || CASE WHEN p_buy_order_id IS NULL THEN '{}'::jsonb
         ELSE jsonb_build_object('buy_order_id', p_buy_order_id) END,
    p_request_id);
  RETURN new_trade_id;
END $$
