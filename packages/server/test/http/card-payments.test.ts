import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, goodsIdOf, grantOne, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";

/** Card payments: the trade waits in PAYING until the sandbox card network answers. */
describe("bankcard purchases", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let goodsId: number;
  const post = (trader: PlatformFixture, path: string, body: unknown) =>
    t.as(trader.token, "POST", `/api/market/developer/${path}`, body);
  const history = async () => (await post(seller, "sell_order/history", { game: "cs2" })).json().items[0];
  const buyByCard = async () => {
    const assetid = await grantOne(t, seller.platformid, { market_hash_name: STICKER });
    await post(seller, "sell_order/items", { game: "cs2", assets: [{ assetid, price: 8 }] });
    const answer = (
      await post(buyer, "purchase/orders", {
        game: "cs2",
        pay_method: "bankcard",
        items: [{ goods_id: goodsId, max_price: 8, quantity: 1 }],
      })
    ).json();
    return answer.result[String(goodsId)].bill_order_ids[0] as string;
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createReadyTrader(t, "seller");
    buyer = await createReadyTrader(t, "buyer");
    goodsId = await goodsIdOf(t, STICKER);
  });
  after(() => t.close());

  test("a card payment confirms after five seconds: the money enters escrow and the seller's delivery time starts", async () => {
    const id = await buyByCard();
    assert.equal((await history()).state, "PAYING");
    const purchase = (await post(buyer, "purchase/orders/list", { game: "cs2" })).json().items[0];
    assert.equal(purchase.state, "PAYING");
    assert.equal((await t.admin("GET", `/sandbox/users/${buyer.userId}/balances`)).json().escrow, "0.00");
    const cancel = (
      await t.as(buyer.token, "DELETE", "/api/market/developer/purchase/orders", {
        game: "cs2",
        order_ids: [id],
      })
    ).json();
    assert.equal(cancel.error_list[id], "the card payment is being confirmed");
    await t.admin("POST", "/sandbox/jobs/run");
    assert.equal((await history()).state, "PAYING", "not before five seconds");
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 5 });
    await t.admin("POST", "/sandbox/jobs/run");
    assert.equal((await history()).state, "SELLER_TO_SEND_OFFER");
    assert.equal((await t.admin("GET", `/sandbox/users/${buyer.userId}/balances`)).json().escrow, "8.00");
    await t.assertLedger();
    await post(seller, "sell_order/send_offer", { order_id: id });
    const offer = (await post(buyer, "purchase/orders/list", { game: "cs2" })).json().items[0];
    await t.admin("POST", `/sandbox/platform/offers/${offer.tradeofferid}/decline`);
    await t.admin("POST", "/sandbox/jobs/run");
    assert.equal((await history()).rollback_by, "offer_declined");
    assert.equal((await t.admin("GET", `/sandbox/users/${buyer.userId}/balances`)).json().escrow, "0.00");
    await t.assertLedger();
  });

  test("a card the sandbox declines fails the trade with payment_failed and moves no money", async () => {
    const settings = await t.admin("PUT", `/sandbox/users/${buyer.userId}/settings`, { card_declines: true });
    assert.equal(settings.json().card_declines, true);
    await buyByCard();
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 5 });
    await t.admin("POST", "/sandbox/jobs/run");
    const failed = await history();
    assert.equal(failed.state, "FAIL");
    assert.equal(failed.rollback_by, "payment_failed");
    assert.deepEqual((await t.admin("GET", `/sandbox/users/${buyer.userId}/balances`)).json(), {
      balance: "0.00",
      margin: "0.00",
      wallet: "0.00",
      escrow: "0.00",
    });
    await t.assertLedger();
    await t.admin("PUT", `/sandbox/users/${buyer.userId}/settings`, { card_declines: false });
  });
});
