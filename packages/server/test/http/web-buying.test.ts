import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { goodsIdOf, uploadCookies } from "../support/platform-world.ts";
import { createTestApp, type TestApp, type WebSession } from "../support/test-app.ts";
import { createWebTrader, listNew, type WebTrader } from "../support/web-trader.ts";

const STICKER = "Sticker | Crown (Foil)";
const REDLINE = "AK-47 | Redline (Field-Tested)";

/** The website's buying routes with a signed-in session (docs/design/website-buying-routes.md#the-websites-buying-delivery-and-buy-order-routes). */
describe("website buying routes", () => {
  let t: TestApp;
  let seller: WebTrader;
  let buyer: WebTrader;
  let stranger: WebTrader;
  let stickerId: number;
  let redlineId: number;

  const preview = (session: WebSession, id: string, price: string, extra = "") =>
    t.web(
      session,
      "GET",
      `/api/market/goods/buy/preview?game=csgo&sell_order_id=${id}&goods_id=${stickerId}&price=${price}${extra}`,
    );
  const buy = (
    session: WebSession,
    id: string,
    price: string | number,
    extra: Record<string, unknown> = {},
  ) =>
    t.web(session, "POST", "/api/market/goods/buy", {
      game: "csgo",
      goods_id: stickerId,
      price,
      sell_order_id: id,
      token: "",
      cdkey_id: "",
      pay_method: 3,
      ...extra,
    });
  const batch = (session: WebSession, ids: string) =>
    t.web(session, "GET", `/api/market/bill_order/batch/info?bill_orders=${ids}`);
  const balances = async (trader: WebTrader) =>
    (await t.admin("GET", `/sandbox/users/${trader.userId}/balances`)).json();

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createWebTrader(t, "wb-seller");
    buyer = await createWebTrader(t, "wb-buyer");
    stranger = await createWebTrader(t, "wb-stranger");
    stickerId = await goodsIdOf(t, STICKER);
    redlineId = await goodsIdOf(t, REDLINE);
    await t.fund(buyer.userId, "balance", 100);
    await t.fund(buyer.userId, "margin", 20);
    await t.assertLedger();
  });
  after(() => t.close());

  test("the preview lists balance, buy-order funds, bank card and wallet, at the indexes tools read", async () => {
    const [id] = await listNew(t, seller, { market_hash_name: STICKER }, [30], { allow_wallet_zft: false });
    const response = await preview(buyer.session, id!, "30");
    assert.equal(response.statusCode, 200, response.body);
    const { code, data, msg } = response.json();
    assert.equal(code, "OK");
    assert.equal(msg, null);
    assert.equal(data.price, "30.00");
    assert.deepEqual(
      data.pay_methods.map((entry: Record<string, unknown>) => [
        entry.value,
        entry.name,
        entry.balance,
        entry.error,
      ]),
      [
        [3, "balance", "100.00", null],
        [101, "margin", "20.00", "insufficient funds in this account"],
        [1, "bankcard", "0.00", null],
        [102, "wallet", "0.00", "the seller does not accept this way of paying"],
      ],
    );
    assert.equal(data.pay_methods[1].enough, false);
    await t.as(seller.token, "DELETE", "/api/market/developer/sell_order/items", {
      game: "cs2",
      sell_orders: [id],
    });
  });

  test("buying a listing with the balance: paid into escrow, the bill order waits for the seller's offer, then completes", async () => {
    const [id] = await listNew(t, seller, { market_hash_name: STICKER }, [12.5]);
    const bought = await buy(buyer.session, id!, "12.50");
    assert.equal(bought.statusCode, 200, bought.body);
    const order = bought.json().data;
    assert.equal(bought.json().msg, null);
    assert.match(order.id, /^\d+$/);
    assert.equal(order.state, "SELLER_TO_SEND_OFFER");
    assert.equal(order.pay_method, 3);
    assert.equal(order.sell_order_id, id);
    assert.equal(order.tradeofferid, null);
    assert.equal(order.buyer_id, buyer.userId);
    assert.equal((await balances(buyer)).balance, "87.50");
    await t.assertLedger();

    const again = await buy(buyer.session, id!, "12.50");
    assert.equal(again.statusCode, 404, again.body);
    assert.match(again.json().error, /^sell_order_id: /);
    await t.assertLedger();

    for (const party of [buyer, seller]) {
      const info = await batch(party.session, order.id);
      assert.equal(info.statusCode, 200, info.body);
      assert.deepEqual(
        info.json().data.items.map((item: { id: string }) => item.id),
        [order.id],
      );
    }
    const asked = await t.web(buyer.session, "POST", "/api/market/bill_order/ask_seller_to_send_offer", {
      bill_orders: [order.id],
      game: "csgo",
    });
    assert.equal(asked.statusCode, 200, asked.body);
    assert.deepEqual(asked.json(), { code: "OK", data: {}, msg: null });
    await t.assertLedger();

    const sent = await t.as(seller.token, "POST", "/api/market/developer/sell_order/send_offer", {
      order_id: order.id,
    });
    assert.equal(sent.statusCode, 200, sent.body);
    const trading = (await batch(seller.session, order.id)).json().data.items[0];
    assert.equal(trading.state, "TRADING");
    assert.match(trading.tradeofferid, /^\d+$/);
    assert.equal(trading.has_sent_offer, true);
    await t.assertLedger();

    await t.admin("POST", `/sandbox/platform/offers/${trading.tradeofferid}/accept`);
    await t.admin("POST", "/sandbox/jobs/run");
    await t.assertLedger();
    const history = await t.web(
      buyer.session,
      "GET",
      "/api/market/buy_order/history?game=csgo&state=success",
    );
    assert.equal(history.statusCode, 200, history.body);
    const done = history.json().data;
    assert.deepEqual(
      done.items.map((item: { id: string }) => item.id),
      [order.id],
    );
    assert.equal(done.items[0].state, "SUCCESS");
    assert.equal(typeof done.items[0].transact_time, "number");
    assert.equal(done.goods_infos[String(stickerId)].market_hash_name, STICKER);
    assert.equal((await balances(seller)).balance, "12.18");
  });

  test("buy-order funds (101) and the bank card (1) pay as the official purchase does", async () => {
    const [byMargin, byCard] = await listNew(t, seller, { market_hash_name: STICKER }, [2, 3]);
    const margin = await buy(buyer.session, byMargin!, 2, { pay_method: 101 });
    assert.equal(margin.statusCode, 200, margin.body);
    assert.equal(margin.json().data.pay_method, 101);
    assert.equal((await balances(buyer)).margin, "18.00");
    await t.assertLedger();
    const card = await buy(buyer.session, byCard!, "3", { pay_method: 1 });
    assert.equal(card.statusCode, 200, card.body);
    assert.equal(card.json().data.state, "PAYING");
    assert.equal(card.json().data.buyer_pay_time, 0);
    await t.assertLedger();
  });

  test("a pre-sell item is bought only with allow_tradable_cooldown=1, and a skin can be bought", async () => {
    const [id] = await listNew(t, seller, { market_hash_name: REDLINE, cooldown_days: 3 }, [4]);
    const skin = { goods_id: redlineId };
    const refused = await buy(buyer.session, id!, 4, skin);
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().error, /^allow_tradable_cooldown: /);
    await t.assertLedger();
    const bought = await buy(buyer.session, id!, 4, { ...skin, allow_tradable_cooldown: 1 });
    assert.equal(bought.statusCode, 200, bought.body);
    assert.equal(bought.json().data.asset_info.has_tradable_cooldown, true);
    await t.assertLedger();
  });

  test("refusals: too little money, a changed price, one's own listing, a way of paying the seller refuses", async () => {
    const [costly, cheap] = await listNew(t, seller, { market_hash_name: STICKER }, [500, 1], {
      allow_wallet_zft: false,
    });
    const poor = await buy(buyer.session, costly!, 500);
    assert.equal(poor.statusCode, 409);
    assert.equal(poor.json().code, "Insufficient Balance");
    const stale = await buy(buyer.session, cheap!, "0.90");
    assert.equal(stale.statusCode, 400);
    assert.equal(stale.json().error, "price: the listing's price is now 1.00");
    const own = await buy(seller.session, cheap!, 1);
    assert.equal(own.statusCode, 400);
    assert.match(own.json().error, /^sell_order_id: this is your own listing/);
    const wallet = await buy(buyer.session, cheap!, 1, { pay_method: 102 });
    assert.equal(wallet.statusCode, 400);
    assert.match(wallet.json().error, /^pay_method: /);
    const stalePreview = await preview(buyer.session, cheap!, "2");
    assert.equal(stalePreview.statusCode, 400);
    assert.match(stalePreview.json().error, /^price: /);
    await t.assertLedger();
    const onSale = await t.app.inject({
      method: "GET",
      url: `/api/market/goods/sell_order?game=csgo&goods_id=${stickerId}&page_size=80`,
    });
    const ids = onSale.json().data.items.map((item: { id: string }) => item.id);
    assert.ok(ids.includes(costly) && ids.includes(cheap), "nothing was sold");
  });

  test("two buyers of one listing at the same moment: one buys it, the other finds it gone", async () => {
    const [id] = await listNew(t, seller, { market_hash_name: STICKER }, [1.1]);
    await t.fund(stranger.userId, "balance", 5);
    const answers = await Promise.all([buy(buyer.session, id!, 1.1), buy(stranger.session, id!, 1.1)]);
    assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 404]);
    const trades = await t.database.db
      .selectFrom("trades")
      .select("trade_id")
      .where("listing_id", "=", Number(id))
      .execute();
    assert.equal(trades.length, 1);
    await t.assertLedger();
  });

  test("bad input names the field", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ pay_method: 2 }, /pay_method/],
      [{ sell_order_id: "abc" }, /sell_order_id/],
      [{ surprise: 1 }, /surprise/],
      [{ price: "1.234" }, /^price: /],
    ];
    for (const [extra, field] of cases) {
      const response = await buy(buyer.session, "1", 1, extra);
      assert.equal(response.statusCode, 400, response.body);
      assert.match(response.json().error, field);
    }
    const badBatch = await batch(buyer.session, "1,x");
    assert.equal(badBatch.statusCode, 400);
    assert.match(badBatch.json().error, /bill_orders/);
    const badAsk = await t.web(buyer.session, "POST", "/api/market/bill_order/ask_seller_to_send_offer", {
      bill_orders: [],
      game: "csgo",
    });
    assert.equal(badAsk.statusCode, 400);
    assert.match(badAsk.json().error, /bill_orders/);
  });

  test("without a session every route answers Login Required", async () => {
    const routes: Array<[string, string, unknown?]> = [
      ["GET", `/api/market/goods/buy/preview?game=csgo&sell_order_id=1&goods_id=${stickerId}&price=1`],
      ["POST", "/api/market/goods/buy", {}],
      ["GET", "/api/market/bill_order/batch/info?bill_orders=1"],
      ["POST", "/api/market/bill_order/ask_seller_to_send_offer", {}],
      ["POST", "/api/market/bill_order/notify_buyer_to_send_offer", {}],
      ["GET", "/api/market/buy_order/history?game=csgo"],
    ];
    for (const [method, url, payload] of routes) {
      const response = await t.app.inject({
        method: method as "GET",
        url,
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
      assert.equal(response.statusCode, 401, `${method} ${url}: ${response.body}`);
      assert.equal(response.json().code, "Login Required");
    }
  });

  test("a user can neither read nor act on another user's bill orders", async () => {
    const [id] = await listNew(t, seller, { market_hash_name: STICKER }, [1.5]);
    const order = (await buy(buyer.session, id!, 1.5)).json().data;
    await t.assertLedger();
    const seen = await batch(stranger.session, order.id);
    assert.deepEqual(seen.json().data.items, []);
    const asked = await t.web(stranger.session, "POST", "/api/market/bill_order/ask_seller_to_send_offer", {
      bill_orders: [order.id],
      game: "csgo",
    });
    assert.equal(asked.statusCode, 404);
    assert.match(asked.json().error, /^bill_orders: /);
    const sellerAsks = await t.web(
      seller.session,
      "POST",
      "/api/market/bill_order/ask_seller_to_send_offer",
      {
        bill_orders: [order.id],
        game: "csgo",
      },
    );
    assert.equal(sellerAsks.statusCode, 404, "only the buyer asks the seller");
    const notified = await t.web(
      stranger.session,
      "POST",
      "/api/market/bill_order/notify_buyer_to_send_offer",
      {
        bill_order_id: order.id,
        game: "csgo",
      },
    );
    assert.equal(notified.statusCode, 404);
    const history = await t.web(stranger.session, "GET", "/api/market/buy_order/history?game=csgo");
    const listed = history.json().data.items.map((item: { id: string }) => item.id);
    assert.ok(!listed.includes(order.id), "another's purchase is not in the stranger's history");
  });

  test("notify_buyer_to_send_offer hands the offer to the buyer: the seller's send_offer is refused after", async () => {
    const [id] = await listNew(t, seller, { market_hash_name: STICKER }, [1.25]);
    const order = (await buy(buyer.session, id!, 1.25)).json().data;
    assert.equal(order.is_seller_asked_to_send_offer, true);
    const notified = await t.web(buyer.session, "POST", "/api/market/bill_order/notify_buyer_to_send_offer", {
      bill_order_id: order.id,
      game: "csgo",
    });
    assert.equal(notified.statusCode, 200, notified.body);
    assert.deepEqual(notified.json(), { code: "OK", data: {}, msg: null });
    const info = await t.web(
      buyer.session,
      "GET",
      `/api/market/bill_order/batch/info?bill_orders=${order.id}`,
    );
    assert.equal(info.json().data.items[0].is_seller_asked_to_send_offer, false);
    assert.equal(info.json().data.items[0].mode, 2);
    const sent = await t.as(seller.token, "POST", "/api/market/developer/sell_order/send_offer", {
      order_id: order.id,
    });
    assert.equal(sent.statusCode, 409, sent.body);
    assert.match(sent.body, /the buyer sends the trade offer/);
    // Asking the seller again gives the offer back to the seller, who may send it.
    const asked = await t.web(buyer.session, "POST", "/api/market/bill_order/ask_seller_to_send_offer", {
      bill_orders: [order.id],
      game: "csgo",
    });
    assert.equal(asked.statusCode, 200, asked.body);
    const resent = await t.as(seller.token, "POST", "/api/market/developer/sell_order/send_offer", {
      order_id: order.id,
    });
    assert.equal(resent.statusCode, 200, resent.body);
    await t.assertLedger();
  });

  test("a party whose stored cookies the platform stopped accepting is flagged in the bill order, and clears on upload", async () => {
    const [id] = await listNew(t, seller, { market_hash_name: STICKER }, [1.5]);
    const order = (await buy(buyer.session, id!, 1.5)).json().data;
    assert.equal(order.buyer_cookie_invalid, false);
    assert.equal(order.seller_cookie_invalid, false);
    const expired = await t.admin("POST", `/sandbox/platform/accounts/${seller.platformid}/cookies/expire`);
    assert.equal(expired.statusCode, 200, expired.body);
    await t.admin("POST", "/sandbox/jobs/run");
    for (const session of [buyer.session, seller.session]) {
      const item = (await batch(session, order.id)).json().data.items[0];
      assert.equal(item.seller_cookie_invalid, true, "the check marked the seller's cookies");
      assert.equal(item.buyer_cookie_invalid, false, "the buyer's cookies still hold");
    }
    const fresh = (await t.admin("POST", `/sandbox/platform/accounts/${seller.platformid}/cookies`)).json()
      .cookies;
    assert.equal((await uploadCookies(t, seller, fresh)).statusCode, 200);
    assert.equal((await batch(buyer.session, order.id)).json().data.items[0].seller_cookie_invalid, false);
  });

  test("listings and the buy-order book carry pay_method codes no tool misreads", async () => {
    const [id] = await listNew(t, seller, { market_hash_name: STICKER }, [7], { allow_epay: false });
    const page = await t.app.inject({
      method: "GET",
      url: `/api/market/goods/sell_order?game=csgo&goods_id=${stickerId}&page_size=80`,
    });
    const listing = page.json().data.items.find((item: { id: string }) => item.id === id);
    assert.deepEqual(listing.supported_pay_methods, [3, 101, 102]);
    assert.deepEqual(listing.supported_pay_channels, ["balance", "margin", "wallet"]);

    for (const pay_method of [undefined, "balance", "margin"]) {
      const created = await t.as(buyer.token, "POST", "/api/market/developer/buy_order", {
        game: "cs2",
        goods_id: redlineId,
        price: 0.5,
        num: 1,
        ...(pay_method ? { pay_method } : {}),
      });
      assert.equal(created.statusCode, 200, created.body);
    }
    const book = await t.app.inject({
      method: "GET",
      url: `/api/market/goods/buy_order?game=csgo&goods_id=${redlineId}`,
    });
    const items = book.json().data.items as Array<{ pay_method: number; supported_pay_channels: string[] }>;
    assert.deepEqual(
      items.map((item) => item.pay_method),
      [3, 3, 3],
    );
    assert.deepEqual(
      items.map((item) => item.supported_pay_channels),
      [["balance", "margin"], ["balance"], ["margin"]],
    );
  });
});
