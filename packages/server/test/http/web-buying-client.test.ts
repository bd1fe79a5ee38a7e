import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MarketApiError, WebClient } from "@skinmarket/client";
import { WEB_PAY_METHOD_CODES } from "@skinmarket/contract";
import { goodsIdOf } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { createWebTrader, listNew } from "../support/web-trader.ts";

const STICKER = "Sticker | Crown (Foil)";

/** The WebClient's buying methods over real HTTP, keeping the session cookie. */
describe("WebClient buying", () => {
  let t: TestApp;
  let baseUrl: string;
  before(async () => {
    t = await createTestApp({ catalog: true });
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => t.close());

  test("preview, buy, read the bill order, ask the seller, list the purchase", async () => {
    const seller = await createWebTrader(t, "sdk-wb-seller");
    const buyer = await createWebTrader(t, "sdk-wb-buyer");
    await t.fund(buyer.userId, "balance", 10);
    const goodsId = await goodsIdOf(t, STICKER);
    const [id] = await listNew(t, seller, { market_hash_name: STICKER }, [4]);

    const web = new WebClient({ baseUrl });
    await assert.rejects(
      web.previewGoodsBuy(goodsId, id!, "4.00"),
      (error: unknown) => error instanceof MarketApiError && error.code === "Login Required",
    );
    await web.login(buyer.nickname, buyer.password);
    const preview = await web.previewGoodsBuy(goodsId, id!, "4.00");
    assert.equal(preview.data.pay_methods[0]?.value, WEB_PAY_METHOD_CODES.balance);
    assert.equal(preview.data.pay_methods[0]?.balance, "10.00");
    const bought = await web.buyGoods({
      goods_id: goodsId,
      sell_order_id: id!,
      price: "4.00",
      pay_method: WEB_PAY_METHOD_CODES.balance,
    });
    assert.equal(bought.data.state, "SELLER_TO_SEND_OFFER");
    await t.assertLedger();
    const batch = await web.getBillOrderBatch([bought.data.id]);
    assert.equal(batch.data.items[0]?.id, bought.data.id);
    assert.deepEqual(await web.askSellerToSendOffer([bought.data.id]), { code: "OK", data: {}, msg: null });
    assert.deepEqual(await web.notifyBuyerToSendOffer(bought.data.id), { code: "OK", data: {}, msg: null });
    assert.equal((await web.getNotification()).data.to_send_offer_order.csgo, 1);
    const sent = await web.buyerSendOffer([bought.data.id]);
    assert.deepEqual(sent.data, { [bought.data.id]: "OK" });
    await t.assertLedger();
    const history = await web.listBoughtItems({ page_size: 300 });
    assert.deepEqual(
      history.data.items.map((item) => item.id),
      [bought.data.id],
    );
  });

  test("the seller's delivery loop: preference, notification, to_deliver, seller_send_offer", async () => {
    const seller = await createWebTrader(t, "sdk-wd-seller");
    const buyer = await createWebTrader(t, "sdk-wd-buyer");
    await t.fund(buyer.userId, "balance", 10);
    const goodsId = await goodsIdOf(t, STICKER);
    const web = new WebClient({ baseUrl });
    await web.login(seller.nickname, seller.password);
    assert.deepEqual((await web.setForceBuyerSendOffer(false)).data, { force_buyer_send_offer: false });
    const [id] = await listNew(t, seller, { market_hash_name: STICKER }, [3]);
    const bought = await t.web(buyer.session, "POST", "/api/market/goods/buy", {
      game: "csgo",
      goods_id: goodsId,
      sell_order_id: id,
      price: 3,
      pay_method: WEB_PAY_METHOD_CODES.balance,
    });
    const billId = bought.json().data.id as string;
    assert.equal((await web.getNotification()).data.to_deliver_order.csgo, 1);
    const [sale] = (await web.getSalesToDeliver()).data.items;
    assert.equal(sale?.id, billId);
    assert.equal(sale?.tradeofferid, null);
    assert.deepEqual((await web.sellerSendOffer([billId])).data, { [billId]: "OK" });
    assert.match((await web.getSalesToDeliver()).data.items[0]?.tradeofferid ?? "", /^\d+$/);
    await t.assertLedger();
  });
});
