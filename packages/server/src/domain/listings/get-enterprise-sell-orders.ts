import {
  PAINTWEAR_INTERVALS,
  type ENTERPRISE_SELL_ORDER_SORTS,
  type SELLER_PAY_METHODS,
} from "@skinmarket/contract";
import { sql } from "kysely";
import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok } from "../result.ts";
import { readListingRecords } from "../goods/listing-figures.ts";

export interface EnterpriseSellOrdersQuery {
  marketHashName: string;
  minPaintwear?: number;
  maxPaintwear?: number;
  paintseed?: number;
  paintindex?: number;
  sortBy: (typeof ENTERPRISE_SELL_ORDER_SORTS)[number];
  pageNum: number;
  pageSize: number;
  payMethod?: (typeof SELLER_PAY_METHODS)[number];
}

/** The listing flag each seller pay-method filter asks for. */
const PAY_METHOD_FLAGS = {
  epay: "allow_epay",
  wallet: "allow_wallet_zft",
  pending_divide_balance: "allow_pending_divide_balance",
} as const;

/**
 * Each sort reads one partial index of listings on sale in its order (migration 0012); equal keys
 * go by listing id in the same direction, so the index is read forwards or backwards, never sorted.
 */
const SORT_COLUMNS = { price: "price", paintwear: "paintwear", created: "created_at" } as const;

const INTERVAL_LIST = PAINTWEAR_INTERVALS.map(([min, max]) => `${min}-${max}`).join(", ");

/**
 * The listings on sale of one goods (reference: GET /api/market/enterprise/goods/sell_order).
 * Only listings a buyer can take now are shown: pre-sell listings (items still in trade cooldown)
 * are left out, as they are from `min_price` and from purchases. Paint wear is filtered by one of
 * the reference's fixed closed intervals only.
 */
export async function getEnterpriseSellOrders(ctx: DomainContext, query: EnterpriseSellOrdersQuery) {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  const interval = fixedInterval(query.minPaintwear, query.maxPaintwear);
  if (!interval.ok) return interval;
  const goods = await ctx.db
    .selectFrom("goods")
    .select("goods_id")
    .where("market_hash_name", "=", query.marketHashName)
    .executeTakeFirst();
  if (!goods) return invalidArgument("market_hash_name", "no such goods in the catalog");

  const now = ctx.clock.now();
  let base = ctx.db
    .selectFrom("listings")
    .where("goods_id", "=", goods.goods_id)
    .where("state", "=", sql.lit("ON_SALE"))
    .where((eb) => eb.or([eb("tradable_after", "is", null), eb("tradable_after", "<=", now)]));
  if (interval.value) {
    base = base.where("paintwear", ">=", interval.value[0]).where("paintwear", "<=", interval.value[1]);
  }
  if (query.paintseed !== undefined) base = base.where("paintseed", "=", query.paintseed);
  if (query.paintindex !== undefined) base = base.where("paintindex", "=", query.paintindex);
  if (query.payMethod !== undefined) base = base.where(PAY_METHOD_FLAGS[query.payMethod], "=", sql.lit(true));

  const { total } = await base.select((eb) => eb.fn.countAll<string>().as("total")).executeTakeFirstOrThrow();
  const totalCount = Number(total);
  const offset = (query.pageNum - 1) * query.pageSize;
  const [field, direction] = query.sortBy.split(".") as [keyof typeof SORT_COLUMNS, "asc" | "desc"];
  // The page is chosen inside an index (each carries every filtered and sorted column), then only
  // its rows are read from the table.
  const page = base
    .select("listing_id")
    .orderBy(SORT_COLUMNS[field], direction)
    .orderBy("listing_id", direction)
    .limit(query.pageSize)
    .offset(offset);
  const rows =
    offset >= totalCount
      ? []
      : await ctx.db
          .selectFrom("listings")
          .select([
            "listing_id",
            "user_id",
            "goods_id",
            "price",
            "asset",
            "allow_wallet_zft",
            "allow_epay",
            "allow_pending_divide_balance",
            "force_buyer_send_offer",
          ])
          .where("listing_id", "in", page)
          .orderBy(SORT_COLUMNS[field], direction)
          .orderBy("listing_id", direction)
          .execute();

  const records = await readListingRecords(ctx, rows);
  return ok({
    items: records.map(({ record }) => record),
    page_num: query.pageNum,
    page_size: query.pageSize,
    total_count: totalCount,
    total_page: Math.ceil(totalCount / query.pageSize),
  });
}

/** `min_paintwear` and `max_paintwear` together name one fixed interval, or neither is given. */
function fixedInterval(min: number | undefined, max: number | undefined) {
  if (min === undefined && max === undefined) return ok(undefined);
  if (min === undefined) return invalidArgument("min_paintwear", "required with max_paintwear");
  if (max === undefined) return invalidArgument("max_paintwear", "required with min_paintwear");
  const found = PAINTWEAR_INTERVALS.find(([low, high]) => Number(low) === min && Number(high) === max);
  if (!found)
    return invalidArgument(
      "min_paintwear",
      `min_paintwear and max_paintwear must be one of the fixed intervals ${INTERVAL_LIST}`,
    );
  return ok(found);
}
