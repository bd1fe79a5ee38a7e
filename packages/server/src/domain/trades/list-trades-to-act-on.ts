import { RECORD_GAME, type AssetInfo } from "@skinmarket/contract";
import type { ExpressionBuilder } from "kysely";
import type { Database } from "../../storage/schema.ts";
import { tradeOfferUrlOf } from "../../platform/trade-url.ts";
import { toUnixSeconds } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import { readMarketFigures } from "../goods/goods-page-figures.ts";
import { toWebGoodsInfo } from "../goods/list-goods-sell-orders.ts";
import { fail, ok } from "../result.ts";
import { offerMessage } from "./send-offer.ts";
import type { TradeRow } from "./settle-trade.ts";

/**
 * At most this many entries, the oldest first: the real route is not paged, and a seller whose
 * buy-order book filled thousands of units at once still gets a bounded answer; the rest follow as
 * the first are dealt with, and `message/notification` counts them all.
 */
export const TRADES_TO_ACT_ON_LIMIT = 200;

/**
 * The sales a seller has still to deliver: the offer is to be sent (`SELLER_TO_SEND_OFFER`) or is
 * out and unanswered (`TRADING`). `message/notification` counts exactly these.
 */
export function sellerDeliveryPending(eb: ExpressionBuilder<Database, "trades">, userId: number) {
  return eb.and([
    eb("trades.seller_id", "=", userId),
    eb("trades.state", "in", ["SELLER_TO_SEND_OFFER", "TRADING"]),
  ]);
}

/** The purchases whose offer is out: the buyer must accept (or decline) it. */
function buyerOfferOut(eb: ExpressionBuilder<Database, "trades">, userId: number) {
  return eb.and([eb("trades.buyer_id", "=", userId), eb("trades.state", "=", "TRADING")]);
}

const TEXTS = {
  send: { title: "待发送报价", text: "买家已付款，请向买家发送报价" },
  sent: { title: "等待买家接受报价", text: "报价已发送，等待买家接受" },
  accept: { title: "请接受报价", text: "卖家已发送报价，请接受报价" },
};

/**
 * The website's `steam_trade` list (docs/design.md section 8): as seller, the sales to deliver
 * (offer to send: `state` 0; offer out: `state` 1), `type` 1; as buyer, the offers to accept,
 * `type` 2. Purchases still being paid or waiting for the seller ask nothing of either side.
 */
export async function listTradesToActOn(ctx: DomainContext) {
  if (ctx.actor.kind !== "user") return fail("Login Required", "sign in first");
  const userId = ctx.actor.userId;
  const trades = await ctx.db
    .selectFrom("trades")
    .selectAll()
    .where((eb) => eb.or([sellerDeliveryPending(eb, userId), buyerOfferOut(eb, userId)]))
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
      const texts = asSeller ? (offerOut ? TEXTS.sent : TEXTS.send) : TEXTS.accept;
      const asset = trade.asset as AssetInfo;
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
        items_to_trade: [
          {
            appid: 730,
            assetid: String(trade.assetid),
            classid: asset.classid,
            contextid: asset.contextid,
            goods_id: trade.goods_id,
            instanceid: asset.instanceid,
          },
        ],
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

function otherSide(trade: TradeRow, userId: number): number {
  return trade.seller_id === userId ? trade.buyer_id : trade.seller_id;
}
