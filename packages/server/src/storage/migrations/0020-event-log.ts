import { sql, type Kysely } from "kysely";

/**
 * The event log (docs/design/events.md#the-record-carried). A change to a listing, a trade, a buy order, a user's
 * balances, a user's buy-order status or a platform account's cookies writes a row to
 * `event_outbox` from a trigger, in the transaction of the change: a change that rolls back leaves
 * no event, and no code path (a verb, a database function such as `purchase_unit`, a job, the
 * sandbox) can change a row without one. The row holds the event's type and the changed row as it
 * was left; `txid` is the writing transaction's id.
 *
 * Events get their public id later, in commit order, from the sequencer
 * (`domain/events/sequence-events.ts`): ids taken inside the writing transactions (a serial column)
 * would be in the order the transactions started writing, not the order they committed, and a
 * reader that saw id 11 could later find a 10 committed after it and miss it for good. The
 * sequencer takes only rows whose transaction is older than every transaction still running
 * (`txid < pg_snapshot_xmin(pg_current_snapshot())`): those transactions have all ended, so no row
 * can appear later behind the ids it hands out.
 *
 * A transaction that sets `skinmarket.events` to `off` (`set_config(..., true)`: for that
 * transaction only) writes no events: the demo market's bulk build is a starting picture, not
 * history, and millions of rows would only fill the log.
 */
