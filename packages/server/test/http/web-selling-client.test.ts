import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MarketApiError, WebClient } from "@skinmarket/client";
import { grant } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { createWebTrader, type WebTrader } from "../support/web-trader.ts";

const REDLINE = "AK-47 | Redline (Field-Tested)";

/** The WebClient's selling methods over real HTTP, with the session cookie it keeps. */
describe("WebClient selling", () => {
  let t: TestApp;
  let baseUrl: string;
  let seller: WebTrader;
  before(async () => {
    t = await createTestApp({ catalog: true });
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    seller = await createWebTrader(t, "sdkseller");
    await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 2 });
  });
  after(() => t.close());

  test("a signed-in seller lists, reprices, delists and reads the results; signed out is Login Required", async () => {
    const web = new WebClient({ baseUrl });
    await assert.rejects(
      web.getWebOnSale(),
      (error: unknown) => error instanceof MarketApiError && error.code === "Login Required",
    );
    await web.login(seller.nickname, seller.password);
    const inventory = await web.getWebInventory({ state: "cansell" });
    const [first, second] = inventory.data.items.map((item) => item.assetid);
    assert.ok(first && second);
    const listed = await web.createWebSellOrders([
      { assetid: first, price: "10.00" },
      { assetid: second, price: 11 },
    ]);
    assert.deepEqual(listed.data, { [first]: "OK", [second]: "OK" });
    await t.assertLedger();
    const onSale = await web.getWebOnSale({ sort_by: "price.asc" });
    const ids = onSale.data.items.map((item) => item.id);
    assert.deepEqual(
      onSale.data.items.map((item) => item.price),
      ["10.00", "11.00"],
    );
    assert.deepEqual((await web.changeWebSellOrders([{ sell_order_id: ids[0]!, price: "9.50" }])).data, {
      [ids[0]!]: "OK",
    });
    assert.deepEqual((await web.cancelWebSellOrders([ids[1]!])).data, { [ids[1]!]: "OK" });
    await t.assertLedger();
    const after = await web.getWebOnSale();
    assert.deepEqual(
      after.data.items.map((item) => [item.id, item.price]),
      [[ids[0], "9.50"]],
    );
    assert.deepEqual((await web.getWebSellHistory()).data.items, []);
    assert.equal((await web.getWebBackpack()).data.backpack_count, 0);
  });
});
