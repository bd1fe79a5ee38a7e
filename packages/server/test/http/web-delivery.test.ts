import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { goodsIdOf } from "../support/platform-world.ts";
import { createTestApp, type TestApp, type WebSession } from "../support/test-app.ts";
import { createWebTrader, listNew, type WebTrader } from "../support/web-trader.ts";

const STICKER = "Sticker | Crown (Foil)";
const TO_DELIVER = "/api/market/sell_order/to_deliver?game=csgo&appid=730";
const SELLER_SEND = "/api/market/manual_plus/seller_send_offer";
const BUYER_SEND = "/api/market/manual_plus/buyer_send_offer";
const PREFER = "/account/api/prefer/force_buyer_send_offer";

/**
 * The website's delivery routes (docs/design/website-buying-routes.md#the-websites-delivery-routes) and the offer modes behind them
 * (docs/design/purchases-and-trades.md#offer-modes): who may call, what each refuses and why, and bad input named by its field.
 */
describe("website delivery routes: to_deliver, seller_send_offer, buyer_send_offer, force_buyer_send_offer", () => {
  let t: TestApp;
  let seller: WebTrader;
  let buyer: WebTrader;
  let stranger: WebTrader;
  let stickerId: number;

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
  const post = (session: WebSession, url: string, body: unknown) => t.web(session, "POST", url, body);
  const refusedWith = (response: { statusCode: number; body: string }, status: number, pattern: RegExp) => {
    assert.equal(response.statusCode, status, response.body);
    assert.match((JSON.parse(response.body) as { error: string }).error, pattern);
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createWebTrader(t, "wd-seller");
    buyer = await createWebTrader(t, "wd-buyer");
    stranger = await createWebTrader(t, "wd-stranger");
    stickerId = await goodsIdOf(t, STICKER);
    await t.fund(buyer.userId, "balance", 100);
  });
  after(() => t.close());

  test("refused: every delivery route needs a signed-in session", async () => {
    for (const [method, url, body] of [
      ["GET", TO_DELIVER, undefined],
      ["POST", SELLER_SEND, { bill_orders: ["1"] }],
      ["POST", BUYER_SEND, { bill_orders: ["1"] }],
      ["POST", PREFER, { force_buyer_send_offer: true }],
    ] as const) {
      const response = await t.app.inject({ method, url, ...(body ? { payload: body } : {}) });
      assert.equal(response.statusCode, 401, `${url}: ${response.body}`);
      assert.equal(response.json().code, "Login Required");
      // An API token is no session.
      const withToken = await t.as(seller.token, method, url, body);
      assert.equal(withToken.statusCode, 401, `${url} with a token: ${withToken.body}`);
    }
  });

  test("bad input is a 400 naming the field", async () => {
    for (const [url, field] of [
      ["/api/market/sell_order/to_deliver?game=tf2", "game"],
      ["/api/market/sell_order/to_deliver?game=csgo&appid=570", "appid"],
      ["/api/market/sell_order/to_deliver?game=dota2&appid=730", "appid"],
      ["/api/market/sell_order/to_deliver?game=csgo&appid=abc", "appid"],
    ] as const) {
      const response = await t.web(seller.session, "GET", url);
      assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
      assert.match(response.json().error, new RegExp(field), url);
    }
    for (const url of [SELLER_SEND, BUYER_SEND]) {
      for (const [body, field] of [
        [{}, "bill_orders"],
        [{ bill_orders: [] }, "bill_orders"],
        [{ bill_orders: ["abc"] }, "bill_orders"],
        [{ bill_orders: Array.from({ length: 51 }, (_, i) => String(i + 1)) }, "bill_orders"],
        [{ bill_orders: ["1"], steamid: "x1" }, "steamid"],
        [{ bill_orders: ["1"], unknown_field: 1 }, "unknown_field"],
      ] as const) {
        const response = await post(seller.session, url, body);
        assert.equal(response.statusCode, 400, `${url} ${JSON.stringify(body)}: ${response.body}`);
        assert.match(response.json().error, new RegExp(field));
      }
    }
    for (const body of [{}, { force_buyer_send_offer: "yes" }, { force_buyer_send_offer: 1 }]) {
      const response = await post(seller.session, PREFER, body);
      assert.equal(response.statusCode, 400, `${JSON.stringify(body)}: ${response.body}`);
      assert.match(response.json().error, /force_buyer_send_offer/);
    }
  });

  test("happy: to_deliver lists the seller's sale with the item and the buyer's trade URL, and nobody else's", async () => {
    const billId = await buy(1.5);
    const listed = await t.web(seller.session, "GET", TO_DELIVER);
    assert.equal(listed.statusCode, 200, listed.body);
    const item = listed.json().data.items.find((entry: { id: string }) => entry.id === billId);
    assert.equal(item.tradeofferid, null);
    assert.equal(item.buyer_trade_url, buyer.tradeUrl);
    assert.equal(item.items_to_trade.length, 1);
    assert.equal(item.state, "SELLER_TO_SEND_OFFER");
    assert.equal(listed.json().data.goods_infos[String(stickerId)].market_hash_name, STICKER);
    for (const other of [buyer, stranger]) {
      const theirs = await t.web(other.session, "GET", "/api/market/sell_order/to_deliver?game=cs2");
      assert.deepEqual(theirs.json().data.items, [], "a buyer or a stranger has no sale to deliver");
    }
    const dota = await t.web(seller.session, "GET", "/api/market/sell_order/to_deliver?game=dota2&appid=570");
    assert.deepEqual(dota.json().data, { items: [], goods_infos: {} });
  });

  test("seller_send_offer: wrong user 404, wrong party and wrong state 409, each order answered on its own", async () => {
    const first = await buy(2);
    const second = await buy(2.25);
    refusedWith(
      await post(stranger.session, SELLER_SEND, { bill_orders: [first] }),
      404,
      /bill_orders: \d+ is not a sell order of yours/,
    );
    refusedWith(
      await post(buyer.session, SELLER_SEND, { bill_orders: [first] }),
      404,
      /not a sell order of yours/,
    );
    refusedWith(
      await post(buyer.session, BUYER_SEND, { bill_orders: [first] }),
      409,
      /the seller sends the trade offer/,
    );
    const sent = await post(seller.session, SELLER_SEND, { bill_orders: [first, "999999999", second] });
    assert.equal(sent.statusCode, 200, sent.body);
    const answers = sent.json().data;
    assert.equal(answers[first], "OK");
    assert.equal(answers[second], "OK");
    assert.match(answers["999999999"], /not a sell order of yours/);
    refusedWith(
      await post(seller.session, SELLER_SEND, { bill_orders: [first] }),
      409,
      /is TRADING, not SELLER_TO_SEND_OFFER/,
    );
    refusedWith(
      await post(buyer.session, "/api/market/bill_order/notify_buyer_to_send_offer", {
        bill_order_id: first,
        game: "csgo",
      }),
      409,
      /already out/,
    );
    await t.assertLedger();
  });

  test("buyer_send_offer: only the buyer who took the offer on, with live cookies", async () => {
    const billId = await buy(2.5);
    refusedWith(
      await post(stranger.session, "/api/market/bill_order/notify_buyer_to_send_offer", {
        bill_order_id: billId,
        game: "csgo",
      }),
      404,
      /bill_order_id/,
    );
    const notified = await post(buyer.session, "/api/market/bill_order/notify_buyer_to_send_offer", {
      bill_order_id: billId,
      game: "csgo",
    });
    assert.equal(notified.statusCode, 200, notified.body);
    refusedWith(
      await post(seller.session, SELLER_SEND, { bill_orders: [billId] }),
      409,
      /the buyer sends the trade offer/,
    );
    refusedWith(
      await post(stranger.session, BUYER_SEND, { bill_orders: [billId] }),
      404,
      /not a purchase of yours/,
    );
    refusedWith(
      await post(seller.session, BUYER_SEND, { bill_orders: [billId] }),
      404,
      /not a purchase of yours/,
    );
    // The buyer's platform session has ended: nothing is sent, the trade still waits.
    await t.admin("POST", `/sandbox/platform/accounts/${buyer.platformid}/cookies/expire`);
    refusedWith(await post(buyer.session, BUYER_SEND, { bill_orders: [billId] }), 409, /cookies/);
    const waiting = await t.web(
      buyer.session,
      "GET",
      `/api/market/bill_order/batch/info?bill_orders=${billId}`,
    );
    assert.equal(waiting.json().data.items[0].state, "SELLER_TO_SEND_OFFER");
    await t.assertLedger();
  });

  test("force_buyer_send_offer: trades opened after it wait for the buyer; earlier ones and buy-order fills stay the seller's", async () => {
    const before = await buy(3);
    const set = await post(seller.session, PREFER, { force_buyer_send_offer: true });
    assert.deepEqual(set.json(), { code: "OK", data: { force_buyer_send_offer: true }, msg: null });
    const afterwards = await buy(3.25);
    const info = async (id: string) =>
      (await t.web(buyer.session, "GET", `/api/market/bill_order/batch/info?bill_orders=${id}`)).json().data
        .items[0];
    assert.equal((await info(before)).is_seller_asked_to_send_offer, true);
    assert.equal((await info(afterwards)).is_seller_asked_to_send_offer, false);
    // A buy order's fill is delivered by the seller's offer, as a supply is.
    const order = await t.as(buyer.token, "POST", "/api/market/developer/buy_order", {
      game: "cs2",
      goods_id: stickerId,
      price: 0.8,
      num: 1,
    });
    assert.equal(order.statusCode, 200, order.body);
    const [listingId] = await listNew(t, seller, { market_hash_name: STICKER }, [0.8]);
    assert.ok(listingId);
    const fills = await t.web(buyer.session, "GET", "/api/market/buy_order/history?game=csgo&page_size=50");
    const fill = fills
      .json()
      .data.items.find((item: { type: number; price: string }) => item.type === 2 && item.price === "0.80");
    assert.ok(fill, fills.body);
    assert.equal(fill.is_seller_asked_to_send_offer, true);
    const unset = await post(seller.session, PREFER, { force_buyer_send_offer: "false" });
    assert.equal(unset.json().data.force_buyer_send_offer, false);
    await t.assertLedger();
  });
});
