import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MarketApiError, MarketClient, SandboxClient } from "@skinmarket/client";
import { LimiterStore } from "../../src/http/limits/limiter-store.ts";
import { createReadyTrader, goodsIdOf, grant } from "../support/platform-world.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";

/** The price operations and the liquidity recomputation through the client package, over real HTTP. */
describe("market data through the SDK", () => {
  let t: TestApp;
  let store: LimiterStore;
  let baseUrl: string;
  let sandbox: SandboxClient;
  let stickerId: number;
  before(async () => {
    store = new LimiterStore({ log: { warn() {}, info() {} } });
    t = await createTestApp({ catalog: true, limits: { store } });
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    sandbox = new SandboxClient({ baseUrl, token: ADMIN_TOKEN });
    const seller = await createReadyTrader(t);
    stickerId = await goodsIdOf(t, STICKER);
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 1 });
    await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price: 4.2 }],
    });
  });
  after(async () => {
    await t.close();
    await store.close();
  });

  test("an enterprise bot reads prices, float figures and ranks; a developer bot the float figures", async () => {
    const corp = await sandbox.createUser({ access_level: "enterprise" });
    const enterprise = new MarketClient({ baseUrl, token: corp.token });
    const computed = await sandbox.recomputeLiquidityRanks();
    assert.equal(computed.ranked_goods, 0);
    const items = await enterprise.getEnterpriseItems();
    assert.deepEqual(items.info.find((entry) => entry.goods_id === stickerId)?.sales, [
      { min_price: "4.20", pre_sell_min_price: "0.00", buy_max_price: "0.00" },
    ]);
    assert.equal(items.req_remaining, 4999);
    const float = await enterprise.getEnterpriseFloatItems({ goods_id: stickerId });
    assert.equal(float.info[0]!.sales[0]!.avg_min_price, "4.20");
    const ranks = await enterprise.getLiquidityRanks({ market_hash_name: STICKER });
    assert.equal(ranks.info[0]!.sales[0]!.liquidity_rank, "0.00%");
    const dev = await sandbox.createUser();
    const developer = new MarketClient({ baseUrl, token: dev.token });
    const listed = await developer.getFloatItems({ market_hash_names: [STICKER] });
    assert.equal(listed.info[0]!.sales[0]!.sell_num, 1);
    await assert.rejects(developer.getEnterpriseItems(), (error: unknown) => {
      assert.ok(error instanceof MarketApiError);
      assert.equal(error.code, "Access Denied");
      return true;
    });
  });
});
