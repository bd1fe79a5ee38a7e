import {
  formatMoney,
  RECORD_GAME,
  WEB_PAY_METHOD_CODES,
  WEB_PAY_METHOD_TEXTS,
  type AssetInfo,
} from "@skinmarket/contract";
import type { Selectable } from "kysely";
import type { CookieState, TradesTable } from "../../storage/schema.ts";
import { toUnixSeconds } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import { CANCEL_AFTER_MS, waitingSince } from "./cancel-purchase-orders.ts";

/**
 * A trade with its listing's cooldown end and the state of each party's stored platform cookies
 * (null: none stored, or the account is no longer bound): what a bill order record is built from.
 */
export type BillOrderRow = Selectable<TradesTable> & {
  tradable_after: Date | null;
  buyer_cookie_state: CookieState | null;
  seller_cookie_state: CookieState | null;
};

const STATE_TEXT: Record<string, string> = {
  PAYING: "支付中",
  SELLER_TO_SEND_OFFER: "等待卖家发送报价",
  TRADING: "交易中",
  SUCCESS: "交易成功",
  FAIL: "交易失败",
};

/**
 * The trades, their listings' cooldown ends and both parties' cookie states, as one query the
 * bill-order readers narrow.
 */
export function billOrderRows(ctx: DomainContext) {
  return ctx.db
    .selectFrom("trades")
    .innerJoin("listings", "listings.listing_id", "trades.listing_id")
    .leftJoin(
      "bound_platform_accounts as buyer_account",
      "buyer_account.platformid",
      "trades.buyer_platformid",
    )
    .leftJoin(
      "bound_platform_accounts as seller_account",
      "seller_account.platformid",
      "trades.seller_platformid",
    )
    .selectAll("trades")
    .select([
      "listings.tradable_after",
      "buyer_account.cookie_state as buyer_cookie_state",
      "seller_account.cookie_state as seller_cookie_state",
    ]);
}

/**
 * Cookies the platform stopped accepting (`expired` or `invalid`, as the cookie check marks them):
 * the party must upload new ones before an offer can be sent for it. None stored is not invalid.
 */
function cookiesInvalid(state: CookieState | null): boolean {
  return state !== null && state !== "valid";
}

function secondsUntil(moment: Date | null, now: Date): number {
  return moment === null ? 0 : Math.max(0, Math.ceil((moment.getTime() - now.getTime()) / 1000));
}

/**
 * A trade as the website's bill order (`goods/buy`, `bill_order/batch/info`, `buy_order/history`;
 * docs/design/website-buying-routes.md#the-websites-buying-routes): the fields real tools read, each from the trade. `mode` is 1 and
 * `is_seller_asked_to_send_offer` true while the seller sends the offer, 2 and false while the
 * buyer does (the listings' `mode` codes); the time left to send it is `deliver_expire_timeout`
 * or `buyer_send_offer_timeout` accordingly; `tradeofferid` is null until an offer is out, as
 * tools test.
 */
export function toWebBillOrder(trade: BillOrderRow, now: Date) {
  const asset = trade.asset as AssetInfo;
  const cooling = trade.tradable_after !== null && trade.tradable_after > now;
  const days = cooling ? Math.ceil((trade.tradable_after!.getTime() - now.getTime()) / 86_400_000) : 0;
  const paidByCard = trade.pay_method === "bankcard";
  const sellerSends = trade.offer_sender === "seller";
  const waiting = trade.state === "SELLER_TO_SEND_OFFER";
  return {
    id: String(trade.trade_id),
    appid: 730,
    game: RECORD_GAME,
    goods_id: trade.goods_id,
    sell_order_id: String(trade.listing_id),
    buyer_id: String(trade.buyer_id),
    seller_id: String(trade.seller_id),
    price: formatMoney(trade.price),
    price_with_pay_fee: formatMoney(trade.price),
    original_price: null,
    fee: formatMoney(trade.fee),
    income: formatMoney(trade.price - trade.fee),
    pay_method: WEB_PAY_METHOD_CODES[trade.pay_method],
    pay_method_text: WEB_PAY_METHOD_TEXTS[trade.pay_method],
    buyer_pay_time: paidByCard && trade.state === "PAYING" ? 0 : toUnixSeconds(trade.created_at),
    pay_expire_timeout: 0,
    state: trade.state,
    state_text: STATE_TEXT[trade.state]!,
    error_text: trade.rollback_by,
    // 1: a listing bought; 2: a buy order filled (docs/design/purchases-and-trades.md#purchases-and-trades).
    type: trade.buy_order_id === null ? 1 : 2,
    mode: sellerSends ? 1 : 2,
    is_seller_asked_to_send_offer: sellerSends,
    has_sent_offer: trade.tradeofferid !== null,
    tradeofferid: trade.tradeofferid === null ? null : String(trade.tradeofferid),
    trade_offer_url: null,
    trade_offer_trace_url: null,
    deliver_expire_timeout: waiting && sellerSends ? secondsUntil(trade.deliver_by, now) : 0,
    buyer_send_offer_timeout: waiting && !sellerSends ? secondsUntil(trade.deliver_by, now) : 0,
    // Seconds until the buyer may cancel a purchase still waiting for its offer (0: now).
    buyer_cancel_timeout: waiting
      ? Math.max(0, Math.ceil((waitingSince(trade) + CANCEL_AFTER_MS - now.getTime()) / 1000))
      : null,
    seller_can_cancel: false,
    has_bargain: false,
    buyer_cookie_invalid: cookiesInvalid(trade.buyer_cookie_state),
    seller_cookie_invalid: cookiesInvalid(trade.seller_cookie_state),
    transact_time: trade.state === "SUCCESS" ? toUnixSeconds(trade.updated_at) : null,
    created_at: toUnixSeconds(trade.created_at),
    updated_at: toUnixSeconds(trade.updated_at),
    asset_info: {
      ...asset,
      appid: 730,
      action_link: asset.info.inspect_info.inspect_url ?? "",
      has_tradable_cooldown: cooling,
      tradable_cooldown_text: cooling ? `${days}天后可交易` : "",
      tradable_unfrozen_time: cooling ? toUnixSeconds(trade.tradable_after!) : null,
    },
  };
}
