import { sql, type Kysely } from "kysely";

/**
 * An item is committed to at most one thing at a time (docs/design/domain-model.md#the-commitment-rule-for-items): a listing on sale, or a sale whose trade is live; a supply to a buy order is
 * a sale from the moment its listing is written. Every trade has its listing, so one partial
 * unique index on listings holds the rule, whichever verbs race: a listing commits its item
 * while it is on sale, and while it is sold and its trade has not ended.
 *
 * `trade_ended` marks a sold listing whose trade ended (delivered or failed); a trigger sets it in
 * the statement that ends the trade, so no writer of trades can forget to release the item.
 * `open_trade` opens a trade only on a sold listing that still commits its item, so a live trade
 * always stands behind an entry of the index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `ALTER TABLE listings ADD COLUMN trade_ended boolean NOT NULL DEFAULT false`,
    `UPDATE listings SET trade_ended = true
    WHERE state = 'SOLD' AND NOT EXISTS (
      SELECT 1 FROM trades AS live WHERE live.listing_id = listings.listing_id
        AND live.state IN ('PAYING', 'SELLER_TO_SEND_OFFER', 'TRADING'))`,
    // Listings put on sale while their item was in a live trade (the race this migration closes)
    // are withdrawn, as a purchase that found them would have done.
    `UPDATE listings SET state = 'CANCELLED'
    WHERE state = 'ON_SALE' AND EXISTS (
      SELECT 1 FROM trades AS live WHERE live.assetid = listings.assetid
        AND live.state IN ('PAYING', 'SELLER_TO_SEND_OFFER', 'TRADING'))`,
    `ALTER TABLE listings ADD CONSTRAINT listings_trade_ended_only_when_sold CHECK (NOT trade_ended OR state = 'SOLD')`,
    `CREATE UNIQUE INDEX listings_one_commitment_per_asset ON listings (assetid)
    WHERE state = 'ON_SALE' OR (state = 'SOLD' AND NOT trade_ended)`,
    `DROP INDEX listings_one_on_sale_per_asset`,

    `CREATE FUNCTION release_item_of_ended_trade() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE listings SET trade_ended = true WHERE listing_id = NEW.listing_id AND NOT trade_ended;
      RETURN NULL;
    END $$`,
    `CREATE TRIGGER trades_release_item AFTER INSERT OR UPDATE OF state ON trades
    FOR EACH ROW WHEN (NEW.state IN ('SUCCESS', 'FAIL')) EXECUTE FUNCTION release_item_of_ended_trade()`,

    // As in 0013, with the listing required to be sold and still committing its item.
    openTrade("AND sold.state = 'SOLD' AND NOT sold.trade_ended"),

    // As in 0013, without the look for a live trade of each candidate's item: a listing on sale
    // and a live trade of the same item can no longer both exist, so there is nothing to withdraw
    // (o_withdrawn stays, always 0, so that callers keep their shape).
    `CREATE OR REPLACE FUNCTION purchase_unit(
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
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}

// purchase_unit keeps 0014's body: it reads nothing this down removes.
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER trades_release_item ON trades`.execute(db);
  await sql`DROP FUNCTION release_item_of_ended_trade`.execute(db);
  await sql`CREATE UNIQUE INDEX listings_one_on_sale_per_asset ON listings (assetid) WHERE state = 'ON_SALE'`.execute(
    db,
  );
  await sql`DROP INDEX listings_one_commitment_per_asset`.execute(db);
  await sql.raw(openTrade("")).execute(db);
  await sql`ALTER TABLE listings DROP COLUMN trade_ended`.execute(db);
}

/** 0013's open_trade, with `condition` on the sold listing it reads. */
function openTrade(condition: string): string {
  return `CREATE OR REPLACE FUNCTION open_trade(
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
      WHERE sold.listing_id = p_listing_id ${condition}
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
    END $$`;
}
