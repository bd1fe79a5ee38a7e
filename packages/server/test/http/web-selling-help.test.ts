import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { goodsIdOf, grantOne } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { createWebTrader, type WebTrader } from "../support/web-trader.ts";

const INVENTORY = "/api/market/steam_inventory?game=csgo&page_num=1&page_size=100";
const SUPPLY = "/api/market/developer/buy_order/supply";
const STICKER = "Sticker | Crown (Foil)";

interface Inventory {
  items: Array<{
    assetid: string;
    buy_max_price: string;
    sell_now_price: string;
    progress: number;
    open_trade_id: string | null;
  }>;
  seller_fee: { basis_points: number; min: string };
  bought_prices: Record<string, string>;
}

/**
 * The selling help the inventory page shows (docs/design/website-actions.md#selling-help): the
 * marketplace's fee rule and what the user paid for items bought here, in the inventory's answer;
 * and selling an item to a buy order with the website session (`buy_order/supply`, `sessionToo`).
 */
describe("website selling help: fee rule, purchase prices, sell now to a buy order", () => {
  let t: TestApp;
  let seller: WebTrader;
  let buyer: WebTrader;
  let stickerId: number;

  const inventory = async (trader: WebTrader, force = 0) => {
    const response = await t.web(trader.session, "GET", `${INVENTORY}&force=${force}`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ data: Inventory }>().data;
  };
  const placeBuyOrder = async (trader: WebTrader, price: string) => {
    await t.fund(trader.userId, "balance", price);
    const created = await t.as(trader.token, "POST", "/api/market/developer/buy_order", {
      game: "cs2",
      goods_id: stickerId,
      price,
      num: 1,
    });
    assert.equal(created.statusCode, 200, created.body);
    return created.json<{ id: string }>().id;
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createWebTrader(t, "helpseller");
    buyer = await createWebTrader(t, "helpbuyer");
    stickerId = await goodsIdOf(t, STICKER);
  });
  after(() => t.close());

  test("happy: the inventory answers the fee rule the server applies, and the price of an item bought here", async () => {
    const assetid = await grantOne(t, seller.platformid, { market_hash_name: STICKER });
    const listed = await t.web(seller.session, "POST", "/api/market/sell_order/create/manual_plus", {
      game: "csgo",
      assets: [{ assetid, price: "7.00" }],
    });
    assert.equal(listed.json<{ data: Record<string, string> }>().data[assetid], "OK", listed.body);
    const before = await inventory(seller);
    assert.deepEqual(before.seller_fee, { basis_points: 250, min: "0.01" });
    assert.deepEqual(before.bought_prices, {}, "nothing of the seller's was bought here");

    await t.fund(buyer.userId, "balance", 7);
    const bought = await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [{ goods_id: stickerId, max_price: 7, quantity: 1 }],
    });
    assert.equal(bought.json().result[String(stickerId)].success_num, 1, bought.body);
    const sales = await t.as(seller.token, "POST", "/api/market/developer/sell_order/history", {
      game: "cs2",
    });
    const sale = sales.json<{ items: Array<{ id: string; state: string }> }>().items[0]!;
    const sent = await t.as(seller.token, "POST", "/api/market/developer/sell_order/send_offer", {
      order_id: sale.id,
    });
    assert.equal(sent.statusCode, 200, sent.body);
    const trading = await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders/list", {
      game: "cs2",
      state: "PAYING",
    });
    const offer = trading
      .json<{ items: Array<{ tradeofferid?: string }> }>()
      .items.find((row) => row.tradeofferid);
    assert.ok(offer, trading.body);
    await t.admin("POST", `/sandbox/platform/offers/${offer.tradeofferid}/accept`);
    await t.admin("POST", "/sandbox/jobs/run");

    const after = await inventory(buyer, 1);
    const prices = Object.values(after.bought_prices);
    assert.deepEqual(prices, ["7.00"], JSON.stringify(after.bought_prices));
    const received = Object.keys(after.bought_prices)[0]!;
    assert.ok(
      after.items.some((item) => item.assetid === received),
      "the priced item is on the page",
    );
    assert.deepEqual((await inventory(seller)).bought_prices, {}, "the price is the buyer's alone");
  });

  test("happy: a seller sells an item to the highest buy order with the website session", async () => {
    const orderId = await placeBuyOrder(buyer, "9.00");
    const assetid = await grantOne(t, seller.platformid, { market_hash_name: STICKER });
    const item = (await inventory(seller, 1)).items.find((entry) => entry.assetid === assetid)!;
    assert.equal(item.buy_max_price, "9.00", "the inventory shows the order to sell to");
    assert.equal(item.sell_now_price, "9.00", "another user's order is one to sell to");
    const sold = await t.web(seller.session, "POST", SUPPLY, {
      game: "cs2",
      buy_order_id: orderId,
      assets: [assetid],
    });
    assert.equal(sold.statusCode, 200, sold.body);
    const answer = sold.json<
      Record<string, unknown> & { bill_orders: Record<string, { bill_order_id: string }> }
    >();
    assert.equal(answer[assetid], "OK");
    assert.match(answer.bill_orders[assetid]!.bill_order_id, /^\d+$/);
    await t.assertLedger();
    const inTrade = (await inventory(seller)).items.find((entry) => entry.assetid === assetid)!;
    assert.equal(
      inTrade.open_trade_id,
      answer.bill_orders[assetid]!.bill_order_id,
      "the item is in its trade",
    );
    assert.equal(inTrade.progress, 0, "the real website's codes stay: it is not on sale");
    const idle = (await inventory(seller)).items.filter((entry) => entry.assetid !== assetid);
    assert.ok(
      idle.every((entry) => entry.open_trade_id === null),
      "items in no trade say so",
    );
  });

  test("happy: the price to sell now at leaves out the user's own orders, which buy_max_price counts", async () => {
    // The seller bids above the buyer's 9.00 for the goods they hold.
    const own = await placeBuyOrder(seller, "15.00");
    const assetid = await grantOne(t, seller.platformid, { market_hash_name: STICKER });
    const item = (await inventory(seller, 1)).items.find((entry) => entry.assetid === assetid)!;
    assert.equal(item.buy_max_price, "15.00", "the goods' highest buy order, the seller's own");
    assert.ok(Number(item.sell_now_price) < 15, `${item.sell_now_price}: not the seller's own order`);
    const cancelled = await t.as(seller.token, "DELETE", "/api/market/developer/buy_order", {
      game: "cs2",
      buy_order_ids: [own],
    });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
  });

  test("errors: a bad body is refused naming the field; one's own order is refused naming it", async () => {
    const missing = await t.web(seller.session, "POST", SUPPLY, {
      game: "cs2",
      buy_order_id: "1",
      assets: [],
    });
    assert.equal(missing.statusCode, 400, missing.body);
    assert.match(missing.body, /assets/);
    const own = await placeBuyOrder(seller, "3.00");
    const assetid = await grantOne(t, seller.platformid, { market_hash_name: STICKER });
    const refused = await t.web(seller.session, "POST", SUPPLY, {
      game: "cs2",
      buy_order_id: own,
      assets: [assetid],
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.body, /buy_order_id/);
  });

  test("security: the session sells only with the CSRF token, and only one's own items", async () => {
    const orderId = await placeBuyOrder(buyer, "4.00");
    const assetid = await grantOne(t, seller.platformid, { market_hash_name: STICKER });
    const body = { game: "cs2", buy_order_id: orderId, assets: [assetid] };
    const noToken = await t.app.inject({
      method: "POST",
      url: SUPPLY,
      headers: { cookie: seller.session.cookie },
      payload: body,
    });
    assert.equal(noToken.statusCode, 403, noToken.body);
    const anonymous = await t.app.inject({ method: "POST", url: SUPPLY, payload: body });
    assert.equal(anonymous.statusCode, 401, anonymous.body);
    const stranger = await createWebTrader(t, "helpstranger");
    const theft = await t.web(stranger.session, "POST", SUPPLY, body);
    assert.notEqual(theft.json<Record<string, unknown>>()[assetid], "OK", theft.body);
    const stillMine = (await inventory(seller, 1)).items.find((item) => item.assetid === assetid);
    assert.ok(stillMine, "the item stays with its owner");
  });
});
