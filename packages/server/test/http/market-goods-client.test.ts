import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { SandboxClient, WebClient } from "@skinmarket/client";
import { createReadyTrader, goodsIdOf, grant } from "../support/platform-world.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../support/test-app.ts";

const REDLINE = "AK-47 | Redline (Field-Tested)";

/** The WebClient's goods pages and bookmarks over real HTTP, keeping the session cookie. */
describe("WebClient goods pages", () => {
  let t: TestApp;
  let baseUrl: string;
  let redlineId: number;
  before(async () => {
    t = await createTestApp({ catalog: true });
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    redlineId = await goodsIdOf(t, REDLINE);
    const seller = await createReadyTrader(t, "sdk-seller");
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 1 });
    const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price: "15.50" }],
    });
    assert.equal(listed.statusCode, 200, listed.body);
    await new SandboxClient({ baseUrl, token: ADMIN_TOKEN }).createUser({
      nickname: "sdk-viewer",
      password: "sdk-password",
    });
  });
  after(() => t.close());

  test("anonymous pages answer; the catalog and bookmarks need the signed-in session", async () => {
    const web = new WebClient({ baseUrl });
    const info = await web.getGoodsInfo(redlineId);
    assert.equal(info.data.sell_min_price, "15.50");
    assert.equal(info.data.bookmarked, false);
    const listings = await web.getGoodsSellOrders(redlineId, { sort_by: "price.desc" });
    assert.equal(listings.data.items.length, 1);
    assert.equal(listings.data.sort_by, "price.desc");
    assert.deepEqual((await web.getPriceHistory(redlineId, 7)).data.price_history, []);
    assert.deepEqual((await web.getBillOrders(redlineId)).data.items, []);
    const visitorCatalog = await web.listCatalogGoods({ search: "ak47 redline" });
    assert.ok(visitorCatalog.data.items.some((item) => item.id === redlineId));

    await web.login("sdk-viewer", "sdk-password");
    const added = await web.addBookmark("goods", String(redlineId));
    assert.equal(added.data.bookmarked, true);
    assert.equal((await web.getGoodsInfo(redlineId)).data.bookmarked, true);
    const bookmarks = await web.listBookmarks();
    assert.deepEqual(
      bookmarks.data.items.map((item) => [item.type, item.goods.id]),
      [["goods", redlineId]],
    );
    assert.equal(bookmarks.data.items[0]?.alert, null);
    const alert = await web.setBookmarkAlert({ id: String(redlineId), sell_at: "15.00" });
    assert.deepEqual([alert.data.alert.sell_at, alert.data.alert.sell_reached], ["15.00", false]);
    assert.equal((await web.listBookmarks()).data.items[0]?.alert?.sell_at, "15.00");
    const catalog = await web.listCatalogGoods({ search: "Redline", sort_by: "price.asc", page_size: 5 });
    assert.equal(catalog.data.items[0]?.id, redlineId);
    assert.equal(catalog.data.items[0]?.sell_min_price, "15.50");
    const removed = await web.removeBookmark("goods", String(redlineId));
    assert.equal(removed.data.bookmarked, false);
    assert.equal((await web.getGoodsInfo(redlineId)).data.bookmarked, false);
  });
});
