import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  createTraderWithAccount,
  grant,
  uploadCookies,
  type PlatformFixture,
} from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { usingPostgres } from "../support/test-database.ts";

const STICKER = "Sticker | Crown (Foil)";
const REDLINE = "AK-47 | Redline (Field-Tested)";

/** Purchases and the trade lifecycle, with the ledger invariants checked after every step. */
describe("purchases and trades", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let stickerId: number;

  const post = (token: string, path: string, body: unknown) =>
    t.as(token, "POST", `/api/market/developer/${path}`, body);
  const listFor = async (trader: PlatformFixture, goods: string, prices: number[]) => {
    const assetids = await grant(t, trader.platformid, { market_hash_name: goods, count: prices.length });
    const response = await post(trader.token, "sell_order/items", {
      game: "cs2",
      assets: assetids.map((assetid, i) => ({ assetid, price: prices[i] })),
    });
    return assetids.map((assetid) => response.json().sell_orders[assetid].sell_order_id as string);
  };
  const buy = (max_price: number, quantity: number, extra: Record<string, unknown> = {}) =>
    post(buyer.token, "purchase/orders", {
      game: "cs2",
      items: [{ goods_id: stickerId, max_price, quantity }],
      ...extra,
    });
  const balances = async (trader: PlatformFixture) =>
    (await t.admin("GET", `/sandbox/users/${trader.userId}/balances`)).json();
  const runJobs = () => t.admin("POST", "/sandbox/jobs/run");
  const ready = async (trader: PlatformFixture) => {
    await uploadCookies(t, trader);
    await post(trader.token, "platform/setup", { platformid: trader.platformid });
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createTraderWithAccount(t, "seller");
    buyer = await createTraderWithAccount(t, "buyer");
    await ready(seller);
    await ready(buyer);
    stickerId = (
      await t.database.db
        .selectFrom("goods")
        .select("goods_id")
        .where("market_hash_name", "=", STICKER)
        .executeTakeFirstOrThrow()
    ).goods_id;
  });
  after(() => t.close());

  test("a purchase takes the cheapest listings at or below max_price, paying from balance then margin", async () => {
    await listFor(seller, STICKER, [5, 6, 7]);
    await t.fund(buyer.userId, "balance", 10);
    await t.fund(buyer.userId, "margin", 5);
    const quantity = await t.as(
      buyer.token,
      "GET",
      `/api/market/developer/purchase/quantity?game=cs2&goods_id=${stickerId}&max_price=6.5`,
    );
    assert.deepEqual(quantity.json(), { quantity: 2 });
    const response = await buy(6.5, 3);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    const entry = body.result[String(stickerId)];
    assert.equal(entry.success_num, 2);
    assert.equal(entry.total_cost, 11);
    assert.equal(entry.bill_order_ids.length, 2);
    assert.equal(entry.msg, "no more listings at or below max_price");
    assert.equal(body.market_balance, 0);
    assert.deepEqual(await balances(buyer), {
      balance: "0.00",
      margin: "4.00",
      wallet: "0.00",
      escrow: "11.00",
    });
    await t.assertLedger();
    const history = (await post(seller.token, "sell_order/history", { game: "cs2" })).json();
    assert.equal(history.total_count, 2);
    assert.ok(history.items.every((item: { state: string }) => item.state === "SELLER_TO_SEND_OFFER"));
    const purchases = (await post(buyer.token, "purchase/orders/list", { game: "cs2" })).json();
    assert.ok(
      purchases.items.every(
        (item: { state: string; trade_offer_status?: string }) =>
          item.state === "PAYING" && item.trade_offer_status === undefined,
      ),
    );
  });

  test("a buyer never buys their own listing, nor non-standard goods", async () => {
    await listFor(buyer, STICKER, [1]);
    const own = (await buy(1, 1)).json().result[String(stickerId)];
    assert.equal(own.success_num, 0);
    const redline = await post(buyer.token, "purchase/orders", {
      game: "cs2",
      items: [{ market_hash_name: REDLINE, max_price: 100, quantity: 1 }],
    });
    const entry = Object.values(redline.json().result)[0] as { success_num: number; msg: string };
    assert.equal(entry.success_num, 0);
    assert.match(entry.msg, /only standard goods/);
    await t.assertLedger();
  });

  test("cancel: refused before 30 minutes of waiting, then refunds exactly what each account paid", async () => {
    const purchases = (
      await post(buyer.token, "purchase/orders/list", { game: "cs2", state: "PAYING" })
    ).json();
    const ids = purchases.items.map((item: { id: string; price: string }) => item);
    const six = ids.find((item: { price: string }) => item.price === "6.00").id;
    const early = (
      await t.as(buyer.token, "DELETE", "/api/market/developer/purchase/orders", {
        game: "cs2",
        order_ids: [six],
      })
    ).json();
    assert.deepEqual(early.success_list, []);
    assert.match(early.error_list[six], /30 minutes/);
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 31 * 60 });
    const stranger = await t.createUser();
    const theirs = (
      await t.as(stranger.token, "DELETE", "/api/market/developer/purchase/orders", {
        game: "cs2",
        order_ids: [six],
      })
    ).json();
    assert.equal(theirs.error_list[six], "no purchase order of yours with this id");
    const cancelled = (
      await t.as(buyer.token, "DELETE", "/api/market/developer/purchase/orders", {
        game: "cs2",
        order_ids: [six],
      })
    ).json();
    assert.deepEqual(cancelled, { success_list: [six], error_list: {} });
    assert.deepEqual(await balances(buyer), {
      balance: "5.00",
      margin: "5.00",
      wallet: "0.00",
      escrow: "5.00",
    });
    await t.assertLedger();
    const history = (await post(seller.token, "sell_order/history", { game: "cs2", state: "FAIL" })).json();
    assert.equal(history.items[0].rollback_by, "buyer_cancel");
  });

  test("the seller sends the offer, the buyer accepts: the seller is paid price less fee, the item moves", async () => {
    const pending = (
      await post(seller.token, "sell_order/history", { game: "cs2", state: "SELLER_TO_SEND_OFFER" })
    ).json();
    const order = pending.items[0];
    const sent = await post(seller.token, "sell_order/send_offer", { order_id: order.id });
    assert.equal(sent.statusCode, 200, sent.body);
    assert.deepEqual(sent.json(), {});
    const trading = (await post(buyer.token, "purchase/orders/list", { game: "cs2", state: "PAYING" })).json()
      .items[0];
    assert.equal(trading.trade_offer_status, "trading");
    assert.match(trading.tradeofferid, /^\d+$/);
    const again = await post(seller.token, "sell_order/send_offer", { order_id: order.id });
    assert.equal(again.statusCode, 409);
    const accepted = await t.admin("POST", `/sandbox/platform/offers/${trading.tradeofferid}/accept`);
    assert.equal(accepted.json().state, "accepted");
    await runJobs();
    const done = (await post(buyer.token, "purchase/orders/list", { game: "cs2", state: "SUCCESS" })).json()
      .items[0];
    assert.equal(done.trade_offer_status, "success");
    assert.deepEqual(await balances(seller), {
      balance: "4.87",
      margin: "0.00",
      wallet: "0.00",
      escrow: "0.00",
    });
    assert.equal((await balances(buyer)).escrow, "0.00");
    await t.assertLedger();
    const buyerAccount = (await t.admin("GET", `/sandbox/platform/accounts/${buyer.platformid}`)).json();
    assert.ok(buyerAccount.item_count >= 1);
  });

  test("a declined offer fails the trade and refunds the buyer; the item stays with the seller", async () => {
    await t.fund(buyer.userId, "wallet", 20);
    const bought = (await buy(7, 1, { pay_method: "wallet" })).json().result[String(stickerId)];
    assert.equal(bought.success_num, 1);
    const id = bought.bill_order_ids[0];
    await post(seller.token, "sell_order/send_offer", { order_id: id });
    const offer = (await post(buyer.token, "purchase/orders/list", { game: "cs2" }))
      .json()
      .items.find((item: { id: string }) => item.id === id);
    await t.admin("POST", `/sandbox/platform/offers/${offer.tradeofferid}/decline`);
    await runJobs();
    const failed = (await post(seller.token, "sell_order/history", { game: "cs2", state: "FAIL" }))
      .json()
      .items.find((item: { id: string }) => item.id === id);
    assert.equal(failed.rollback_by, "offer_declined");
    assert.equal((await balances(buyer)).wallet, "20.00");
    await t.assertLedger();
  });

  test("a seller who does not deliver within 12 hours fails the trade (seller_timeout)", async () => {
    await listFor(seller, STICKER, [3]);
    const bought = (await buy(3, 1, { pay_method: "wallet" })).json().result[String(stickerId)];
    assert.equal(bought.success_num, 1);
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 12 * 3600 + 1 });
    await runJobs();
    const history = (await post(seller.token, "sell_order/history", { game: "cs2" })).json();
    assert.equal(
      history.items.find((item: { id: string }) => item.id === bought.bill_order_ids[0]).rollback_by,
      "seller_timeout",
    );
    await t.assertLedger();
  });

  test("errors: send_offer needs the seller's own order, the right state and stored cookies", async () => {
    const other = await createTraderWithAccount(t);
    await listFor(other, STICKER, [2]);
    const bought = (await buy(2, 1, { pay_method: "wallet" })).json().result[String(stickerId)];
    const id = bought.bill_order_ids[0];
    assert.equal((await post(seller.token, "sell_order/send_offer", { order_id: id })).statusCode, 404);
    const noCookies = await post(other.token, "sell_order/send_offer", { order_id: id });
    assert.equal(noCookies.statusCode, 409);
    assert.match(noCookies.json().msg, /upload fresh cookies/);
    assert.equal((await post(other.token, "sell_order/send_offer", { order_id: "abc" })).statusCode, 400);
    const insufficient = await buy(100, 1, { pay_method: "margin" });
    assert.equal(insufficient.json().result[String(stickerId)].success_num, 0);
    const noUrl = await post((await t.createUser()).token, "purchase/orders", {
      game: "cs2",
      items: [{ goods_id: stickerId, max_price: 1, quantity: 1 }],
    });
    assert.equal(noUrl.statusCode, 400);
    assert.match(noUrl.json().msg, /^trade_url: no trade URL is known/);
    await t.assertLedger();
  });

  // On PostgreSQL the buyers really race on separate connections: 50 of them, 100 rounds in a row.
  const racers = usingPostgres ? 50 : 20;
  const rounds = usingPostgres ? 100 : 5;
  test(`concurrency: ${racers} buyers racing for one listing, ${rounds} rounds: exactly one wins each time (${usingPostgres ? "PostgreSQL" : "PGlite"})`, async () => {
    const buyers = await Promise.all(Array.from({ length: racers }, () => createTraderWithAccount(t)));
    for (const racer of buyers) {
      await t.fund(racer.userId, "balance", 100);
    }
    // A goods nobody else lists in this file, so each round has exactly one listing to fight over.
    const caseName = "Operation Phoenix Weapon Case";
    const caseId = (
      await t.database.db
        .selectFrom("goods")
        .select("goods_id")
        .where("market_hash_name", "=", caseName)
        .executeTakeFirstOrThrow()
    ).goods_id;
    for (let round = 0; round < rounds; round++) {
      await listFor(seller, caseName, [9]);
      const results = await Promise.all(
        buyers.map((racer) =>
          post(racer.token, "purchase/orders", {
            game: "cs2",
            trade_url: buyer.tradeUrl,
            items: [{ goods_id: caseId, max_price: 9, quantity: 1 }],
          }),
        ),
      );
      const wins = results.filter(
        (response) => response.json().result[String(caseId)].success_num === 1,
      ).length;
      assert.equal(wins, 1, `round ${round}: ${results[0]?.body}`);
      await t.assertLedger();
    }
  });
});
