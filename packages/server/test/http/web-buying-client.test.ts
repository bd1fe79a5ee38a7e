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
    await assert.rejects(
      web.notifyBuyerToSendOffer(bought.data.id),
      (error: unknown) => error instanceof MarketApiError && error.code === "Invalid State",
    );
    const history = await web.listBoughtItems({ page_size: 300 });
    assert.deepEqual(
      history.data.items.map((item) => item.id),
      [bought.data.id],
    );
  });
});