const TRIGGERS = `
CREATE FUNCTION events_quiet() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('skinmarket.events', true), '') = 'off'
$$;

CREATE FUNCTION listing_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_type text;
BEGIN
  IF events_quiet() THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    event_type := 'listing.created';
  ELSIF NEW.state IS DISTINCT FROM OLD.state THEN
    event_type := CASE NEW.state WHEN 'SOLD' THEN 'listing.sold' WHEN 'CANCELLED' THEN 'listing.withdrawn'
      ELSE 'listing.changed' END;
  ELSIF NEW.state = 'ON_SALE' AND NEW.price IS DISTINCT FROM OLD.price THEN
    event_type := 'listing.repriced';
  ELSIF NEW.state = 'ON_SALE' AND (NEW.description, NEW.allow_bargain, NEW.allow_wallet_zft, NEW.allow_epay,
      NEW.allow_pending_divide_balance, NEW.force_buyer_send_offer, NEW.tradable_after)
      IS DISTINCT FROM (OLD.description, OLD.allow_bargain, OLD.allow_wallet_zft, OLD.allow_epay,
      OLD.allow_pending_divide_balance, OLD.force_buyer_send_offer, OLD.tradable_after) THEN
    event_type := 'listing.changed';
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO event_outbox (type, user_id, goods_id, subject)
    VALUES (event_type, NEW.user_id, NEW.goods_id, to_jsonb(NEW));
  RETURN NULL;
END $$;

CREATE FUNCTION trade_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_type text;
BEGIN
  IF events_quiet() THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    event_type := 'trade.created';
  ELSIF NEW.state IS DISTINCT FROM OLD.state THEN
    event_type := CASE
      WHEN NEW.state = 'TRADING' THEN 'trade.offer_sent'
      WHEN NEW.state = 'SUCCESS' THEN 'trade.delivered'
      WHEN NEW.state = 'FAIL' AND OLD.state = 'SUCCESS' THEN 'trade.rolled_back'
      WHEN NEW.state = 'FAIL' THEN 'trade.cancelled'
      ELSE 'trade.state_changed' END;
  ELSIF NEW.tradeofferid IS DISTINCT FROM OLD.tradeofferid AND NEW.tradeofferid IS NOT NULL THEN
    event_type := 'trade.offer_sent';
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO event_outbox (type, user_id, goods_id, subject)
    VALUES (event_type, NEW.seller_id, NEW.goods_id, to_jsonb(NEW));
  RETURN NULL;
END $$;

CREATE FUNCTION buy_order_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  event_type text;
BEGIN
  IF events_quiet() THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    event_type := 'buy_order.created';
  ELSIF NEW.state IS DISTINCT FROM OLD.state AND NEW.state = 'failed' THEN
    event_type := CASE WHEN NEW.fail_reason LIKE '%expired%' THEN 'buy_order.expired'
      ELSE 'buy_order.cancelled' END;
  ELSIF NEW.frozen_num > OLD.frozen_num THEN
    -- A unit matched: a listing bought for the order, its trade opened.
    event_type := 'buy_order.filled';
  ELSIF NEW.state IS DISTINCT FROM OLD.state THEN
    event_type := 'buy_order.state_changed';
  ELSIF (NEW.price, NEW.num, NEW.real_num, NEW.frozen_num)
      IS DISTINCT FROM (OLD.price, OLD.num, OLD.real_num, OLD.frozen_num) THEN
    event_type := 'buy_order.changed';
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO event_outbox (type, user_id, goods_id, subject)
    VALUES (event_type, NEW.user_id, NEW.goods_id, to_jsonb(NEW));
  RETURN NULL;
END $$;

CREATE FUNCTION buy_order_status_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF events_quiet() THEN RETURN NULL; END IF;
  INSERT INTO event_outbox (type, user_id, goods_id, subject)
    VALUES ('buy_order.status_changed', NEW.user_id, NULL, jsonb_build_object(
      'buy_order_status', NEW.buy_order_status, 'buy_order_auto_offline', NEW.buy_order_auto_offline));
  RETURN NULL;
END $$;

CREATE FUNCTION balance_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF events_quiet() THEN RETURN NULL; END IF;
  INSERT INTO event_outbox (type, user_id, goods_id, subject)
    SELECT 'balance.changed', NEW.user_id, NULL, jsonb_object_agg(account.kind, account.balance)
    FROM ledger_accounts AS account WHERE account.user_id = NEW.user_id;
  RETURN NULL;
END $$;

CREATE FUNCTION cookie_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF events_quiet() THEN RETURN NULL; END IF;
  INSERT INTO event_outbox (type, user_id, goods_id, subject)
    VALUES ('platform.cookie_expired', NEW.user_id, NULL, jsonb_build_object(
      'platformid', NEW.platformid, 'cookie_state', NEW.cookie_state,
      'cookies_checked_at', NEW.cookies_checked_at));
  RETURN NULL;
END $$;

CREATE TRIGGER listings_events AFTER INSERT OR UPDATE ON listings
  FOR EACH ROW EXECUTE FUNCTION listing_events();
CREATE TRIGGER trades_events AFTER INSERT OR UPDATE ON trades
  FOR EACH ROW EXECUTE FUNCTION trade_events();
CREATE TRIGGER buy_orders_events AFTER INSERT OR UPDATE ON buy_orders
  FOR EACH ROW EXECUTE FUNCTION buy_order_events();
CREATE TRIGGER users_buy_order_status_events AFTER UPDATE OF buy_order_status ON users
  FOR EACH ROW WHEN (NEW.buy_order_status IS DISTINCT FROM OLD.buy_order_status)
  EXECUTE FUNCTION buy_order_status_events();
CREATE TRIGGER ledger_accounts_events AFTER UPDATE OF balance ON ledger_accounts
  FOR EACH ROW WHEN (NEW.user_id IS NOT NULL AND NEW.balance IS DISTINCT FROM OLD.balance)
  EXECUTE FUNCTION balance_events();
CREATE TRIGGER bound_platform_accounts_events AFTER UPDATE OF cookie_state ON bound_platform_accounts
  FOR EACH ROW WHEN (NEW.cookie_state = 'expired' AND OLD.cookie_state IS DISTINCT FROM 'expired')
  EXECUTE FUNCTION cookie_events();
`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE event_outbox (
    seq bigserial PRIMARY KEY,
    txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
    type text NOT NULL,
    user_id integer,
    goods_id integer,
    subject jsonb NOT NULL
  )`.execute(db);
  await sql`CREATE SEQUENCE event_ids`.execute(db);
  await sql`CREATE TABLE events (
    event_id bigint PRIMARY KEY,
    type text NOT NULL,
    user_id integer,
    goods_id integer,
    created_at timestamptz NOT NULL,
    data jsonb NOT NULL
  )`.execute(db);
  // An account's events in order; the public ones in order, and per goods (the order-book channel).
  await sql`CREATE INDEX events_of_user ON events (user_id, event_id) WHERE user_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX events_public ON events (event_id) WHERE user_id IS NULL`.execute(db);
  await sql`CREATE INDEX events_public_goods ON events (goods_id, event_id) WHERE user_id IS NULL`.execute(
    db,
  );
  await sql`CREATE INDEX events_created ON events (created_at)`.execute(db);
  // The lowest ask and highest bid last published per goods: a price event is written when they move.
  await sql`CREATE TABLE market_price_marks (
    goods_id integer PRIMARY KEY,
    sell_min bigint NOT NULL,
    buy_max bigint NOT NULL
  )`.execute(db);
  // One statement at a time: a prepared statement holds one command.
  for (const statement of TRIGGERS.split(/;\s*\n(?=CREATE )/)) await sql.raw(statement).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [trigger, table] of [
    ["bound_platform_accounts_events", "bound_platform_accounts"],
    ["ledger_accounts_events", "ledger_accounts"],
    ["users_buy_order_status_events", "users"],
    ["buy_orders_events", "buy_orders"],
    ["trades_events", "trades"],
    ["listings_events", "listings"],
  ] as const) {
    await sql`DROP TRIGGER ${sql.id(trigger)} ON ${sql.table(table)}`.execute(db);
  }
  await sql`DROP FUNCTION cookie_events(), balance_events(), buy_order_status_events(), buy_order_events(),
    trade_events(), listing_events(), events_quiet()`.execute(db);
  await sql`DROP TABLE market_price_marks, events, event_outbox`.execute(db);
  await sql`DROP SEQUENCE event_ids`.execute(db);
}
