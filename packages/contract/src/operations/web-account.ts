import { Type } from "typebox";
import { IdString, InternalOk, Nickname, StrictObject, Text } from "../common.ts";
import { defineOperation } from "../operation.ts";

const SignedInUser = {
  user_id: IdString,
  nickname: Type.String(),
};

/** POST /account/api/login: web sign-in; answers a `session` cookie (docs/design/website-account-and-selling-routes.md#the-websites-session-and-account-routes). */
export const login = defineOperation({
  id: "login",
  method: "POST",
  path: "/account/api/login",
  access: "public",
  envelope: "internal",
  summary: "Signs in with nickname and password and sets the `session` cookie",
  description:
    "Sets the `session` cookie and the `csrf_token` cookie, whose value every website write sends back in the `X-CSRFToken` header.",
  tags: ["Web account"],
  body: StrictObject({
    nickname: Nickname,
    password: Text({ minLength: 1, maxLength: 256 }),
  }),
  response: InternalOk(SignedInUser),
});

/** POST /account/api/logout: ends the current session, if any, and clears the cookie. */
export const logout = defineOperation({
  id: "logout",
  method: "POST",
  path: "/account/api/logout",
  access: "public",
  envelope: "internal",
  summary: "Signs out: ends the session behind the `session` cookie",
  tags: ["Web account"],
  response: InternalOk({}),
});

/** Two flags keyed by game, as the real service keys its per-game settings. */
const PerGameFlag = Type.Object({ csgo: Type.Boolean(), dota2: Type.Boolean() });

/**
 * The signed-in user under the real service's names (docs/design/website-account-and-selling-routes.md#the-websites-session-and-account-routes), with our own fields kept for existing clients.
 */
const SignedInUserInfo = {
  ...SignedInUser,
  access_level: Type.String(),
  buy_order_status: Type.String(),
  created_at: Type.Integer(),
  id: Type.String(),
  avatar: Type.String(),
  mobile: Type.String(),
  steamid: Type.String({ description: "the first bound platform account; empty when none is bound" }),
  trade_url: Type.String(),
  trade_url_state: Type.Integer({ description: "1: the bound account has a trade URL; 0: none" }),
  steam_api_key_state: Type.Integer({ description: "1: setup registered the account's API key; 0: not" }),
  is_need_steam_verify: Type.Boolean(),
  login_from: Type.Integer(),
  is_new: Type.Boolean(),
  is_foreigner: Type.Boolean(),
  nickname_remaining: Type.Integer(),
  can_unbind_steam: Type.Boolean(),
  partner_role_info: Type.Object({}),
  partner_role_detail: Type.Object({}),
  seller_exam_state: Type.Integer(),
  buyer_exam_state: Type.Integer(),
  language: Type.String(),
  steam_price_currency: Type.String(),
  steam_price_currency_desc: Type.String(),
  buff_price_currency: Type.String(),
  buff_price_currency_desc: Type.String(),
  buff_price_currency_symbol: Type.String(),
  buff_price_currency_rate_base_cny: Type.Number(),
  buff_price_currency_rate_base_usd: Type.Number(),
  inventory_price: Type.String(),
  force_buyer_send_offer: Type.Boolean(),
  frozen: Type.Object(
    { trading: Type.Boolean(), withdrawals: Type.Boolean() },
    {
      description:
        "what the marketplace's staff have frozen: trading refuses purchases, listings and buy orders",
    },
  ),
  is_premium: Type.Boolean(),
  allow_purchase_premium: Type.Boolean(),
  allow_multi_steamid: Type.Boolean(),
  allow_nickname_sign: Type.Boolean(),
  allow_epay: Type.Boolean(),
  allow_pubg_recycle: Type.Boolean(),
  allow_comment_push: Type.Boolean(),
  allow_up_push: Type.Boolean(),
  allow_buyer_bargain: Type.Boolean(),
  allow_buyer_bargain_chat: Type.Boolean(),
  allow_shop_display: Type.Boolean(),
  allow_wechat_trade_message: Type.Boolean(),
  allow_price_change_notify: Type.Boolean(),
  allow_sms_notification: Type.Boolean(),
  allow_mail_notification: Type.Boolean(),
  allow_item_recommendation: Type.Boolean(),
  allow_buyer_notify_delivery_by_call: Type.Boolean(),
  allow_bargain_rejected_push: Type.Boolean(),
  allow_deliver_push: Type.Boolean(),
  allow_bargain_chat_message_push: Type.Boolean(),
  allow_auction_push: Type.Boolean(),
  allow_social_comment: Type.Boolean(),
  allow_feedback_new_entry: Type.Boolean(),
  allow_image_search: Type.Boolean(),
  allow_export_bill_order: Type.Boolean(),
  allow_preview_audit: Type.Boolean(),
  allow_preview_recommend: Type.Boolean(),
  allow_csgo_trade_up: Type.Boolean(),
  allow_csgo_trade_up_community: Type.Boolean(),
  allow_auto_remark: Type.Boolean(),
  show_leaderboard: PerGameFlag,
  show_leaderboard_v2: PerGameFlag,
  show_steam_asset_remark: PerGameFlag,
  show_steam_asset_buy_price: PerGameFlag,
};

/** GET /account/api/user/info: the signed-in user, or the `Login Required` form. */
export const getUserInfo = defineOperation({
  id: "getUserInfo",
  method: "GET",
  path: "/account/api/user/info",
  access: "session",
  envelope: "internal",
  summary: "The signed-in user, with the bound platform account and the account's settings",
  tags: ["Web account"],
  response: InternalOk(SignedInUserInfo),
});
