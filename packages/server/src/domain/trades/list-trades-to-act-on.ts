import { RECORD_GAME, type AssetInfo } from "@skinmarket/contract";
import type { ExpressionBuilder } from "kysely";
import type { Database } from "../../storage/schema.ts";
import { tradeOfferUrlOf } from "../platform/trade-url.ts";
import { toUnixSeconds } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import { readMarketFigures } from "../goods/goods-page-figures.ts";
import { toWebGoodsInfo } from "../goods/list-goods-sell-orders.ts";
import { fail, ok } from "../result.ts";
import { offerMessage } from "./send-trade-offer.ts";
import type { TradeRow } from "./settle-trade.ts";

/**
 * At most this many entries, the oldest first: the real route is not paged, and a seller whose
 * buy-order book filled thousands of units at once still gets a bounded answer; the rest follow as
 * the first are dealt with, and `message/notification` counts them all.
 */
export const TRADES_TO_ACT_ON_LIMIT = 200;

/**
 * The sales a seller has still to deliver: the offer is to be sent (`SELLER_TO_SEND_OFFER`, by
 * either party) or is out and unanswered (`TRADING`). `sell_order/to_deliver` lists exactly these
 * and `message/notification`'s `to_deliver_order` counts them.
 */
export function sellerDeliveryPending(eb: ExpressionBuilder<Database, "trades">, userId: number) {
  return eb.and([
    eb("trades.seller_id", "=", userId),
    eb("trades.state", "in", ["SELLER_TO_SEND_OFFER", "TRADING"]),
  ]);
}

/** The trades whose offer the user must send now: as seller, or as a buyer who sends it. */
export function offerToSend(eb: ExpressionBuilder<Database, "trades">, userId: number) {
  return eb.and([
    eb("trades.state", "=", "SELLER_TO_SEND_OFFER"),
    eb.or([
      eb.and([eb("trades.seller_id", "=", userId), eb("trades.offer_sender", "=", "seller")]),
      eb.and([eb("trades.buyer_id", "=", userId), eb("trades.offer_sender", "=", "buyer")]),
    ]),
  ]);
}

/** The offers out that wait for the user's answer: the seller's to a buyer, a buyer's to a seller. */
export function offerToAnswer(eb: ExpressionBuilder<Database, "trades">, userId: number) {
  return eb.and([
    eb("trades.state", "=", "TRADING"),
    eb.or([
      eb.and([eb("trades.buyer_id", "=", userId), eb("trades.offer_sender", "=", "seller")]),
      eb.and([eb("trades.seller_id", "=", userId), eb("trades.offer_sender", "=", "buyer")]),
    ]),
  ]);
}

/** What a buyer must act on: an offer to send, or the seller's offer to answer. */
function buyerToAct(eb: ExpressionBuilder<Database, "trades">, userId: number) {
  return eb.and([
    eb("trades.buyer_id", "=", userId),
    eb.or([offerToSend(eb, userId), offerToAnswer(eb, userId)]),
  ]);
}

const TEXTS = {
  send: { title: "待发送报价", text: "买家已付款，请向买家发送报价" },
  sent: { title: "等待买家接受报价", text: "报价已发送，等待买家接受" },
  awaitBuyer: { title: "等待买家发送报价", text: "买家将发送报价，收到后请接受" },
  acceptBuyers: { title: "请接受买家的报价", text: "买家已发送报价，请接受报价" },
  buyerSend: { title: "请发送报价", text: "请向卖家发送索取饰品的报价" },
  accept: { title: "请接受报价", text: "卖家已发送报价，请接受报价" },
};

function textsOf(asSeller: boolean, offerOut: boolean, sellerSends: boolean) {
  if (asSeller) {
    if (sellerSends) return offerOut ? TEXTS.sent : TEXTS.send;
    return offerOut ? TEXTS.acceptBuyers : TEXTS.awaitBuyer;
  }
  return offerOut ? TEXTS.accept : TEXTS.buyerSend;
}

