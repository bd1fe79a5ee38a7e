import { formatMoney, type EventType } from "@skinmarket/contract";
import type { BuyOrderRow } from "../buy-orders/match.ts";
import { toBuyOrderRecords } from "../buy-orders/buy-order-record.ts";
import { bookEventsOf } from "./book-events.ts";
import type { NewEvent } from "./new-event.ts";
import type { DomainContext } from "../context.ts";
import { withSellerFields } from "../listings/get-on-sale.ts";
import { readListingRecords } from "../goods/listing-figures.ts";
import { purchaseRecord, sellRecord } from "../trades/list-trades.ts";
import type { TradeRow } from "../trades/settle-trade.ts";
import type { ListingsTable } from "../../storage/schema.ts";
import type { Selectable } from "kysely";

/** A change the triggers wrote (`event_outbox`), in the order it was written. */
export interface OutboxRow {
  seq: number;
  txid: string;
  type: string;
  user_id: number | null;
  goods_id: number | null;
  subject: Record<string, unknown>;
}

type ListingRow = Selectable<ListingsTable>;

/** The columns of a row that JSON holds as text: timestamps. */
function withDates<Row>(subject: Record<string, unknown>, columns: readonly string[]): Row {
  const row: Record<string, unknown> = { ...subject };
  for (const column of columns) {
    const value = row[column];
    if (typeof value === "string") row[column] = new Date(value);
  }
  return row as Row;
}

const LISTING_TO_MARKET: Partial<Record<string, EventType>> = {
  "listing.created": "market.listing_added",
  "listing.repriced": "market.listing_repriced",
  "listing.sold": "market.listing_removed",
  "listing.withdrawn": "market.listing_removed",
};

/**
 * Turns a batch of outbox rows into events, in order, each carrying the record the REST
 * operations answer for its object (docs/design/events.md#the-record-carried): a listing as `sell_order/on_sale`
 * answers it (and, for the market's book, as `goods/sell_order` does), a trade as its buyer's
 * `purchase/orders/list` and its seller's `sell_order/history` answer it (one event each), a buy
 * order as `buy_order/list` does (and, for the goods' public book, as `goods/buy_order` does),
 * balances as `balance` does. Several balance changes of one user
 * in one transaction are one event, with the balances the transaction left: a purchase moves money
 * from one account to another in two statements, and the step between is no state anyone had.
 */
