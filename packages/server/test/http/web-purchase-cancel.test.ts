import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MarketApiError, WebClient } from "@skinmarket/client";
import { goodsIdOf } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { createWebTrader, listNew, type WebTrader } from "../support/web-trader.ts";

const CANCEL = "/api/market/bill_order/deliver/cancel";
const STICKER = "Sticker | Crown (Foil)";

/** The website's `bill_order/deliver/cancel`: a buyer gives up on an undelivered purchase. */
describe("website purchases: bill_order/deliver/cancel", () => {
  let t: TestApp;
  let baseUrl: string;
  let buyer: WebTrader;
  let seller: WebTrader;
  let stranger: WebTrader;
  let stickerId: number;

  /** A purchase of a new listing at `price`, through the official operation; answers its id. */
  const purchase = async (price: number): Promise<string> => {
    await listNew(t, seller, { market_hash_name: STICKER }, [price]);
    const bought = await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [{ goods_id: stickerId, max_price: price, quantity: 1 }],
    });
    assert.equal(bought.statusCode, 200, bought.body);
    return bought.json().result[String(stickerId)].bill_order_ids[0] as string;
  };
  const stateOf = async (id: string) =>
    (
      await t.database.db
        .selectFrom("trades")
        .select(["state", "rollback_by"])
        .where("trade_id", "=", Number(id))
        .executeTakeFirstOrThrow()
    ).state;
  const cancel = (trader: WebTrader, id: string) =>
    t.web(trader.session, "POST", CANCEL, { game: "csgo", bill_order_id: id });

  before(async () => {
    t = await createTestApp({ catalog: true });
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    buyer = await createWebTrader(t, "web-cancel-buyer");
    seller = await createWebTrader(t, "web-cancel-seller");
    stranger = await createWebTrader(t, "web-cancel-stranger");
    stickerId = await goodsIdOf(t, STICKER);
    await t.fund(buyer.userId, "balance", 50);
  });
  after(() => t.close());

  test("error: before 30 minutes of waiting the purchase is not cancelled, and says how long is left", async () => {
    const id = await purchase(4);
    const early = await cancel(buyer, id);
    assert.equal(early.statusCode, 409, early.body);
    assert.equal(early.json().code, "Invalid State");
    assert.match(early.json().error, /30 minutes after the purchase to deliver; \d+ min left/);
    assert.equal(await stateOf(id), "SELLER_TO_SEND_OFFER");
    await t.assertLedger();
  });

  test("the bill order tells the buyer when they may cancel: the seconds left, 0 once they may, null when it ended", async () => {
    const id = await purchase(3);
    const timeout = async () => {
      const answer = await t.web(buyer.session, "GET", `/api/market/bill_order/batch/info?bill_orders=${id}`);
      assert.equal(answer.statusCode, 200, answer.body);
      return answer.json().data.items[0].buyer_cancel_timeout as number | null;
    };
    const atPurchase = await timeout();
    assert.ok(atPurchase !== null && atPurchase > 29 * 60 && atPurchase <= 30 * 60, `${atPurchase}`);
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 10 * 60 });
    // The sandbox clock also runs with real time between the reads: a few seconds less at most.
    const later = (await timeout())!;
    assert.ok(later <= atPurchase - 10 * 60 && later > atPurchase - 10 * 60 - 60, `${later}`);
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 21 * 60 });
    assert.equal(await timeout(), 0);
    assert.equal((await cancel(buyer, id)).statusCode, 200);
    assert.equal(await timeout(), null);
  });

  test("happy: after 30 minutes the buyer cancels and is refunded; the sale fails as buyer_cancel", async () => {
    const balanceBefore = (await t.as(buyer.token, "GET", "/api/market/developer/balance")).json();
    const id = await purchase(5);
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 31 * 60 });
    const cancelled = await cancel(buyer, id);
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.deepEqual(cancelled.json(), { code: "OK", data: {}, msg: null });
    assert.equal(await stateOf(id), "FAIL");
    const history = (
      await t.as(seller.token, "POST", "/api/market/developer/sell_order/history", {
        game: "cs2",
        state: "FAIL",
      })
    ).json();
    assert.equal(history.items.find((item: { id: string }) => item.id === id).rollback_by, "buyer_cancel");
    const balanceAfter = (await t.as(buyer.token, "GET", "/api/market/developer/balance")).json();
    assert.equal(balanceAfter.market_balance, balanceBefore.market_balance, "the price came back");
    await t.assertLedger();

    const again = await cancel(buyer, id);
    assert.equal(again.statusCode, 409);
    assert.match(again.json().error, /finished/);
  });

  test("happy: the WebClient cancels with the session it keeps; signed out it is Login Required", async () => {
    const id = await purchase(3);
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 31 * 60 });
    const web = new WebClient({ baseUrl });
    await assert.rejects(
      web.cancelWebPurchase(id),
      (error: unknown) => error instanceof MarketApiError && error.code === "Login Required",
    );
    await web.login(buyer.nickname, buyer.password);
    assert.deepEqual(await web.cancelWebPurchase(id), { code: "OK", data: {}, msg: null });
    assert.equal(await stateOf(id), "FAIL");
    await t.assertLedger();
  });

  test("error: an unknown id is Not Found; a malformed one names the field", async () => {
    const unknown = await cancel(buyer, "999999999");
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, "Not Found");
    const malformed = await cancel(buyer, "abc");
    assert.equal(malformed.statusCode, 400);
    assert.match(malformed.body, /bill_order_id/);
  });

  test("security: another user's purchase is Not Found and stays; without the CSRF token or a session nothing happens", async () => {
    const id = await purchase(2);
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 31 * 60 });
    const theirs = await cancel(stranger, id);
    assert.equal(theirs.statusCode, 404);
    assert.equal(theirs.json().code, "Not Found");
    const forged = await t.app.inject({
      method: "POST",
      url: CANCEL,
      headers: { cookie: buyer.session.cookie },
      payload: { game: "csgo", bill_order_id: id },
    });
    assert.equal(forged.statusCode, 403);
    assert.match(forged.json().error, /x-csrftoken/);
    const anonymous = await t.app.inject({
      method: "POST",
      url: CANCEL,
      payload: { game: "csgo", bill_order_id: id },
    });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json().code, "Login Required");
    assert.equal(await stateOf(id), "SELLER_TO_SEND_OFFER", "still waiting for the seller");
    await t.assertLedger();
  });
});
