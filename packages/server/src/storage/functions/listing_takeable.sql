-- Whether a buyer may take a listing (docs/design/architecture.md#where-the-databases-functions-live): on sale, not the buyer's own, at or below the buyer's price, sent by its seller (a
-- listing whose buyer must send the offer cannot be traded here), and out of trade cooldown at
-- p_at unless the buyer accepts a pre-sell listing. Every statement that picks or counts listings
-- for a buyer asks this function, in SQL (purchase_goods_unit, purchase_unit, purchase_listing)
-- and in TypeScript (purchases, quantities, buy-order crossing), so the rule changes here only.
--
-- A plain SQL expression, IMMUTABLE, not STRICT, each argument cheap: the planner inlines it into
-- the calling statement, so `state = 'ON_SALE'` still selects the partial index of listings on
-- sale and `price <= p_max_price` is still an index condition; plans are those of the conditions
-- written out. (Adding a volatile call, a subquery or SECURITY DEFINER here stops the inlining.)
CREATE OR REPLACE FUNCTION listing_takeable(
  p_listing listings, p_buyer_id bigint, p_max_price bigint, p_at timestamptz, p_cooldown_allowed boolean
) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT p_listing.state = 'ON_SALE'
    AND p_listing.user_id <> p_buyer_id
    AND p_listing.price <= p_max_price
    AND p_listing.force_buyer_send_offer = false
    AND (p_cooldown_allowed OR p_listing.tradable_after IS NULL OR p_listing.tradable_after <= p_at)
$$
