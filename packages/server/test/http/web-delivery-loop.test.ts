import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { goodsIdOf } from "../support/platform-world.ts";
import { createTestApp, type TestApp, type WebSession } from "../support/test-app.ts";
import { createWebTrader, listNew, type WebTrader } from "../support/web-trader.ts";

const STICKER = "Sticker | Crown (Foil)";
const ZERO = { csgo: 0, dota2: 0 };
const ONE = { csgo: 1, dota2: 0 };

/**
 * The auto-delivery loop as a seller's bot runs it (docs/design/purchases-and-trades.md#offer-modes and docs/design/website-buying-routes.md#the-websites-delivery-routes, offer modes
 * and the delivery routes), through HTTP only: poll the notification, read the sales to deliver,
 * send the offer (seller mode) or wait for the buyer's (buyer mode), the other party accepts on
 * the platform, the trade completes and the counters fall back to zero; then the same with a
 * buyer who never answers, whom the marketplace clock and the jobs deal with.
 */
describe("the seller's auto-delivery loop, through HTTP", () => {
  let t: TestApp;
  let seller: WebTrader;
  let buyer: WebTrader;
  let stickerId: number;

  const data = async (session: WebSession, method: "GET" | "POST", url: string, body?: unknown) => {
    const response = await t.web(session, method, url, body);
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
    assert.equal(response.json().code, "OK");
    return response.json().data;
  };
  const counts = async (session: WebSession) => {
    const { to_deliver_order, to_send_offer_order, to_accept_offer_order } = await data(
      session,
      "GET",
      "/api/message/notification",
    );
    return { deliver: to_deliver_order, send: to_send_offer_order, accept: to_accept_offer_order };
  };
  const toDeliver = async () =>
    (await data(seller.session, "GET", "/api/market/sell_order/to_deliver?game=csgo&appid=730")).items;
  const cash = async (session: WebSession) =>
    (await data(session, "GET", "/api/asset/get_brief_asset")).cash_amount;
  const runJobs = async () => assert.equal((await t.admin("POST", "/sandbox/jobs/run")).statusCode, 200);
  const billOrder = async (id: string) =>
    (await data(buyer.session, "GET", `/api/market/bill_order/batch/info?bill_orders=${id}`)).items[0];
  const buy = async (price: number) => {
    const [listingId] = await listNew(t, seller, { market_hash_name: STICKER }, [price]);
    const order = await data(buyer.session, "POST", "/api/market/goods/buy", {
      game: "csgo",
      goods_id: stickerId,
      sell_order_id: listingId,
      price,
      pay_method: 3,
    });
    await t.assertLedger();
    return order as { id: string; asset_info: { assetid: string } };
  };
  const setForce = async (value: string) => {
    const set = await data(seller.session, "POST", "/account/api/prefer/force_buyer_send_offer", {
      force_buyer_send_offer: value,
    });
    assert.equal(set.force_buyer_send_offer, value === "true");
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createWebTrader(t, "loop-seller");
    buyer = await createWebTrader(t, "loop-buyer");
    stickerId = await goodsIdOf(t, STICKER);
    await t.fund(buyer.userId, "balance", 100);
  });
  after(() => t.close());

  test("seller mode: notification, to_deliver, seller_send_offer, the buyer accepts, counters back to zero", async () => {
    const order = await buy(3);
    assert.deepEqual(await counts(seller.session), { deliver: ONE, send: ONE, accept: ZERO });
    assert.deepEqual(await counts(buyer.session), { deliver: ZERO, send: ZERO, accept: ZERO });

    const [waiting] = await toDeliver();
    assert.equal(waiting.id, order.id);
    assert.equal(waiting.tradeofferid, null);
    assert.equal(waiting.buyer_trade_url, buyer.tradeUrl);
    assert.equal(waiting.items_to_trade[0].assetid, order.asset_info.assetid);
    assert.deepEqual(
      (await data(seller.session, "GET", "/api/market/sell_order/to_deliver?game=dota2&appid=570")).items,
      [],
    );

    const sent = await data(seller.session, "POST", "/api/market/manual_plus/seller_send_offer", {
      bill_orders: [order.id],
      seller_info: "sealed session the marketplace does not read",
      steamid: seller.platformid,
    });
    assert.deepEqual(sent, { [order.id]: "OK" });
    await t.assertLedger();
    const [out] = await toDeliver();
    assert.match(out.tradeofferid, /^\d+$/);
    assert.deepEqual(await counts(seller.session), { deliver: ONE, send: ZERO, accept: ZERO });
    assert.deepEqual(await counts(buyer.session), { deliver: ZERO, send: ZERO, accept: ONE });

    const accepted = await t.admin("POST", `/sandbox/platform/offers/${out.tradeofferid}/accept`);
    assert.equal(accepted.statusCode, 200, accepted.body);
    await runJobs();
    await t.assertLedger();
    assert.equal((await billOrder(order.id)).state, "SUCCESS");
    assert.deepEqual(await toDeliver(), []);
    assert.deepEqual(await counts(seller.session), { deliver: ZERO, send: ZERO, accept: ZERO });
    assert.deepEqual(await counts(buyer.session), { deliver: ZERO, send: ZERO, accept: ZERO });
  });

  test("buyer mode: the seller forces buyer offers, the buyer sends one, the seller accepts it", async () => {
    await setForce("true");
    assert.equal((await data(seller.session, "GET", "/account/api/user/info")).force_buyer_send_offer, true);
    const order = await buy(4);
    const bill = await billOrder(order.id);
    assert.equal(bill.mode, 2);
    assert.equal(bill.is_seller_asked_to_send_offer, false);
    assert.ok(bill.buyer_send_offer_timeout > 0);
    // The seller's bot waits: the offer is the buyer's to send.
    assert.deepEqual(await counts(seller.session), { deliver: ONE, send: ZERO, accept: ZERO });
    assert.deepEqual(await counts(buyer.session), { deliver: ZERO, send: ONE, accept: ZERO });
    assert.equal((await toDeliver())[0].tradeofferid, null);
    const refused = await t.web(seller.session, "POST", "/api/market/manual_plus/seller_send_offer", {
      bill_orders: [order.id],
    });
    assert.equal(refused.statusCode, 409, refused.body);
    const asked = await t.web(buyer.session, "POST", "/api/market/bill_order/ask_seller_to_send_offer", {
      bill_orders: [order.id],
      game: "csgo",
    });
    assert.equal(asked.statusCode, 409, asked.body);
    assert.match(asked.json().error, /asks buyers to send the trade offer/);

    const sent = await data(buyer.session, "POST", "/api/market/manual_plus/buyer_send_offer", {
      bill_orders: [order.id],
      buyer_info: "sealed session the marketplace does not read",
      steamid: buyer.platformid,
    });
    assert.deepEqual(sent, { [order.id]: "OK" });
    await t.assertLedger();
    const [out] = await toDeliver();
    assert.match(out.tradeofferid, /^\d+$/);
    assert.deepEqual(await counts(seller.session), { deliver: ONE, send: ZERO, accept: ONE });
    assert.deepEqual(await counts(buyer.session), { deliver: ZERO, send: ZERO, accept: ZERO });
    const [toAccept] = await data(seller.session, "GET", "/api/market/steam_trade");
    assert.equal(toAccept.tradeofferid, out.tradeofferid);
    assert.equal(toAccept.type, 1);
    assert.equal(toAccept.state, 1);

    // The buyer's offer asks for the seller's item; the seller accepts it on the platform.
    const offers = await t.admin("GET", `/sandbox/platform/offers?platformid=${seller.platformid}`);
    const offer = offers
      .json()
      .items.find((item: { tradeofferid: string }) => item.tradeofferid === out.tradeofferid);
    assert.equal(offer.sender, buyer.platformid);
    assert.equal(offer.receiver, seller.platformid);
    assert.equal(offer.items_from, "receiver");
    const accepted = await t.admin("POST", `/sandbox/platform/offers/${out.tradeofferid}/accept`);
    assert.equal(accepted.statusCode, 200, accepted.body);
    await runJobs();
    await t.assertLedger();
    assert.equal((await billOrder(order.id)).state, "SUCCESS");
    assert.deepEqual(await toDeliver(), []);
    assert.deepEqual(await counts(seller.session), { deliver: ZERO, send: ZERO, accept: ZERO });
    assert.deepEqual(await counts(buyer.session), { deliver: ZERO, send: ZERO, accept: ZERO });
    await setForce("false");
  });

  test("seller mode, a buyer who never accepts: the offer expires, the buyer is refunded, the seller keeps the item", async () => {
    const before = await cash(buyer.session);
    const order = await buy(5);
    await data(seller.session, "POST", "/api/market/manual_plus/seller_send_offer", {
      bill_orders: [order.id],
    });
    assert.deepEqual(await counts(buyer.session), { deliver: ZERO, send: ZERO, accept: ONE });
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 12 * 3600 + 1 });
    await runJobs();
    await t.assertLedger();
    const failed = await billOrder(order.id);
    assert.equal(failed.state, "FAIL");
    assert.equal(failed.error_text, "offer_expired");
    assert.equal(await cash(buyer.session), before);
    assert.deepEqual(await toDeliver(), []);
    assert.deepEqual(await counts(seller.session), { deliver: ZERO, send: ZERO, accept: ZERO });
    assert.deepEqual(await counts(buyer.session), { deliver: ZERO, send: ZERO, accept: ZERO });
    // The item never left the seller: it can be listed again.
    const relisted = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid: order.asset_info.assetid, price: 5 }],
    });
    assert.equal(
      relisted.json().sell_orders[order.asset_info.assetid].sell_order_id !== undefined,
      true,
      relisted.body,
    );
  });

  test("buyer mode, a buyer who never sends the offer: buyer_timeout at the deadline, the buyer is refunded", async () => {
    const before = await cash(buyer.session);
    const order = await buy(6);
    await data(buyer.session, "POST", "/api/market/bill_order/notify_buyer_to_send_offer", {
      bill_order_id: order.id,
      game: "csgo",
    });
    assert.deepEqual(await counts(buyer.session), { deliver: ZERO, send: ONE, accept: ZERO });
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 12 * 3600 + 1 });
    await runJobs();
    await t.assertLedger();
    const failed = await billOrder(order.id);
    assert.equal(failed.state, "FAIL");
    assert.equal(failed.error_text, "buyer_timeout");
    assert.equal(await cash(buyer.session), before);
    assert.deepEqual(await counts(seller.session), { deliver: ZERO, send: ZERO, accept: ZERO });
    assert.deepEqual(await counts(buyer.session), { deliver: ZERO, send: ZERO, accept: ZERO });
  });
});
