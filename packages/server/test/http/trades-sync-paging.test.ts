import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
// The hooks belong to the suite, not to the file: test files share a process, where a file's
// top-level hooks would run around every file's tests.
describe("sync-trades paging", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ catalog: true });
  });
  after(() => t.close());

  test("200 older trades with unanswered offers do not keep sync-trades from settling a newer one", async () => {
    const seller: PlatformFixture = await createReadyTrader(t, "seller");
    const buyer: PlatformFixture = await createReadyTrader(t, "buyer");
    await t.fund(buyer.userId, "balance", 1000);
    const goodsId = await goodsIdOf(t, STICKER);
    const post = (tr: PlatformFixture, path: string, body: unknown) =>
      t.as(tr.token, "POST", `/api/market/developer/${path}`, body);
    const assetids = [
      ...(await grant(t, seller.platformid, { market_hash_name: STICKER, count: 150 })),
      ...(await grant(t, seller.platformid, { market_hash_name: STICKER, count: 51 })),
    ];
    for (const chunk of [assetids.slice(0, 150), assetids.slice(150)]) {
      const r = await post(seller, "sell_order/items", {
        game: "cs2",
        assets: chunk.map((assetid) => ({ assetid, price: 1 })),
      });
      assert.equal(r.statusCode, 200, r.body);
    }
    const bought = (
      await post(buyer, "purchase/orders", {
        game: "cs2",
        items: [
          { goods_id: goodsId, max_price: 1, quantity: 200 },
          { goods_id: goodsId, max_price: 1, quantity: 1 },
        ],
      })
    ).json();
    const ids: string[] = bought.result[String(goodsId)].bill_order_ids;
    assert.equal(ids.length, 201);
    for (const id of ids)
      assert.equal((await post(seller, "sell_order/send_offer", { order_id: id })).statusCode, 200);
    const last = await t.database.db
      .selectFrom("trades")
      .select(["trade_id", "tradeofferid"])
      .orderBy("trade_id", "desc")
      .executeTakeFirstOrThrow();
    const acc = await t.admin("POST", `/sandbox/platform/offers/${last.tradeofferid}/accept`);
    assert.equal(acc.json().state, "accepted");
    await t.admin("POST", "/sandbox/jobs/run");
    await t.admin("POST", "/sandbox/jobs/run");
    const row = await t.database.db
      .selectFrom("trades")
      .select("state")
      .where("trade_id", "=", last.trade_id)
      .executeTakeFirstOrThrow();
    assert.equal(
      row.state,
      "SUCCESS",
      "accepted offer of trade #201 never settles while 200 older offers are active",
    );
  });
});