/**
 * The website's `steam_trade` list (docs/design/website-account-and-selling-routes.md#the-websites-session-and-account-routes): as seller, the sales to deliver
 * (no offer out yet: `state` 0; offer out: `state` 1), `type` 1; as buyer, the offers to send
 * (`state` 0) and the seller's offers to accept (`state` 1), `type` 2. Purchases still being paid,
 * waiting for the seller's offer, or whose own offer waits for the seller ask nothing of the buyer.
 */
export async function listTradesToActOn(ctx: DomainContext) {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const userId = ctx.actor.userId;
  const trades = await ctx.db
    .selectFrom("trades")
    .selectAll()
    .where((eb) => eb.or([sellerDeliveryPending(eb, userId), buyerToAct(eb, userId)]))
    .orderBy("created_at")
    .orderBy("trade_id")
    .limit(TRADES_TO_ACT_ON_LIMIT)
    .execute();
  if (trades.length === 0) return ok([]);
  const goodsIds = [...new Set(trades.map((trade) => trade.goods_id))];
  const otherIds = [...new Set(trades.map((trade) => otherSide(trade, userId)))];
  const [goods, figures, others] = await Promise.all([
    ctx.db.selectFrom("goods").selectAll().where("goods_id", "in", goodsIds).execute(),
    readMarketFigures(ctx, goodsIds),
    ctx.db.selectFrom("users").select(["user_id", "nickname"]).where("user_id", "in", otherIds).execute(),
  ]);
  const goodsInfos = new Map(
    goods.map((row) => [row.goods_id, toWebGoodsInfo(row, figures.get(row.goods_id)!)]),
  );
  const nicknames = new Map(others.map((row) => [row.user_id, row.nickname]));
  const now = ctx.clock.now().getTime();
  return ok(
    trades.map((trade) => {
      const asSeller = trade.seller_id === userId;
      const offerOut = trade.state === "TRADING" && trade.tradeofferid !== null;
      const tradeofferid = offerOut ? String(trade.tradeofferid) : "";
      const texts = textsOf(asSeller, offerOut, trade.offer_sender === "seller");
      return {
        id: String(trade.trade_id),
        appid: 730,
        game: RECORD_GAME,
        type: asSeller ? 1 : 2,
        state: offerOut ? 1 : 0,
        ...texts,
        tradeofferid,
        url: offerOut ? tradeOfferUrlOf(tradeofferid) : "",
        trace_url: "",
        verify_code: offerOut ? offerMessage(trade.trade_id) : "",
        created_at: toUnixSeconds(trade.created_at),
        create_count_up: Math.max(0, Math.floor((now - trade.created_at.getTime()) / 1000)),
        items_to_trade: itemsToTradeOf(trade),
        goods_infos: { [String(trade.goods_id)]: goodsInfos.get(trade.goods_id)! },
        // The other trader, as far as the marketplace knows them: the platform port tells nothing
        // of an account's age or level, and accounts have no avatar.
        bot_name: nicknames.get(otherSide(trade, userId)) ?? "",
        bot_avatar: "",
        bot_age: 0,
        bot_age_icon: "",
        bot_extra_info: "",
        bot_level: 0,
        bot_level_background_color: "",
        bot_level_background_image: null,
        bot_steam_created_at: 0,
      };
    }),
  );
}

/** The sold item as the platform names it, which tools compare with an offer's items. */
export function itemsToTradeOf(trade: TradeRow) {
  const asset = trade.asset as AssetInfo;
  return [
    {
      appid: 730,
      assetid: String(trade.assetid),
      classid: asset.classid,
      contextid: asset.contextid,
      goods_id: trade.goods_id,
      instanceid: asset.instanceid,
    },
  ];
}

function otherSide(trade: TradeRow, userId: number): number {
  return trade.seller_id === userId ? trade.buyer_id : trade.seller_id;
}