export async function formatEvents(ctx: DomainContext, batch: readonly OutboxRow[]): Promise<NewEvent[]> {
  const rows = inIdOrder(batch);
  const lastBalance = new Map<string, number>();
  rows.forEach((row, index) => {
    if (row.type === "balance.changed") lastBalance.set(`${row.txid}:${row.user_id}`, index);
  });
  const listingRows = rows.filter((row) => row.type.startsWith("listing."));
  const listings = listingRows.map((row) =>
    withDates<ListingRow>(row.subject, ["created_at", "updated_at", "tradable_after"]),
  );
  // The public record (the book's, as `goods/sell_order` answers it) and the seller's own.
  const records = await readListingRecords(ctx, listings);
  const listingRecords = new Map(listingRows.map((row, index) => [row.seq, records[index]!]));
  const orderRows = rows.filter(
    (row) => row.type.startsWith("buy_order.") && row.type !== "buy_order.status_changed",
  );
  const orders = orderRows.map((row) => withDates<BuyOrderRow>(row.subject, ["created_at", "updated_at"]));
  const orderRecords = await toBuyOrderRecords(ctx, orders);
  const orderRecordOf = new Map(orderRows.map((row, index) => [row.seq, orderRecords[index]!]));
  const bookEventOf = await bookEventsOf(
    ctx,
    orderRows.map((row, index) => ({ seq: row.seq, type: row.type, order: orders[index]! })),
  );

  const events: NewEvent[] = [];
  rows.forEach((row, index) => {
    const type = row.type as EventType;
    if (type.startsWith("listing.")) {
      const { listing, record } = listingRecords.get(row.seq)!;
      events.push({
        type,
        user_id: row.user_id,
        goods_id: row.goods_id,
        data: withSellerFields(listing, record),
      });
      const marketType = LISTING_TO_MARKET[type];
      if (marketType) events.push({ type: marketType, user_id: null, goods_id: row.goods_id, data: record });
    } else if (type.startsWith("trade.")) {
      const trade = withDates<TradeRow>(row.subject, ["created_at", "updated_at", "deliver_by"]);
      events.push({ type, user_id: trade.buyer_id, goods_id: trade.goods_id, data: purchaseRecord(trade) });
      events.push({ type, user_id: trade.seller_id, goods_id: trade.goods_id, data: sellRecord(trade) });
    } else if (type === "balance.changed") {
      if (lastBalance.get(`${row.txid}:${row.user_id}`) !== index) return;
      const kinds = row.subject as Partial<Record<string, number>>;
      events.push({
        type,
        user_id: row.user_id,
        goods_id: null,
        data: {
          market_balance: formatMoney(kinds.balance ?? 0),
          margin_balance: formatMoney(kinds.margin ?? 0),
          wallet_balance: formatMoney(kinds.wallet ?? 0),
          frozen_amount: formatMoney(kinds.escrow ?? 0),
        },
      });
    } else if (orderRecordOf.has(row.seq)) {
      events.push({ type, user_id: row.user_id, goods_id: row.goods_id, data: orderRecordOf.get(row.seq) });
      const book = bookEventOf.get(row.seq);
      if (book) events.push(book);
    } else {
      events.push({ type, user_id: row.user_id, goods_id: row.goods_id, data: row.subject });
    }
  });
  return events;
}

/**
 * The id a run of rows of one type is put in order by: one statement that writes several rows (a
 * journal entry's lines over several users' accounts, a withdrawal of several listings) writes
 * them, and its triggers fire, in the table's physical order, which differs between two databases
 * holding the same data (where earlier updates left each row).
 */
function orderKey(row: OutboxRow): number | undefined {
  if (row.type === "balance.changed") return row.user_id ?? 0;
  const subject = row.subject as { trade_id?: number; listing_id?: number; buy_order_id?: number };
  if (row.type.startsWith("trade.")) return subject.trade_id;
  if (row.type.startsWith("listing.")) return subject.listing_id;
  if (row.type.startsWith("buy_order.")) return subject.buy_order_id;
  return undefined;
}

/**
 * `rows` with each run of rows of one type that follow one another in their transaction put in
 * order of their object's id (`orderKey`; a balance change's: its user's), so that the same changes
 * give the same events in the same order (a replayed simulation, docs/design/simulation.md#scenarios). The order within a
 * run is no order anyone saw: the run's rows were written by one transaction, committed together.
 */
function inIdOrder(rows: readonly OutboxRow[]): OutboxRow[] {
  const ordered = [...rows];
  const byTransaction = new Map<string, number[]>();
  rows.forEach((row, index) => {
    const positions = byTransaction.get(row.txid);
    if (positions) positions.push(index);
    else byTransaction.set(row.txid, [index]);
  });
  for (const positions of byTransaction.values()) {
    for (let start = 0; start < positions.length; start++) {
      const type = rows[positions[start]!]!.type;
      if (orderKey(rows[positions[start]!]!) === undefined) continue;
      let end = start;
      while (end + 1 < positions.length && rows[positions[end + 1]!]!.type === type) end++;
      const run = positions.slice(start, end + 1);
      const sorted = run
        .map((position) => rows[position]!)
        .sort((a, b) => (orderKey(a) ?? 0) - (orderKey(b) ?? 0));
      run.forEach((position, index) => (ordered[position] = sorted[index]!));
      start = end;
    }
  }
  return ordered;
}
