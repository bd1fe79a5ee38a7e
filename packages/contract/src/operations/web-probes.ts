import { Type } from "typebox";
import { InternalOk, MoneyString, RecordGame } from "../common.ts";
import { defineOperation } from "../operation.ts";
import { WebGoodsInfo } from "./web-shapes.ts";

/**
 * The website's session routes that real tools call to learn whether a session is alive and to
 * read the account (docs/design/website-account-and-selling-routes.md#the-websites-session-and-account-routes). Each answers the signed-in user's own state, or the `Login Required` form.
 */

/** One item of a trade offer, as the platform names it (`items_to_trade` entry). */
export const ItemToTrade = Type.Object({
  appid: Type.Integer(),
  assetid: Type.String(),
  classid: Type.String(),
  contextid: Type.Integer(),
  goods_id: Type.Integer(),
  instanceid: Type.String(),
});

/** A trade the signed-in user must act on now: an offer to send, or one to answer. */
export const SteamTrade = Type.Object({
  id: Type.String({ description: "the trade (bill order) id" }),
  appid: Type.Integer(),
  game: RecordGame,
  type: Type.Integer({ description: "1: the user is the seller and delivers; 2: the user is the buyer" }),
  state: Type.Integer({ description: "0: the seller has still to send the offer; 1: an offer is out" }),
  title: Type.String(),
  text: Type.String(),
  tradeofferid: Type.String({ description: "the platform's offer id; empty before the offer is sent" }),
  url: Type.String({ description: "the offer's page on the platform; empty before the offer is sent" }),
  trace_url: Type.String(),
  verify_code: Type.String({ description: "the message the offer carries, to check it by" }),
  created_at: Type.Integer(),
  create_count_up: Type.Integer({ description: "seconds since the trade was created" }),
  items_to_trade: Type.Array(ItemToTrade),
  goods_infos: Type.Record(Type.String(), WebGoodsInfo),
  bot_name: Type.String({ description: "the other trader's nickname" }),
  bot_avatar: Type.String(),
  bot_age: Type.Integer(),
  bot_age_icon: Type.String(),
  bot_extra_info: Type.String(),
  bot_level: Type.Integer(),
  bot_level_background_color: Type.String(),
  bot_level_background_image: Type.Null(),
  bot_steam_created_at: Type.Integer(),
});

/** GET /api/market/steam_trade: the trades the signed-in user must act on now. */
export const getSteamTrades = defineOperation({
  id: "getSteamTrades",
  method: "GET",
  path: "/api/market/steam_trade",
  access: "session",
  envelope: "internal",
  summary:
    "The trades the signed-in user must act on now: offers to send or sent as seller, offers to accept as buyer",
  tags: ["Website"],
  response: Type.Object({
    code: Type.Literal("OK"),
    data: Type.Array(SteamTrade),
    msg: Type.Null(),
  }),
});

/** Counts per game, as the real service keys them. */
const PerGameCount = Type.Object({ csgo: Type.Integer(), dota2: Type.Integer() });

/** The signed-in user's trade counts (docs/design/website-account-and-selling-routes.md#the-websites-session-and-account-routes), as the notification carries them. */
export const NotificationCounts = Type.Object({
  to_deliver_order: Type.Object(PerGameCount.properties, {
    description: "sales still to deliver: offer to send, or out and unanswered (sell_order/to_deliver)",
  }),
  to_send_offer_order: Type.Object(PerGameCount.properties, {
    description: "trades whose offer the user must send now, as seller or as buyer",
  }),
  to_accept_offer_order: Type.Object(PerGameCount.properties, {
    description: "offers out that wait for the user's answer, as buyer or as seller",
  }),
  updated_at: Type.Integer({
    description: "Unix seconds of the last change of the user's trades; 0 without any",
  }),
});

/** GET /api/message/notification: the signed-in user's notification counts. */
export const getNotification = defineOperation({
  id: "getNotification",
  method: "GET",
  path: "/api/message/notification",
  access: "session",
  envelope: "internal",
  summary: "Notification counts of the signed-in user: sales to deliver, offers to send, offers to accept",
  tags: ["Website"],
  response: InternalOk(NotificationCounts.properties),
});

/** GET /api/asset/get_brief_asset: the signed-in user's balances under the real service's names. */
export const getBriefAsset = defineOperation({
  id: "getBriefAsset",
  method: "GET",
  path: "/api/asset/get_brief_asset",
  access: "session",
  envelope: "internal",
  summary: "The signed-in user's balances: marketplace balance, buy-order funds, wallet and money in trades",
  tags: ["Website"],
  response: InternalOk({
    cash_amount: MoneyString,
    cash_amount_outer: MoneyString,
    cash_amount_inner: MoneyString,
    frozen_amount: MoneyString,
    security_amount: MoneyString,
    epay_amount: MoneyString,
    epay_able_withdraw_amount: MoneyString,
    epay_unable_withdraw_amount: MoneyString,
    epay_frozen_amount: MoneyString,
    alipay_amount: MoneyString,
    alipay_able_withdraw_amount: MoneyString,
    alipay_unable_withdraw_amount: MoneyString,
    alipay_frozen_amount: MoneyString,
    pending_divide_amount: MoneyString,
    pending_divide_alipay_amount_total: MoneyString,
    pending_divide_epay_amount_total: MoneyString,
    pending_divide_amount_using: MoneyString,
    pending_divide_epay_amount_enable: MoneyString,
    pending_divide_alipay_amount_enable: MoneyString,
    realname: Type.Boolean(),
    remain_withdraw_counts: Type.Object({
      epay: Type.Integer(),
      alipay: Type.Integer(),
      together: Type.Integer(),
      airwallex: Type.Integer(),
      payoneer: Type.Integer(),
    }),
    has_admin_frozen_asset: Type.Boolean(),
    allow_large_amount_withdraw: Type.Boolean(),
    allow_large_amount_withdraw_new: Type.Boolean(),
    ejzb_auth: Type.Null(),
    alipay_refund_info: Type.Null(),
  }),
});
