import { toUnixSeconds } from "../clock.ts";
import type { DomainContext } from "../context.ts";
import type { SessionUser } from "../sessions/resolve-session.ts";

const NO_GAME = { csgo: false, dota2: false };

/**
 * The signed-in user as the real website's `user/info` shows it (docs/design/website-account-and-selling-routes.md#the-websites-session-and-account-routes), our own
 * fields (`user_id`, `access_level`, `buy_order_status`, `created_at`) kept beside. `steamid` is the
 * first platform account bound to the user, with its trade URL and whether setup registered its
 * API key. Services this marketplace does not run (phone, avatars, premium, pushes, bargaining,
 * leaderboards, other currencies) answer empty, 0 or false.
 */
export async function readWebUserInfo(ctx: DomainContext, user: SessionUser) {
  const [account, preference] = await Promise.all([
    ctx.db
      .selectFrom("bound_platform_accounts")
      .select(["platformid", "trade_url", "api_key_sealed"])
      .where("user_id", "=", user.userId)
      .orderBy("bound_at")
      .orderBy("platformid")
      .limit(1)
      .executeTakeFirst(),
    ctx.db
      .selectFrom("users")
      .select(["force_buyer_send_offer", "trading_frozen_at", "withdrawals_frozen_at"])
      .where("user_id", "=", user.userId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    user_id: String(user.userId),
    nickname: user.nickname,
    access_level: user.accessLevel,
    buy_order_status: user.buyOrderStatus,
    created_at: toUnixSeconds(user.createdAt),
    id: String(user.userId),
    avatar: "",
    mobile: "",
    steamid: account?.platformid ?? "",
    trade_url: account?.trade_url ?? "",
    trade_url_state: account?.trade_url ? 1 : 0,
    steam_api_key_state: account?.api_key_sealed ? 1 : 0,
    is_need_steam_verify: false,
    // 0: signed in with nickname and password, the only way in here.
    login_from: 0,
    is_new: false,
    is_foreigner: false,
    nickname_remaining: 0,
    can_unbind_steam: false,
    partner_role_info: {},
    partner_role_detail: {},
    seller_exam_state: 0,
    buyer_exam_state: 0,
    language: "zh-Hans",
    steam_price_currency: "CNY",
    steam_price_currency_desc: "人民币",
    buff_price_currency: "CNY",
    buff_price_currency_desc: "人民币",
    buff_price_currency_symbol: "¥",
    buff_price_currency_rate_base_cny: 1,
    // No exchange rate is known here: every amount is in yuan.
    buff_price_currency_rate_base_usd: 0,
    inventory_price: "",
    // No account-wide preference: each listing says who sends its offer.
    force_buyer_send_offer: preference.force_buyer_send_offer,
    // Our own: what the marketplace's staff have frozen (docs/design/back-office-money.md#freezes).
    frozen: {
      trading: preference.trading_frozen_at !== null,
      withdrawals: preference.withdrawals_frozen_at !== null,
    },
    is_premium: false,
    allow_purchase_premium: false,
    // A user may bind several platform accounts.
    allow_multi_steamid: true,
    allow_nickname_sign: false,
    allow_epay: false,
    allow_pubg_recycle: false,
    allow_comment_push: false,
    allow_up_push: false,
    allow_buyer_bargain: false,
    allow_buyer_bargain_chat: false,
    allow_shop_display: false,
    allow_wechat_trade_message: false,
    allow_price_change_notify: false,
    allow_sms_notification: false,
    allow_mail_notification: false,
    allow_item_recommendation: false,
    allow_buyer_notify_delivery_by_call: false,
    allow_bargain_rejected_push: false,
    allow_deliver_push: false,
    allow_bargain_chat_message_push: false,
    allow_auction_push: false,
    allow_social_comment: false,
    allow_feedback_new_entry: false,
    allow_image_search: false,
    allow_export_bill_order: false,
    allow_preview_audit: false,
    allow_preview_recommend: false,
    allow_csgo_trade_up: false,
    allow_csgo_trade_up_community: false,
    allow_auto_remark: false,
    show_leaderboard: NO_GAME,
    show_leaderboard_v2: NO_GAME,
    show_steam_asset_remark: NO_GAME,
    show_steam_asset_buy_price: NO_GAME,
  };
}
