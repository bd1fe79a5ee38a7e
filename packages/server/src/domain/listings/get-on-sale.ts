import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { parsePriceRange } from "../market/price-range.ts";
import { readListingRecords, type RecordedListing } from "../goods/listing-figures.ts";
import { searchGoods } from "./search-goods.ts";
import { fail, invalidArgument, ok } from "../result.ts";

export interface OnSaleQuery {
  platformid?: string;
  minPrice?: unknown;
  maxPrice?: unknown;
  minPaintwear?: number;
  maxPaintwear?: number;
  search?: string;
  sortBy: string;
  pageNum: number;
  pageSize: number;
}

/**
 * The caller's listings on sale (reference: sell_order/on_sale), filtered, sorted and paginated in
 * SQL on the seller indexes. `float.*` is the reference's second name for `paintwear.*`.
 */
export async function getOnSale(ctx: DomainContext, query: OnSaleQuery) {
  const page = await readOnSalePage(ctx, query);
  if (!page.ok) return page;
  const { rows, totalCount } = page.value;
  return ok({
    code: 0 as const,
    data: {
      items: await toOnSaleRecords(ctx, rows),
      total_count: totalCount,
      page_num: query.pageNum,
      page_size: query.pageSize,
      total_page: Math.ceil(totalCount / query.pageSize),
    },
  });
}

/** Listing rows as the seller's `sell_order/on_sale` answers them (and the listing events carry). */
export async function toOnSaleRecords<Listing extends RecordedListing & OnSaleColumns>(
  ctx: DomainContext,
  rows: readonly Listing[],
) {
  const records = await readListingRecords(ctx, rows);
  return records.map(({ listing, record }) => withSellerFields(listing, record));
}

/**
 * A listing's public record (as `goods/sell_order` answers it) with the fields only its seller
 * sees, as `sell_order/on_sale` answers it.
 */
export function withSellerFields<Record extends object>(row: OnSaleColumns, record: Record) {
  return {
    ...record,
    can_bargain: row.allow_bargain,
    can_bargain_swap: false,
    cannot_bargain_reason: row.allow_bargain ? "" : "the seller does not accept offers",
    description: row.description,
  };
}

interface OnSaleColumns {
  allow_bargain: boolean;
  description: string;
}

/**
 * One page of the caller's listings on sale and how many match: the rows behind both the official
 * `sell_order/on_sale` and the website's.
 */
export async function readOnSalePage(ctx: DomainContext, query: OnSaleQuery) {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const range = parsePriceRange(query.minPrice, query.maxPrice);
  if (!range.ok) return range;
  const bounds = range.value;
  if (
    query.minPaintwear !== undefined &&
    query.maxPaintwear !== undefined &&
    query.minPaintwear > query.maxPaintwear
  ) {
    return invalidArgument("min_paintwear", "must not be greater than max_paintwear");
  }
  // `state` is a literal so that even a prepared statement's generic plan reads the partial
  // seller indexes (migration 0012), which also hold every filtered column: counting reads no row.
  let base = ctx.db
    .selectFrom("listings")
    .where("listings.user_id", "=", ctx.actor.userId)
    .where("listings.state", "=", sql.lit("ON_SALE"));
  if (query.platformid) base = base.where("listings.platformid", "=", query.platformid);
  if (bounds.min !== undefined) base = base.where("listings.price", ">=", bounds.min);
  if (bounds.max !== undefined) base = base.where("listings.price", "<=", bounds.max);
  if (query.minPaintwear !== undefined)
    base = base.where("listings.paintwear", ">=", String(query.minPaintwear));
  if (query.maxPaintwear !== undefined)
    base = base.where("listings.paintwear", "<=", String(query.maxPaintwear));
  if (query.search?.trim()) {
    const goodsIds = await searchGoods(ctx, query.search);
    // A set to join, not `= any(array)`: a parameter array is searched element by element.
    base = base.where(sql<boolean>`listings.goods_id IN (SELECT unnest(${goodsIds}::integer[]))`);
  }
  const { total } = await base.select((eb) => eb.fn.countAll<string>().as("total")).executeTakeFirstOrThrow();
  const [field, direction] = query.sortBy.split(".") as [string, "asc" | "desc"];
  // Items without wear sort last either way; price and update time are never null, so their
  // order is the plain direction an index is read in.
  const order =
    field === "price"
      ? sql`listings.price ${sql.raw(direction)}`
      : field === "updated"
        ? sql`listings.updated_at ${sql.raw(direction)}`
        : sql`listings.paintwear ${sql.raw(direction)} nulls last`;
  // The page is chosen inside the index (it holds the sort key and every filtered column), and
  // only its rows are read from the table.
  const page = base
    .select("listings.listing_id")
    .orderBy(order)
    .orderBy("listings.listing_id", direction)
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize);
  const rows = await ctx.db
    .selectFrom("listings")
    .selectAll()
    .where("listings.listing_id", "in", page)
    .orderBy(order)
    .orderBy("listings.listing_id", direction)
    .execute();
  return ok({ rows, totalCount: Number(total) });
}
