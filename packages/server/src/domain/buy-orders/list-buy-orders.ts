import type { BuyOrderState } from "../../storage/schema.ts";
import type { DomainContext } from "../context.ts";
import { fail, invalidArgument, ok } from "../result.ts";
import { readWebGoodsInfos } from "../goods/web-goods-infos.ts";
import { toBuyOrderRecords } from "./buy-order-record.ts";

export interface BuyOrderListQuery {
  orderState?: BuyOrderState;
  startTime?: number;
  endTime?: number;
  platformid?: string;
  pageNum: number;
  pageSize: number;
}

/** The caller's buy orders, newest first (reference: GET buy_order). */
export async function listBuyOrders(ctx: DomainContext, query: BuyOrderListQuery) {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  if (query.startTime !== undefined && query.endTime !== undefined && query.startTime > query.endTime)
    return invalidArgument("start_time", "must not be after end_time");
  let base = ctx.db.selectFrom("buy_orders").where("user_id", "=", ctx.actor.userId);
  if (query.orderState !== undefined) base = base.where("state", "=", query.orderState);
  if (query.startTime !== undefined) base = base.where("created_at", ">=", new Date(query.startTime * 1000));
  if (query.endTime !== undefined) base = base.where("created_at", "<=", new Date(query.endTime * 1000));
  if (query.platformid !== undefined) base = base.where("platformid", "=", query.platformid);
  const { total } = await base.select((eb) => eb.fn.countAll<string>().as("total")).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("buy_order_id", "desc")
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  const totalCount = Number(total);
  return ok({
    items: await toBuyOrderRecords(ctx, rows),
    page_num: query.pageNum,
    page_size: query.pageSize,
    total_count: totalCount,
    total_page: Math.ceil(totalCount / query.pageSize),
  });
}

/**
 * The signed-in user's buy orders still in progress as the website lists them
 * (`buy_order/wait_supply`): the official list's page with the goods it names in `goods_infos`,
 * so the page shows names rather than ids.
 */
export async function listWebBuyOrderPage(ctx: DomainContext, query: { pageNum: number; pageSize: number }) {
  const page = await listBuyOrders(ctx, { ...query, orderState: "progressing" });
  if (!page.ok) return page;
  const goods = await readWebGoodsInfos(
    ctx,
    page.value.items.map((order) => order.goods_id),
  );
  return ok({ ...page.value, goods_infos: goods.infos });
}
