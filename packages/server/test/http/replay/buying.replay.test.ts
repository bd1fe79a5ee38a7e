import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { goodsIdOf, grantOne } from "../../support/platform-world.ts";
import { assertShape, type Shape } from "../../support/replay-shape.ts";
import { createTestApp, type TestApp } from "../../support/test-app.ts";
import { createWebTrader, listNew, type WebTrader } from "../../support/web-trader.ts";

const STICKER = "Sticker | Crown (Foil)";
const REDLINE = "AK-47 | Redline (Field-Tested)";

/** What tools read of a bill order (buffGo's PurchaseStatus item; Steamauto's history readers). */
const BILL_ORDER: Shape = {
  id: "string",
  goods_id: "integer",
  price: "string",
  state: "string",
  state_text: "string",
  pay_method: "integer",
  tradeofferid: ["null", "string"],
  transact_time: ["null", "integer"],
  created_at: "integer",
  sell_order_id: "string",
  asset_info: {
    appid: "integer",
    assetid: "string",
    classid: "string",
    contextid: "integer",
    paintwear: "string",
  },
};

/**
 * The website's buying routes as real tools call them (docs/design/website-account-and-selling-routes.md#the-websites-session-and-account-routes, the buying
 * routes): each test sends what the tool's code sends and checks every field it reads.
 */
