import { sql, type Kysely } from "kysely";

/**
 * The money paths as functions inside the database (docs/design/performance.md#the-purchase-path). A purchased unit is one statement, `purchase_unit`, so a purchase costs one round trip
 * instead of seven; the journal entry and the trade it writes are the same functions that the
 * other verbs call (`post_journal_entry`, `open_trade`), so each of those writes lives in one place.
 *
 * Listings whose item already left the seller's account are withdrawn here once: from now on the
 * platform withdraws them in the transaction that moves the item, and a purchase no longer asks.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    // One journal entry: the entry, its lines, and each account's balance by the lines' net
    // change. The caller has locked the accounts (in id order) and refused an overdraft; the
    // balances' CHECK constraint stays the backstop.
    `CREATE FUNCTION post_journal_entry(
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
    END $$`,

    // The trade of a listing sold in the caller's transaction, with its audit row. A paid trade
    // waits for the seller's offer, its delivery time running from the end of the item's trade
    // cooldown (a pre-sell sale) or from now; a card payment waits in PAYING.
    `CREATE FUNCTION open_trade(
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
      FROM listings AS sold WHERE sold.listing_id = p_listing_id
      RETURNING trade_id INTO new_trade_id;
      IF new_trade_id IS NULL THEN
        RAISE EXCEPTION 'listing % does not exist', p_listing_id;
      END IF;
      INSERT INTO audit_events (created_at, actor, action, subject, details, request_id)
      VALUES (p_now, p_actor, 'trade.create', 'trade:' || new_trade_id,
        jsonb_build_object('listing_id', p_listing_id, 'price_fen', p_price, 'paid_from', p_paid_from)
          || CASE WHEN p_buy_order_id IS NULL THEN '{}'::jsonb
             ELSE jsonb_build_object('buy_order_id', p_buy_order_id) END,
        p_request_id);
      RETURN new_trade_id;
    END $$`,

    // One unit of an immediate-or-cancel purchase, as one statement (docs/design/buy-orders.md#crossing):
    // the cheapest listing of a standard goods at or below the price that the buyer may have
    // (not their own, not one whose buyer sends the offer, out of trade cooldown), skipping rows
    // other buyers are taking; a listing whose item is already in a live trade is withdrawn and
    // the next one tried. The buyer's accounts are locked after the listing (the order every
    // money path keeps) and pay in p_pay_order's order as far as each goes; a NULL order is a
    // card payment, confirmed later by the card network. Outcomes: 'bought' (with the trade, the
    // price and the buyer's balance afterwards), 'none' (nothing to buy), 'insufficient'
    // (nothing written but withdrawals). o_withdrawn counts the listings withdrawn on the way.
    `CREATE FUNCTION purchase_unit(
      p_buyer_id bigint, p_goods_id integer, p_max_price bigint, p_pay_order text[],
      p_trade_url text, p_buyer_platformid text, p_now timestamptz, p_delivery_window_ms bigint,
      p_actor text, p_request_id text,
      OUT o_outcome text, OUT o_trade_id bigint, OUT o_price bigint, OUT o_balance_after bigint,
      OUT o_withdrawn integer
    ) LANGUAGE plpgsql AS $$
    DECLARE
      candidate record;
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
      o_withdrawn := 0;
      IF NOT EXISTS (SELECT 1 FROM goods WHERE goods.goods_id = p_goods_id AND goods.is_standard) THEN
        o_outcome := 'none';
        RETURN;
      END IF;
      LOOP
        SELECT listing.listing_id, listing.price, listing.fee, listing.assetid INTO candidate
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
        EXIT WHEN NOT EXISTS (
          SELECT 1 FROM trades AS live WHERE live.assetid = candidate.assetid
            AND live.state IN ('PAYING', 'SELLER_TO_SEND_OFFER', 'TRADING'));
        UPDATE listings SET state = 'CANCELLED', updated_at = p_now
        WHERE listings.listing_id = candidate.listing_id;
        o_withdrawn := o_withdrawn + 1;
      END LOOP;

      IF p_pay_order IS NULL THEN
        paid := jsonb_build_object('bankcard', candidate.price);
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
        remaining := candidate.price;
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
        PERFORM post_journal_entry('purchase_payment', p_now, 'listing:' || candidate.listing_id, '{}'::jsonb,
          paying_ids || ids[array_position(kinds, 'escrow')], paying_amounts || candidate.price);
        o_balance_after := balances[array_position(kinds, 'balance')] - coalesce((paid ->> 'balance')::bigint, 0);
      END IF;

      UPDATE listings SET state = 'SOLD', updated_at = p_now WHERE listings.listing_id = candidate.listing_id;
      o_trade_id := open_trade(candidate.listing_id, p_buyer_id, p_trade_url, p_buyer_platformid,
        candidate.price, candidate.fee, first_kind, paid, NULL, p_now, p_delivery_window_ms, p_actor, p_request_id);
      o_price := candidate.price;
      o_outcome := 'bought';
    END $$`,

    // Listings of items that left their seller's account before the platform told the market.
    `UPDATE listings SET state = 'CANCELLED'
    WHERE state = 'ON_SALE' AND NOT EXISTS (
      SELECT 1 FROM sandbox_assets AS asset
      WHERE asset.assetid = listings.assetid AND asset.platformid = listings.platformid
        AND asset.traded_to_assetid IS NULL)`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION purchase_unit`.execute(db);
  await sql`DROP FUNCTION open_trade`.execute(db);
  await sql`DROP FUNCTION post_journal_entry`.execute(db);
}
