import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MarketApiError, MarketClient, SandboxClient } from "@skinmarket/client";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../support/test-app.ts";

/** A whole sale through the client SDK over real HTTP: list, buy, send the offer, accept, settle. */
describe("trading through the client SDK", () => {
  let t: TestApp;
  let sandbox: SandboxClient;
  let baseUrl: string;
  before(async () => {
    t = await createTestApp({ catalog: true });
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    sandbox = new SandboxClient({ baseUrl, token: ADMIN_TOKEN });
  });
  after(() => t.close());

  async function trader() {
    const user = await sandbox.createUser();
    const account = await sandbox.createPlatformAccount(user.user_id);
    const market = new MarketClient({ baseUrl, token: user.token });
    await market.uploadPlatformCookies(account.platformid, account.cookies);
    await market.setupPlatformAccount(account.platformid);
    return { user, account, market };
  }

  test("a seller lists, a buyer buys, the offer is accepted, the seller is paid", async () => {
    const seller = await trader();
    const buyer = await trader();
    const granted = await sandbox.grantItems(seller.account.platformid, {
      market_hash_name: "Sticker | Crown (Foil)",
      count: 2,
    });
    const assetids = granted.assets.map((asset) => asset.assetid);
    const listed = await seller.market.listItems(assetids.map((assetid) => ({ assetid, price: "20.00" })));
    assert.equal(listed[assetids[0]!], "OK");
    const onSale = await seller.market.getOnSale();
    assert.equal(onSale.data.total_count, 2);
    const goodsId = granted.assets[0]!.goods_id;
    await sandbox.fundAccount(buyer.user.user_id, { account: "balance", amount: "25" });
    assert.deepEqual(await buyer.market.purchaseQuantity({ goods_id: goodsId, max_price: 20 }), {
      quantity: 2,
    });
    const bought = await buyer.market.purchase({
      items: [{ goods_id: goodsId, max_price: 20, quantity: 2 }],
    });
    const entry = bought.result[String(goodsId)]!;
    assert.equal(entry.success_num, 1);
    assert.equal(entry.msg, "insufficient funds for the next unit");
    const orderId = entry.bill_order_ids[0]!;
    await seller.market.sendOffer(orderId);
    const [order] = (await buyer.market.listPurchaseOrders()).items;
    assert.equal(order?.trade_offer_status, "trading");
    await sandbox.acceptOffer(order!.tradeofferid!);
    await sandbox.runJobs();
    const history = await seller.market.sellOrderHistory({ state: "SUCCESS" });
    assert.equal(history.items[0]?.id, orderId);
    assert.equal((await seller.market.getBalance()).market_balance, "19.50");
    await assert.rejects(
      seller.market.sendOffer(orderId),
      (error: unknown) => error instanceof MarketApiError && error.code === "Invalid State",
    );
    assert.deepEqual(await buyer.market.cancelPurchaseOrders([orderId]), {
      success_list: [],
      error_list: { [orderId]: "the order is finished" },
    });
    await t.assertLedger();
  });
  test("a buyer bids, a seller supplies and another lists into the bid; the sandbox sees the orders", async () => {
    const buyer = await trader();
    const supplier = await trader();
    const lister = await trader();
    await sandbox.fundAccount(buyer.user.user_id, { account: "margin", amount: "30" });
    const granted = await sandbox.grantItems(supplier.account.platformid, {
      market_hash_name: "Sticker | Crown (Foil)",
      count: 1,
    });
    const goodsId = granted.assets[0]!.goods_id;
    const order = await buyer.market.createBuyOrder({ goods_id: goodsId, price: "10.00", num: 2 });
    assert.equal(order.state, "progressing");
    const supplied = await supplier.market.supplyBuyOrder(order.id, [granted.assets[0]!.assetid]);
    assert.equal(supplied[granted.assets[0]!.assetid], "OK");
    const [listedAsset] = (
      await sandbox.grantItems(lister.account.platformid, {
        market_hash_name: "Sticker | Crown (Foil)",
        count: 1,
      })
    ).assets;
    await lister.market.listItems([{ assetid: listedAsset!.assetid, price: "9.00" }]);
    const [mine] = (await buyer.market.listBuyOrders({ order_state: "progressing" })).items;
    assert.equal(mine?.frozen_num, 2);
    assert.equal((await buyer.market.getBalance()).margin_balance, "10.00");
    const seen = await sandbox.listBuyOrders(buyer.user.user_id);
    assert.equal(seen.items[0]?.id, order.id);
    assert.deepEqual(await buyer.market.cancelBuyOrders([order.id]), { [order.id]: "OK" });
    await assert.rejects(
      buyer.market.createBuyOrder({ goods_id: goodsId, price: "10.00", num: 2 }),
      (error) => {
        assert.ok(error instanceof MarketApiError);
        assert.equal(error.code, "Insufficient Balance");
        return true;
      },
    );
    await t.assertLedger();
  });
});