describe("replay: the website's buying routes", () => {
  let t: TestApp;
  let seller: WebTrader;
  let buyer: WebTrader;
  let stickerId: number;
  let redlineId: number;

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createWebTrader(t, "rp-seller");
    buyer = await createWebTrader(t, "rp-buyer");
    stickerId = await goodsIdOf(t, STICKER);
    redlineId = await goodsIdOf(t, REDLINE);
    await t.fund(buyer.userId, "balance", 50);
  });
  after(() => t.close());

  // luobeichen/BuffApi BuffApiPublic.py and jiajiaxd/Steamauto BuffApi/__init__.py,
  // get_available_payment_methods: params game, sell_order_id, goods_id, price (a Python float);
  // reads data.pay_methods[0] (balance, "buff-alipay") and [2] (bank card), `.error` and `.balance`.
  test("BuffApi BuffAccount.get_available_payment_methods", async () => {
    const [id] = await listNew(t, seller, { market_hash_name: STICKER }, [2.5]);
    const response = await t.web(
      buyer.session,
      "GET",
      `/api/market/goods/buy/preview?game=csgo&sell_order_id=${id}&goods_id=${stickerId}&price=2.5`,
    );
    assert.equal(response.statusCode, 200, response.body);
    const answer = response.json();
    assertShape(answer, {
      code: "string",
      data: {
        pay_methods: [{ error: ["null", "string"], balance: "string", value: "integer", enough: "boolean" }],
      },
    });
    const methods = answer.data.pay_methods;
    assert.ok(methods.length >= 3, "the tool indexes 0 and 2");
    // What the tool builds: {"buff-alipay": balance, "buff-bankcard": balance}.
    assert.equal(methods[0].error, null);
    assert.equal(methods[0].balance, "50.00");
    assert.equal(methods[0].value, 3, "the code buy_goods sends for buff-alipay");
    assert.equal(methods[2].error, null);
    assert.equal(methods[2].value, 1, "the code buy_goods sends for buff-bankcard");
    await t.as(seller.token, "DELETE", "/api/market/developer/sell_order/items", {
      game: "cs2",
      sell_orders: [id],
    });
  });

  // Userscripts and a Java bot (BuffBuyItemService.createBill): the preview with
  // allow_tradable_cooldown=0, an empty cdkey_id and a cache-busting `_`; they check code == "OK".
  test("BuffBuyItemService.createBill (preview with the page's extra parameters)", async () => {
    const [id] = await listNew(t, seller, { market_hash_name: STICKER }, [3]);
    const response = await t.web(
      buyer.session,
      "GET",
      `/api/market/goods/buy/preview?game=csgo&sell_order_id=${id}&goods_id=${stickerId}&price=3.00` +
        `&allow_tradable_cooldown=0&cdkey_id=&_=${Date.now()}`,
    );
    assert.equal(response.statusCode, 200, response.body);
    assertShape(response.json(), { code: "string", data: { pay_methods: "array" } });
    assert.equal(response.json().code, "OK");
    await t.as(seller.token, "DELETE", "/api/market/developer/sell_order/items", {
      game: "cs2",
      sell_orders: [id],
    });
  });

  // BuffApi buy_goods (both copies): GET /api/message/notification for the csrf cookie (its answer
  // unread), POST goods/buy {game, goods_id, price, sell_order_id, token: "", cdkey_id: "",
  // pay_method 3 | 1}, reads data.id; GET bill_order/batch/info?bill_orders=<id> (unread); POST
  // ask_seller_to_send_offer {bill_orders: [id], game}; success when msg is None and code "OK".
  for (const [payMethod, label] of [
    [3, "buff-alipay"],
    [1, "buff-bankcard"],
  ] as const) {
    test(`BuffApi BuffAccount.buy_goods (${label}, ask_seller_send_offer=True)`, async () => {
      const [id] = await listNew(t, seller, { market_hash_name: STICKER }, [1.5]);
      // The tool's priming request; its answer is not read (the route belongs to another area).
      await t.web(buyer.session, "GET", "/api/message/notification");
      const bought = await t.web(buyer.session, "POST", "/api/market/goods/buy", {
        game: "csgo",
        goods_id: stickerId,
        price: 1.5,
        sell_order_id: id,
        token: "",
        cdkey_id: "",
        pay_method: payMethod,
      });
      assert.equal(bought.statusCode, 200, bought.body);
      assertShape(bought.json(), { data: { id: "string" } });
      const billId = bought.json().data.id;
      await t.assertLedger();
      const info = await t.web(
        buyer.session,
        "GET",
        `/api/market/bill_order/batch/info?bill_orders=${billId}`,
      );
      assert.equal(info.statusCode, 200, info.body);
      const asked = await t.web(buyer.session, "POST", "/api/market/bill_order/ask_seller_to_send_offer", {
        bill_orders: [billId],
        game: "csgo",
      });
      const answer = asked.json();
      assert.ok(answer.msg === null && answer.code === "OK", `the tool reports 购买成功: ${asked.body}`);
      await t.assertLedger();
    });
  }

  // BuffApi buy_goods with ask_seller_send_offer=False: POST notify_buyer_to_send_offer
  // {bill_order_id, game}; the tool returns the answer itself unless msg is None and code "OK".
  test("BuffApi BuffAccount.buy_goods (ask_seller_send_offer=False)", async () => {
    const [id] = await listNew(t, seller, { market_hash_name: STICKER }, [1.75]);
    const bought = await t.web(buyer.session, "POST", "/api/market/goods/buy", {
      game: "csgo",
      goods_id: stickerId,
      price: 1.75,
      sell_order_id: id,
      token: "",
      cdkey_id: "",
      pay_method: 3,
    });
    const billId = bought.json().data.id;
    const notified = await t.web(buyer.session, "POST", "/api/market/bill_order/notify_buyer_to_send_offer", {
      bill_order_id: billId,
      game: "csgo",
    });
    // The tool reports 购买成功: the buyer now sends the offer (manual_plus/buyer_send_offer).
    assert.equal(notified.statusCode, 200, notified.body);
    const answer = notified.json();
    assert.ok(answer.msg === null && answer.code === "OK", notified.body);
    await t.assertLedger();
  });

  // jiajiaxd/Steamauto plugins/BuffAutoOnSale.py confirm_supply_order: the seller, after supplying
  // a buy order, GETs bill_order/batch/info?bill_orders=<id> and reads code, data.items (length)
  // and items[0].tradeofferid, waiting while it is None.
  test("Steamauto BuffAutoOnSale.confirm_supply_order", async () => {
    const order = await t.as(buyer.token, "POST", "/api/market/developer/buy_order", {
      game: "cs2",
      goods_id: redlineId,
      price: 5,
      num: 1,
    });
    assert.equal(order.statusCode, 200, order.body);
    const assetid = await grantOne(t, seller.platformid, { market_hash_name: REDLINE });
    const supplied = await t.as(seller.token, "POST", "/api/market/developer/buy_order/supply", {
      game: "cs2",
      buy_order_id: order.json().id,
      assets: [assetid],
    });
    assert.equal(supplied.statusCode, 200, supplied.body);
    const billId = supplied.json().bill_orders[assetid].bill_order_id as string;
    await t.assertLedger();
    const read = () =>
      t.web(seller.session, "GET", `/api/market/bill_order/batch/info?bill_orders=${billId}`);
    const waiting = (await read()).json();
    assertShape(waiting, { code: "string", data: { items: [{ tradeofferid: ["null", "string"] }] } });
    assert.equal(waiting.data.items.length, 1);
    assert.equal(waiting.data.items[0].tradeofferid, null, "the tool keeps waiting");
    await t.as(seller.token, "POST", "/api/market/developer/sell_order/send_offer", { order_id: billId });
    const sent = (await read()).json();
    assertShape(sent, { data: { items: [{ tradeofferid: "string" }] } });
    await t.assertLedger();
  });

  // Steamauto BuffProfitReport.get_buy_history and BuffAutoComment.get_buy_history:
  // GET buy_order/history?page_num=1&page_size=300&game=csgo; read code, data.items[].id,
  // goods_id, transact_time, state, price, asset_info.{appid, assetid, classid, contextid} and
  // data.goods_infos[str(goods_id)]; a page shorter than 300 ends the loop.
  test("Steamauto BuffProfitReport.get_buy_history / BuffAutoComment.get_buy_history", async () => {
    const response = await t.web(
      buyer.session,
      "GET",
      "/api/market/buy_order/history?page_num=1&page_size=300&game=csgo",
    );
    assert.equal(response.statusCode, 200, response.body);
    const answer = response.json();
    assertShape(answer, { code: "string", data: { items: [BILL_ORDER], goods_infos: "object" } });
    assert.ok(answer.data.items.length > 0 && answer.data.items.length < 300);
    for (const item of answer.data.items) assert.ok(answer.data.goods_infos[String(item.goods_id)]);
  });

  // CsJsss/CS2Ledger pkg/platform/buff fetchBuyPage: game=csgo, page_num, page_size=100; reads
  // code, data.items[].transact_time and state, data.total_page. A Java bot
  // (BuffBuyItemService.getBuyOrder) adds state=trading and appid=730.
  test("CS2Ledger buff.Client.fetchBuyPage and BuffBuyItemService.getBuyOrder", async () => {
    const ledger = await t.web(
      buyer.session,
      "GET",
      "/api/market/buy_order/history?game=csgo&page_num=1&page_size=100",
    );
    assertShape(ledger.json(), {
      code: "string",
      data: { items: [{ transact_time: ["null", "integer"], state: "string" }], total_page: "integer" },
    });
    const java = await t.web(
      buyer.session,
      "GET",
      "/api/market/buy_order/history?page_num=1&page_size=200&state=trading&game=csgo&appid=730",
    );
    assert.equal(java.statusCode, 200, java.body);
    assert.equal(java.json().code, "OK");
    assertShape(java.json(), { data: { items: [BILL_ORDER] } });
  });

  // Steamauto BuffAutoOnSale.get_highest_buy_order: GET goods/buy_order?goods_id=&page_num=1&
  // page_size=20&same_goods=false&game=csgo&appid=730; merge_buy_orders maps pay_method 43 to
  // [支付宝, 微信], 3 to [支付宝], 1 to [微信], anything else to []; with the default
  // supported_payment_method [支付宝] it takes the first order that has it. (only_auto_accept must
  // be off: no account here accepts automatically.)
  test("Steamauto BuffAutoOnSale.get_highest_buy_order takes the best bid", async () => {
    await t.fund(buyer.userId, "margin", 10);
    for (const [price, pay_method] of [
      [0.35, "balance"],
      [0.36, "margin"],
    ] as const) {
      const created = await t.as(buyer.token, "POST", "/api/market/developer/buy_order", {
        game: "cs2",
        goods_id: stickerId,
        price,
        num: 1,
        pay_method,
      });
      assert.equal(created.statusCode, 200, created.body);
    }
    const response = await t.app.inject({
      method: "GET",
      url: `/api/market/goods/buy_order?goods_id=${stickerId}&page_num=1&page_size=20&same_goods=false&game=csgo&appid=730`,
    });
    const answer = response.json();
    assertShape(answer, {
      code: "string",
      data: {
        items: [{ user_id: "string", pay_method: "integer", price: "string", specific: "array" }],
        user_infos: "object",
      },
    });
    const channels: Record<number, string[]> = { 43: ["支付宝", "微信"], 3: ["支付宝"], 1: ["微信"] };
    const chosen = (answer.data.items as Array<{ pay_method: number; price: string; user_id: string }>).find(
      (order) =>
        answer.data.user_infos[order.user_id] && (channels[order.pay_method] ?? []).includes("支付宝"),
    );
    assert.equal(chosen?.price, "0.36");
  });
});
