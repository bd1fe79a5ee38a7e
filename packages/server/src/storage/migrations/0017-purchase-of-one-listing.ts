import { sql, type Kysely } from "kysely";

/**
 * The website buys one chosen listing (`goods/buy`, docs/design/website-buying-routes.md#the-websites-buying-routes); the official
 * purchase buys the cheapest. Both pay the same way, so the payment and the trade move into one
 * function, `pay_for_listing`, that `purchase_unit` (the official unit, unchanged in what it does)
 * and the new `purchase_listing` call: money and items still move in one place.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    // The payment of a listing the caller has locked and found buyable: the buyer's accounts are
    // locked after the listing (the order every money path keeps) and pay in p_pay_order's order
    // as far as each goes; a NULL order is a card payment, confirmed later by the card network.
    // Then the listing is sold and its trade opened. 'insufficient' writes nothing.
    `CREATE FUNCTION pay_for_listing(
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
    END $$`,

    // As in 0014, its payment now pay_for_listing's.
    `CREATE OR REPLACE FUNCTION purchase_unit(
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
      WHERE listing.goods_id = p_goods_id AND listing.state = 'ON_SALE'
        AND listing.price <= p_max_price AND listing.user_id <> p_buyer_id
        AND listing.force_buyer_send_offer = false
        AND (listing.tradable_after IS NULL OR listing.tradable_after <= p_now)
      ORDER BY listing.price, listing.listing_id
      LIMIT 1 FOR UPDATE SKIP LOCKED;
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
    END $$`,

    // One chosen listing at the price the buyer saw, as one statement. The listing is locked
    // (waiting for another buyer's transaction rather than skipping it: the second buyer then
    // finds it sold). Outcomes: 'gone' (no listing of that goods on sale with that id), 'own',
    // 'price_changed' (o_price is the listing's price now), 'cooldown' (a pre-sell listing the
    // buyer did not accept), 'buyer_sends' (the buyer must send its offer, which trades here
    // cannot take), 'method_refused' (the seller does not accept the wallet or the card),
    // 'insufficient', or 'bought'.
    `CREATE FUNCTION purchase_listing(
      p_buyer_id bigint, p_listing_id bigint, p_goods_id integer, p_price bigint,
      p_allow_cooldown boolean, p_pay_order text[], p_trade_url text, p_buyer_platformid text,
      p_now timestamptz, p_delivery_window_ms bigint, p_actor text, p_request_id text,
      OUT o_outcome text, OUT o_trade_id bigint, OUT o_price bigint, OUT o_balance_after bigint
    ) LANGUAGE plpgsql AS $$
    DECLARE
      chosen record;
      payment record;
    BEGIN
      SELECT listing.listing_id, listing.user_id, listing.price, listing.fee, listing.tradable_after,
        listing.force_buyer_send_offer, listing.allow_wallet_zft, listing.allow_epay INTO chosen
      FROM listings AS listing
      WHERE listing.listing_id = p_listing_id AND listing.goods_id = p_goods_id AND listing.state = 'ON_SALE'
      FOR UPDATE;
      IF NOT FOUND THEN
        o_outcome := 'gone';
        RETURN;
      END IF;
      o_price := chosen.price;
      IF chosen.user_id = p_buyer_id THEN
        o_outcome := 'own';
      ELSIF chosen.price <> p_price THEN
        o_outcome := 'price_changed';
      ELSIF chosen.tradable_after IS NOT NULL AND chosen.tradable_after > p_now AND NOT p_allow_cooldown THEN
        o_outcome := 'cooldown';
      ELSIF chosen.force_buyer_send_offer THEN
        o_outcome := 'buyer_sends';
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
    END $$`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

// purchase_unit keeps calling pay_for_listing, which this down leaves: it does what 0014's did.
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION purchase_listing`.execute(db);
}
