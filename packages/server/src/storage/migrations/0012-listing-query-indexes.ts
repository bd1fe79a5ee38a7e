import { sql, type Kysely } from "kysely";

/**
 * Indexes for the listing queries (docs/design/performance.md#the-listing-queries: over 1,000,000 listings every
 * variant reads an index, p99 at most 20 ms). Each is partial on listings on sale (the queries
 * write `state = 'ON_SALE'` as a literal) and ends in the listing id, so that a page in either
 * direction is a forward or backward read with no sort step. Every other column the queries
 * filter or sort by is carried in the index (INCLUDE): counting the matches (`total_count`) and
 * choosing a page are index-only scans, and only the page's rows are read from the table, even
 * for a goods with 30,000 listings and a filter that keeps few of them.
 * - One goods (enterprise goods/sell_order): price sorts read the market index (which purchases
 *   read too); paint wear (a sort or a fixed interval), creation time, paint seed and paint
 *   index have their own. Pre-sell listings are told apart by `tradable_after`.
 * - One seller (sell_order/on_sale): update time, price and paint wear, each after the seller;
 *   paint wear twice, as "items without wear last" is not one index order in both directions.
 * - A seller's delivery record (`recent_deliver_rate`, `recent_average_duration`): their
 *   finished sales by sale time.
 */
/** Every column a per-goods query reads besides the keys: filters, and the other sort keys. */
const GOODS_COLUMNS = [
  "price",
  "paintwear",
  "created_at",
  "paintseed",
  "paintindex",
  "tradable_after",
  "allow_epay",
  "allow_wallet_zft",
  "allow_pending_divide_balance",
];
const SELLER_FILTERS = "platformid, goods_id";

/** A per-goods index: its keys, then every other column the queries read. */
function goodsIndex(keys: string[]): string {
  const carried = GOODS_COLUMNS.filter((column) => !keys.includes(column));
  return `listings (goods_id, ${keys.join(", ")}, listing_id) INCLUDE (${carried.join(", ")}) WHERE state = 'ON_SALE'`;
}

const INDEXES: Record<string, string> = {
  listings_market_idx: goodsIndex(["price"]),
  listings_goods_paintwear_idx: goodsIndex(["paintwear"]),
  listings_goods_created_idx: goodsIndex(["created_at"]),
  listings_goods_paintseed_idx: goodsIndex(["paintseed", "price"]),
  listings_goods_paintindex_idx: goodsIndex(["paintindex", "price"]),
  listings_seller_updated_idx: `listings (user_id, updated_at, listing_id) INCLUDE (price, paintwear, ${SELLER_FILTERS}) WHERE state = 'ON_SALE'`,
  listings_seller_price_idx: `listings (user_id, price, listing_id) INCLUDE (paintwear, ${SELLER_FILTERS}) WHERE state = 'ON_SALE'`,
  listings_seller_paintwear_idx: `listings (user_id, paintwear, listing_id) INCLUDE (price, ${SELLER_FILTERS}) WHERE state = 'ON_SALE'`,
  listings_seller_paintwear_desc_idx: `listings (user_id, paintwear DESC NULLS LAST, listing_id DESC) INCLUDE (price, ${SELLER_FILTERS}) WHERE state = 'ON_SALE'`,
  trades_seller_record_idx: `trades (seller_id, created_at) INCLUDE (state, rollback_by, updated_at, deliver_by) WHERE state IN ('SUCCESS', 'FAIL')`,
};

export async function up(db: Kysely<unknown>): Promise<void> {
  // The market index gains the columns of the pre-sell and pay-method filters.
  await sql`DROP INDEX listings_market_idx`.execute(db);
  for (const [name, definition] of Object.entries(INDEXES))
    await sql.raw(`CREATE INDEX ${name} ON ${definition}`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of Object.keys(INDEXES)) await sql.raw(`DROP INDEX ${name}`).execute(db);
  await sql`CREATE INDEX listings_market_idx ON listings (goods_id, price, listing_id) WHERE state = 'ON_SALE'`.execute(
    db,
  );
}
