import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { goodsIdOf } from "../../support/platform-world.ts";
import { assertShape, type Shape } from "../../support/replay-shape.ts";
import { createTestApp, type TestApp, type WebSession } from "../../support/test-app.ts";
import { createWebTrader, listNew, type WebTrader } from "../../support/web-trader.ts";

const STICKER = "Sticker | Crown (Foil)";
const USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) " +
  "Chrome/105.0.0.0 Safari/537.36 Edg/105.0.1343.27";

const PER_GAME: Shape = { csgo: "integer", dota2: "integer" };

/** What delivery tools read of a `sell_order/to_deliver` item. */
const TO_DELIVER_ITEM: Shape = {
  id: "string",
  goods_id: "integer",
  price: "string",
  tradeofferid: ["null", "string"],
  items_to_trade: [
    { appid: "integer", assetid: "string", classid: "string", contextid: "integer", instanceid: "string" },
  ],
};

/**
 * The delivery loop's requests as real tools send them (docs/design/website-account-and-selling-routes.md#the-websites-session-and-account-routes, the delivery
 * routes), each with the tool's own headers and body, and every field it reads checked.
 */
describe("replay: the delivery routes of real tools", () => {
  let t: TestApp;
  let seller: WebTrader;
  let buyer: WebTrader;
  let stickerId: number;

  /** A tool's request: its session cookie, its headers, and on writes the CSRF token it echoes. */
  const replay = async (
    session: WebSession,
    method: "GET" | "POST",
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await t.app.inject({
      method,
      url,
      headers: {
        "User-Agent": USER_AGENT,
        Cookie: session.cookie,
        ...(method === "POST"
          ? { "X-CSRFToken": session.csrfToken, "Content-Type": "application/json" }
          : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: response.statusCode, json: response.json(), body: response.body };
  };
  const buy = async (price: number) => {
    const [listingId] = await listNew(t, seller, { market_hash_name: STICKER }, [price]);
    const bought = await t.web(buyer.session, "POST", "/api/market/goods/buy", {
      game: "csgo",
      goods_id: stickerId,
      sell_order_id: listingId,
      price,
      pay_method: 3,
    });
    assert.equal(bought.statusCode, 200, bought.body);
    return bought.json().data.id as string;
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createWebTrader(t, "rd-seller");
    buyer = await createWebTrader(t, "rd-buyer");
    stickerId = await goodsIdOf(t, STICKER);
    await t.fund(buyer.userId, "balance", 100);
  });
  after(() => t.close());

  // A Java client's notification class (csgo_gogogo ConfirmDendingData): to_accept_offer_order,
  // to_deliver_order, to_send_offer_order as {csgo, dota2, ...} integers, and updated_at.
  test("the notification's counters as a Java client types them", async () => {
    const { json } = await replay(seller.session, "GET", "/api/message/notification");
    assertShape(json, {
      code: "string",
      data: {
        to_deliver_order: PER_GAME,
        to_send_offer_order: PER_GAME,
        to_accept_offer_order: PER_GAME,
        updated_at: "integer",
      },
    });
  });

  // jiajiaxd/Steamauto plugins/BuffAutoAcceptOffer.py require_buyer_send_offer: GET steam_trade for
  // the csrf_token cookie, then POST {"force_buyer_send_offer": "true"} (a JSON string) with
  // X-CSRFToken, Origin and Referer; checks status 200 and code "OK". BuffApi's
  // set_force_buyer_send_offer sends the same.
  test("Steamauto BuffAutoAcceptOffer.require_buyer_send_offer", async () => {
    const trades = await t.app.inject({
      method: "GET",
      url: "/api/market/steam_trade",
      headers: { Cookie: seller.session.cookie },
    });
    assert.equal(trades.statusCode, 200, trades.body);
    const { status, json, body } = await replay(
      seller.session,
      "POST",
      "/account/api/prefer/force_buyer_send_offer",
      { force_buyer_send_offer: "true" },
      { Origin: "https://buff.163.com", Referer: "https://buff.163.com/user-center/profile" },
    );
    assert.equal(status, 200, body);
    assert.equal(json.code, "OK");
    const info = await replay(seller.session, "GET", "/account/api/user/info");
    assert.equal(info.json.data.force_buyer_send_offer, true);
  });

  // Steamauto BuffAutoAcceptOffer.exec with the buyer sending (the mode it chose above): the
  // notification's to_deliver_order, steam_trade's entries, then sell_order/to_deliver for csgo/730
  // and dota2/570: data.items, each tradeofferid (kept when neither None nor ""), and by it the
  // item's price (float(order_info[tradeofferid]["price"])).
  test("Steamauto BuffAutoAcceptOffer.exec (the buyer sends the offer)", async () => {
    const billId = await buy(2.5);
    const notification = await replay(seller.session, "GET", "/api/message/notification");
    assert.equal(notification.json.data.to_deliver_order.csgo, 1);
    // The buyer's app sends the offer (buyer_send_offer, below, replays its body).
    const sent = await t.web(buyer.session, "POST", "/api/market/manual_plus/buyer_send_offer", {
      bill_orders: [billId],
    });
    assert.equal(sent.statusCode, 200, sent.body);
    const trades = await replay(seller.session, "GET", "/api/market/steam_trade");
    assertShape(trades.json, {
      data: [
        {
          tradeofferid: "string",
          goods_infos: "object",
          items_to_trade: [
            { appid: "integer", classid: "string", contextid: "integer", instanceid: "string" },
          ],
          created_at: "integer",
          bot_name: "string",
          bot_avatar: "string",
        },
      ],
    });
    const offerIds = new Set<string>();
    for (const [game, appid] of [
      ["csgo", 730],
      ["dota2", 570],
    ] as const) {
      const { status, json, body } = await replay(
        seller.session,
        "GET",
        `/api/market/sell_order/to_deliver?game=${game}&appid=${appid}`,
      );
      assert.equal(status, 200, body);
      assertShape(json, { data: { items: [TO_DELIVER_ITEM] } });
      for (const item of json.data.items) {
        if (item.tradeofferid !== null && item.tradeofferid !== "") offerIds.add(item.tradeofferid);
        assert.ok(Number.isFinite(Number.parseFloat(item.price)));
      }
    }
    const entry = trades.json.data.find((trade: { id: string }) => trade.id === billId);
    assert.ok(offerIds.has(entry.tradeofferid), "the offer in steam_trade is the one to_deliver names");
    await t.admin("POST", `/sandbox/platform/offers/${entry.tradeofferid}/accept`);
    await t.admin("POST", "/sandbox/jobs/run");
    await t.assertLedger();
    await replay(seller.session, "POST", "/account/api/prefer/force_buyer_send_offer", {
      force_buyer_send_offer: "false",
    });
  });

  // Steamauto BuffApi/__init__.py get_sell_order_to_deliver(game, appid) (params game and appid as
  // a string), then seller_send_offer(steamid, encrypted seller_info, bill_orders, last_login_time):
  // POST {"steamid", "seller_info", "bill_orders": [...], "last_login_time"}; the caller reads code.
  // A buff.market delivery bot does the same per cycle, reading items[].id.
  test("BuffApi get_sell_order_to_deliver and seller_send_offer", async () => {
    const billId = await buy(3);
    const listed = await replay(
      seller.session,
      "GET",
      "/api/market/sell_order/to_deliver?game=csgo&appid=730",
    );
    assert.equal(listed.json.code, "OK");
    const ids = listed.json.data.items.map((item: { id: string }) => item.id);
    assert.ok(ids.includes(billId));
    const { status, json, body } = await replay(
      seller.session,
      "POST",
      "/api/market/manual_plus/seller_send_offer",
      {
        steamid: seller.platformid,
        seller_info: "bm9uZSBvZiBvdXIgYnVzaW5lc3M=",
        bill_orders: [billId],
        last_login_time: 1_700_000_000,
      },
    );
    assert.equal(status, 200, body);
    assert.equal(json.code, "OK");
    assert.equal(json.msg, null);
    const after = await replay(
      seller.session,
      "GET",
      `/api/market/bill_order/batch/info?bill_orders=${billId}`,
    );
    assert.match(after.json.data.items[0].tradeofferid, /^\d+$/, "the tool reads the offer id back");
    await t.assertLedger();
  });

  // Steamauto plugins/SoldAutoOffShelf.py get_sold_orders_buff: data.goods_infos[goods_id]
  // .market_hash_name, items[].id, items[].goods_id and items[].items_to_trade[].assetid.
  test("Steamauto SoldAutoOffShelf.get_sold_orders_buff", async () => {
    const billId = await buy(3.5);
    const { json } = await replay(
      seller.session,
      "GET",
      "/api/market/sell_order/to_deliver?game=csgo&appid=730",
    );
    assertShape(json, {
      data: {
        goods_infos: "object",
        items: [{ id: "string", goods_id: "integer", items_to_trade: [{ assetid: "string" }] }],
      },
    });
    const item = json.data.items.find((entry: { id: string }) => entry.id === billId);
    assert.equal(json.data.goods_infos[String(item.goods_id)].market_hash_name, STICKER);
  });

  // Buyer-side scripts confirming a purchase as the app does: POST manual_plus/buyer_send_offer with
  // {"buff_android_webview_version", "buyer_info", "bill_orders", "steamid"}; success is code "OK"
  // and msg None. The purchase was first handed to the buyer (notify_buyer_to_send_offer).
  test("a buyer's script: notify_buyer_to_send_offer, then buyer_send_offer", async () => {
    const billId = await buy(4);
    const notified = await replay(
      buyer.session,
      "POST",
      "/api/market/bill_order/notify_buyer_to_send_offer",
      {
        bill_order_id: billId,
        game: "csgo",
      },
    );
    assert.ok(notified.json.code === "OK" && notified.json.msg === null, notified.body);
    const { json, body } = await replay(buyer.session, "POST", "/api/market/manual_plus/buyer_send_offer", {
      buff_android_webview_version: "74.0.3729.186",
      buyer_info: "T9A4UdujRSw0TY2+CXuJyMlHOchvD9fo",
      bill_orders: [billId],
      steamid: buyer.platformid,
    });
    assert.ok(json.code === "OK" && json.msg === null, body);
    await t.assertLedger();
  });
});
