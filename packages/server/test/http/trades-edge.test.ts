import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, goodsIdOf, grantOne, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";

describe("items that are already on their way", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let goodsId: number;
  const post = (trader: PlatformFixture, path: string, body: unknown) =>
    t.as(trader.token, "POST", `/api/market/developer/${path}`, body);

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createReadyTrader(t, "seller");
    buyer = await createReadyTrader(t, "buyer");
    await t.fund(buyer.userId, "balance", 100);
    goodsId = await goodsIdOf(t, STICKER);
  });
  after(() => t.close());

  test("a sold item cannot be listed again while its trade is not finished", async () => {
    const assetid = await grantOne(t, seller.platformid, { market_hash_name: STICKER });
    await post(seller, "sell_order/items", { game: "cs2", assets: [{ assetid, price: 5 }] });
    const bought = (
      await post(buyer, "purchase/orders", {
        game: "cs2",
        items: [{ goods_id: goodsId, max_price: 5, quantity: 1 }],
      })
    ).json();
    assert.equal(bought.result[String(goodsId)].success_num, 1);
    const again = await post(seller, "sell_order/items", { game: "cs2", assets: [{ assetid, price: 6 }] });
    assert.equal(again.json()[assetid], "in a trade that is not finished");
    await t.assertLedger();
  });

  test("a listing whose item the seller trades away elsewhere is withdrawn at once, and never sold", async () => {
    const assetid = await grantOne(t, seller.platformid, { market_hash_name: STICKER });
    const listed = await post(seller, "sell_order/items", { game: "cs2", assets: [{ assetid, price: 4 }] });
    const listingId = listed.json().sell_orders[assetid].sell_order_id;
    const stateOfListing = async () =>
      (
        await t.database.db
          .selectFrom("listings")
          .select("state")
          .where("listing_id", "=", Number(listingId))
          .executeTakeFirstOrThrow()
      ).state;
    const offer = await t.admin("POST", "/sandbox/platform/offers", {
      platformid: seller.platformid,
      trade_url: buyer.tradeUrl,
      assetids: [assetid],
    });
    // An offer alone moves nothing: the item is still the seller's and still on sale.
    assert.equal(await stateOfListing(), "ON_SALE");
    await t.admin("POST", `/sandbox/platform/offers/${offer.json().tradeofferid}/accept`);
    assert.equal(await stateOfListing(), "CANCELLED");
    const onSale = await t.as(seller.token, "GET", "/api/market/developer/sell_order/on_sale?game=cs2");
    assert.ok(!JSON.stringify(onSale.json()).includes(`"${listingId}"`));
    const bought = (
      await post(buyer, "purchase/orders", {
        game: "cs2",
        items: [{ goods_id: goodsId, max_price: 4, quantity: 1 }],
      })
    ).json();
    assert.equal(bought.result[String(goodsId)].success_num, 0);
    assert.equal(await stateOfListing(), "CANCELLED");
    await t.assertLedger();
  });
});
