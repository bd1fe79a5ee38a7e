import { sql, type Kysely } from "kysely";

/**
 * A purchase of the cheapest listing skips rows other buyers hold (`FOR UPDATE SKIP LOCKED`), so
 * that buyers of a goods with many listings do not queue behind each other. But a holder may give
 * its listing up (its buyer cannot pay, or its transaction fails): when every matching listing is
 * held, answering "none" would turn away a buyer while a listing stays on sale. So the unit then
 * waits for the cheapest held one (`FOR UPDATE`): once its holder ends, the row is checked again,
 * and a sold one is passed over for the next (docs/design/purchases-and-trades.md#purchases-and-trades).
 */
function purchaseUnit(waitForHeld: boolean): string {
  const candidate = (lock: string) => `
      SELECT listing.listing_id, listing.price, listing.fee INTO candidate
      FROM listings AS listing
      WHERE listing.goods_id = p_goods_id AND listing.state = 'ON_SALE'
        AND listing.price <= p_max_price AND listing.user_id <> p_buyer_id
        AND listing.force_buyer_send_offer = false
        AND (listing.tradable_after IS NULL OR listing.tradable_after <= p_now)
      ORDER BY listing.price, listing.listing_id
      LIMIT 1 ${lock};`;
  const wait = waitForHeld
    ? `
      IF NOT FOUND THEN
        ${candidate("FOR UPDATE")}
      END IF;`
    : "";
  return `CREATE OR REPLACE FUNCTION purchase_unit(
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
      ${candidate("FOR UPDATE SKIP LOCKED")}${wait}
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
    END $$`;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(purchaseUnit(true)).execute(db);
}

/** Back to 0017's unit, which answers "none" when every matching listing is held. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(purchaseUnit(false)).execute(db);
}
