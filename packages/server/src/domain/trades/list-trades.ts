import { formatMoney, RECORD_GAME, type AssetInfo } from "@skinmarket/contract";
import type { DomainContext } from "../context.ts";
import { toUnixSeconds } from "../clock.ts";
import { fail, invalidArgument, ok } from "../result.ts";
import type { TradeRow } from "./settle-trade.ts";

export interface TradeListQuery {
  pageNum: number;
  pageSize: number;
  state?: string;
  goodsId?: number;
  startTime?: number;
  endTime?: number;
}

const STATE_TEXT: Record<string, string> = {
  PAYING: "支付中",
  SELLER_TO_SEND_OFFER: "等待卖家发送报价",
  TRADING: "交易中",
  SUCCESS: "交易成功",
  FAIL: "交易失败",
};

/** Buyer-facing state: every in-flight state is `PAYING` (docs/design/purchases-and-trades.md#the-trade-lifecycle). */
function buyerState(state: string): "PAYING" | "SUCCESS" | "FAIL" {
  return state === "SUCCESS" || state === "FAIL" ? state : "PAYING";
}

function offerStatus(trade: TradeRow): string | undefined {
  if (trade.state === "SUCCESS") return "success";
  if (trade.state === "TRADING") return "trading";
  return undefined;
}

/** The buyer's purchase orders (purchase/orders/list). */
export function listPurchaseOrders(ctx: DomainContext, query: TradeListQuery) {
  return listTrades(ctx, "buyer", query, purchaseRecord);
}

/** The seller's sales in any state (sell_order/history). */
export function listSellOrderHistory(ctx: DomainContext, query: TradeListQuery) {
  return listTrades(ctx, "seller", query, sellRecord);
}

async function listTrades<Item>(
  ctx: DomainContext,
  side: "buyer" | "seller",
  query: TradeListQuery,
  toRecord: (trade: TradeRow) => Item,
) {
  if (ctx.actor.kind !== "user") return fail("Unauthorized", "a user token is required");
  if (query.startTime !== undefined && query.endTime !== undefined && query.startTime > query.endTime) {
    return invalidArgument("start_time", "must not be after end_time");
  }
  let base = ctx.db
    .selectFrom("trades")
    .where(side === "buyer" ? "buyer_id" : "seller_id", "=", ctx.actor.userId);
  if (query.state !== undefined) {
    base =
      side === "buyer" && query.state === "PAYING"
        ? base.where("state", "in", ["PAYING", "SELLER_TO_SEND_OFFER", "TRADING"])
        : base.where("state", "=", query.state as TradeRow["state"]);
  }
  if (query.goodsId !== undefined) base = base.where("goods_id", "=", query.goodsId);
  if (query.startTime !== undefined) base = base.where("created_at", ">=", new Date(query.startTime * 1000));
  if (query.endTime !== undefined) base = base.where("created_at", "<=", new Date(query.endTime * 1000));
  const { total } = await base.select((eb) => eb.fn.countAll<string>().as("total")).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("trade_id", "desc")
    .limit(query.pageSize)
    .offset((query.pageNum - 1) * query.pageSize)
    .execute();
  const totalCount = Number(total);
  const items = rows.map(toRecord);
  return ok({
    items,
    page_num: query.pageNum,
    page_size: query.pageSize,
    total_count: totalCount,
    total_page: Math.ceil(totalCount / query.pageSize),
  });
}

function common(trade: TradeRow) {
  const status = offerStatus(trade);
  return {
    id: String(trade.trade_id),
    asset_info: trade.asset as AssetInfo,
    created_at: toUnixSeconds(trade.created_at),
    updated_at: toUnixSeconds(trade.updated_at),
    fee: formatMoney(trade.fee),
    game: RECORD_GAME,
    goods_id: trade.goods_id,
    price: formatMoney(trade.price),
    seller_send_offer: true,
    // 1: a listing bought; 2: a buy order filled (docs/design/purchases-and-trades.md#purchases-and-trades).
    type: trade.buy_order_id === null ? 1 : 2,
    ...(trade.tradeofferid !== null ? { tradeofferid: String(trade.tradeofferid) } : {}),
    ...(status !== undefined ? { trade_offer_status: status } : {}),
  };
}

/** A trade as its buyer sees it (the purchase order record). */
export function purchaseRecord(trade: TradeRow) {
  const state = buyerState(trade.state);
  return {
    ...common(trade),
    ...(trade.buy_order_id !== null ? { buy_order_id: String(trade.buy_order_id) } : {}),
    buyer_platformid: trade.buyer_platformid,
    state,
    state_text: STATE_TEXT[state]!,
  };
}

/** A trade as its seller sees it (the sell order history record). */
export function sellRecord(trade: TradeRow) {
  return {
    ...common(trade),
    sell_order_id: String(trade.listing_id),
    seller_platformid: trade.seller_platformid,
    state: trade.state,
    state_text: STATE_TEXT[trade.state]!,
    trade_offer_status: offerStatus(trade) ?? (trade.state === "FAIL" ? "failed" : "none"),
    tradeofferid: trade.tradeofferid === null ? "" : String(trade.tradeofferid),
    rollback_by: trade.rollback_by ?? "",
  };
}
