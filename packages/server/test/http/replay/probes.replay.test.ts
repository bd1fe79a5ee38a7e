import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { goodsIdOf, grant, uploadCookies } from "../../support/platform-world.ts";
import { assertShape, type Shape } from "../../support/replay-shape.ts";
import { createTestApp, type TestApp } from "../../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
const USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) " +
  "Chrome/105.0.0.0 Safari/537.36 Edg/105.0.1343.27";

/**
 * The requests real tools send to the website's session and account routes, replayed as their
 * code sends them, and every field they read checked for presence and type
 * (docs/design/website-account-and-selling-routes.md#the-websites-session-and-account-routes).
 */
describe("replay: the session probes and account reads of real tools", () => {
  let t: TestApp;
  let sellerCookie: string;
  let buyerCookie: string;
  let sellerPlatformid: string;
  let stickerId: number;

  /** A signed-in trader with a platform account set up; answers the `session=...` cookie tools keep. */
  async function signedInTrader(nickname: string) {
    const user = await t.createUser({ nickname, password: "replay password" });
    const created = await t.admin("POST", "/sandbox/platform/accounts", { user_id: user.userId });
    const account = created.json<{ platformid: string; trade_url: string; cookies: string }>();
    const trader = { ...account, userId: user.userId, token: user.token, tradeUrl: account.trade_url };
    await uploadCookies(t, trader);
    await t.as(user.token, "POST", "/api/market/developer/platform/setup", {
      platformid: account.platformid,
    });
    const session = await t.signIn(nickname, "replay password");
    return { ...trader, cookie: session.cookie.split(";")[0]! };
  }

  /** A tool's GET with its own headers; answers the parsed body. */
  const replay = async (url: string, headers: Record<string, string>) => {
    const response = await t.app.inject({ method: "GET", url, headers });
    return response.json();
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    const seller = await signedInTrader("replay-seller");
    const buyer = await signedInTrader("replay-buyer");
    sellerCookie = seller.cookie;
    buyerCookie = buyer.cookie;
    sellerPlatformid = seller.platformid;
    stickerId = await goodsIdOf(t, STICKER);
    // Two sales: one whose offer is out (both sides act on it), one still to send (the seller acts).
    const assetids = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 2 });
    await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: assetids.map((assetid) => ({ assetid, price: 4 })),
    });
    await t.fund(buyer.userId, "balance", 8);
    const bought = await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [{ goods_id: stickerId, max_price: 4, quantity: 2 }],
    });
    const [first] = bought.json().result[String(stickerId)].bill_order_ids as string[];
    const sent = await t.as(seller.token, "POST", "/api/market/developer/sell_order/send_offer", {
      order_id: first,
    });
    assert.equal(sent.statusCode, 200, sent.body);
    await t.assertLedger();
  });
  after(() => t.close());

  /** What Steamauto's BuffAutoAcceptOffer reads of each `steam_trade` entry. */
  const steamautoTradeEntry = (): Shape => ({
    tradeofferid: "string",
    appid: "integer",
    game: "string",
    created_at: "integer",
    bot_name: "string",
    bot_avatar: "string",
    items_to_trade: [{ appid: "integer", classid: "string", contextid: "integer", instanceid: "string" }],
    goods_infos: {
      [String(stickerId)]: {
        name: "string",
        steam_price: "string",
        steam_price_cny: "string",
        game: "string",
        original_icon_url: "string",
      },
    },
  });

  // jiajiaxd/Steamauto utils/buff_helper.py is_session_has_enough_permission: the session is alive
  // when the answer has `data`.
  test("Steamauto buff_helper.is_session_has_enough_permission", async () => {
    const alive = await replay("/api/market/steam_trade", { Cookie: sellerCookie });
    assert.ok("data" in alive);
    const dead = await replay("/api/market/steam_trade", { Cookie: "session=" });
    assert.ok(!("data" in dead));
  });

  // jiajiaxd/Steamauto utils/buff_helper.py get_buff_username: data.nickname when code is OK.
  test("Steamauto buff_helper.get_buff_username", async () => {
    const answer = await replay("/account/api/user/info", { Cookie: sellerCookie });
    assert.equal(answer.code, "OK");
    assertShape(answer, { code: "string", data: { nickname: "string" } });
  });

  // jiajiaxd/Steamauto plugins/BuffAutoAcceptOffer.py check_buff_account_state: user/info's
  // nickname, then steam_trade's data must not be null.
  test("Steamauto BuffAutoAcceptOffer.check_buff_account_state", async () => {
    const headers = { "User-Agent": USER_AGENT, Cookie: sellerCookie };
    const info = await replay("/account/api/user/info", headers);
    assertShape(info, { code: "string", data: { nickname: "string" } });
    const trades = await replay("/api/market/steam_trade", headers);
    assertShape(trades, { data: "array" });
  });

  // jiajiaxd/Steamauto plugins/BuffAutoAcceptOffer.py get_buff_bind_steamid: compared with the
  // platform id of the tool's own account.
  test("Steamauto BuffAutoAcceptOffer.get_buff_bind_steamid", async () => {
    const answer = await replay("/account/api/user/info", { "User-Agent": USER_AGENT, Cookie: sellerCookie });
    assertShape(answer, { code: "string", data: { steamid: "string" } });
    assert.equal(answer.data.steamid, sellerPlatformid);
  });

  // jiajiaxd/Steamauto plugins/BuffAutoAcceptOffer.py exec: int(to_deliver_order["csgo"]) and
  // ["dota2"], then every steam_trade entry through should_accept_offer and format_str.
  test("Steamauto BuffAutoAcceptOffer.exec", async () => {
    const headers = { "User-Agent": USER_AGENT, Cookie: sellerCookie };
    const notification = await replay("/api/message/notification", headers);
    assertShape(notification, { data: { to_deliver_order: { csgo: "integer", dota2: "integer" } } });
    assert.equal(notification.data.to_deliver_order.csgo, 2);
    const trades = await replay("/api/market/steam_trade", headers);
    assert.equal(trades.data.length, 2);
    assertShape(trades, { data: [steamautoTradeEntry()] });
  });

  // jiajiaxd/Steamauto BuffApi/__init__.py BuffAccount: get_notification (with the cookie in the
  // session's headers), get_user_nickname, get_user_brief_assest, get_steam_trade read `data`.
  test("Steamauto BuffApi.BuffAccount", async () => {
    const headers = { "User-Agent": USER_AGENT, Cookie: buyerCookie };
    assertShape(await replay("/api/message/notification", headers), { data: "object" });
    assertShape(await replay("/account/api/user/info", headers), { data: { nickname: "string" } });
    assertShape(await replay("/api/asset/get_brief_asset", headers), { data: "object" });
    const trades = await replay("/api/market/steam_trade", headers);
    assert.equal(trades.data.length, 1);
    assertShape(trades, { data: [{ tradeofferid: "string" }] });
  });

  // luobeichen/BuffApi asset/get_brief_asset.py AssetGetBriefAsset.from_dict: every field it
  // indexes, and remain_withdraw_counts' five counts.
  test("BuffApi AssetGetBriefAsset.from_dict", async () => {
    const answer = await replay("/api/asset/get_brief_asset", { Cookie: buyerCookie });
    const amounts = [
      "cash_amount",
      "cash_amount_outer",
      "cash_amount_inner",
      "frozen_amount",
      "security_amount",
      "epay_amount",
      "epay_able_withdraw_amount",
      "epay_unable_withdraw_amount",
      "epay_frozen_amount",
      "alipay_amount",
      "alipay_able_withdraw_amount",
      "alipay_unable_withdraw_amount",
      "alipay_frozen_amount",
      "pending_divide_amount",
      "pending_divide_alipay_amount_total",
      "pending_divide_epay_amount_total",
      "pending_divide_amount_using",
      "pending_divide_epay_amount_enable",
      "pending_divide_alipay_amount_enable",
    ];
    assertShape(answer, {
      code: "string",
      data: {
        ...Object.fromEntries(amounts.map((field) => [field, "string" as const])),
        realname: "boolean",
        remain_withdraw_counts: {
          epay: "integer",
          alipay: "integer",
          together: "integer",
          airwallex: "integer",
          payoneer: "integer",
        },
        has_admin_frozen_asset: "boolean",
        allow_large_amount_withdraw: "boolean",
        allow_large_amount_withdraw_new: "boolean",
      },
    });
    assert.equal(answer.data.frozen_amount, "8.00");
  });

  // luobeichen/BuffApi user/info.py info.from_dict: every field it indexes with [].
  test("BuffApi info.from_dict", async () => {
    const answer = await replay("/account/api/user/info", { Cookie: sellerCookie });
    const strings = [
      "id",
      "nickname",
      "avatar",
      "mobile",
      "steamid",
      "trade_url",
      "language",
      "steam_price_currency",
      "steam_price_currency_desc",
      "buff_price_currency",
      "buff_price_currency_desc",
      "buff_price_currency_symbol",
      "inventory_price",
    ];
    const integers = [
      "login_from",
      "trade_url_state",
      "nickname_remaining",
      "seller_exam_state",
      "buyer_exam_state",
      "steam_api_key_state",
    ];
    const booleans = [
      "is_need_steam_verify",
      "is_new",
      "is_foreigner",
      "can_unbind_steam",
      "allow_nickname_sign",
      "allow_epay",
      "allow_pubg_recycle",
      "allow_comment_push",
      "allow_up_push",
      "allow_buyer_bargain",
      "allow_buyer_bargain_chat",
      "allow_shop_display",
      "allow_wechat_trade_message",
      "force_buyer_send_offer",
      "allow_price_change_notify",
      "allow_sms_notification",
      "allow_mail_notification",
      "allow_item_recommendation",
      "allow_buyer_notify_delivery_by_call",
      "allow_bargain_rejected_push",
      "allow_deliver_push",
      "allow_bargain_chat_message_push",
      "allow_auction_push",
      "allow_social_comment",
      "allow_feedback_new_entry",
      "allow_image_search",
      "allow_export_bill_order",
      "allow_preview_audit",
      "allow_preview_recommend",
      "allow_csgo_trade_up",
      "allow_csgo_trade_up_community",
      "is_premium",
      "allow_purchase_premium",
      "allow_multi_steamid",
      "allow_auto_remark",
    ];
    const perGame: Shape = { csgo: "boolean", dota2: "boolean" };
    assertShape(answer, {
      code: "string",
      data: {
        ...Object.fromEntries(strings.map((field) => [field, "string" as const])),
        ...Object.fromEntries(integers.map((field) => [field, "integer" as const])),
        ...Object.fromEntries(booleans.map((field) => [field, "boolean" as const])),
        buff_price_currency_rate_base_cny: "number",
        buff_price_currency_rate_base_usd: "number",
        show_leaderboard: perGame,
        show_leaderboard_v2: perGame,
        show_steam_asset_remark: perGame,
        show_steam_asset_buy_price: perGame,
      },
    });
  });

  // chr233/ASFBuffBot ASFBuffBot/Data/BuffSteamTradeResponse.cs: Newtonsoft reads every entry with
  // `Required.Always` fields (no null allowed); BuffNotificationResponse.cs reads to_deliver_order.
  test("ASFBuffBot WebRequest.FetchBuffSteamTrade", async () => {
    const headers = { Cookie: sellerCookie };
    const notification = await replay("/api/message/notification", headers);
    assertShape(notification, {
      code: "string",
      data: { to_deliver_order: { csgo: "integer", dota2: "integer" } },
    });
    const trades = await replay("/api/market/steam_trade", headers);
    assertShape(trades, {
      code: "string",
      data: [
        {
          appid: "integer",
          bot_age: "integer",
          bot_age_icon: "string",
          bot_avatar: "string",
          bot_extra_info: "string",
          bot_level: "integer",
          bot_name: "string",
          bot_steam_created_at: "integer",
          created_at: "integer",
          game: "string",
          goods_infos: {
            [String(stickerId)]: {
              appid: "integer",
              game: "string",
              goods_id: "integer",
              icon_url: "string",
              name: "string",
              market_hash_name: "string",
              market_min_price: "string",
              steam_price: "string",
              steam_price_cny: "string",
            },
          },
          id: "string",
          items_to_trade: [
            {
              appid: "integer",
              assetid: "string",
              classid: "string",
              contextid: "integer",
              goods_id: "integer",
              instanceid: "string",
            },
          ],
          state: "integer",
          text: "string",
          title: "string",
          trace_url: "string",
          tradeofferid: "string",
          type: "integer",
          url: "string",
          verify_code: "string",
        },
      ],
    });
  });
});
