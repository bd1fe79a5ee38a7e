import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, goodsIdOf, grantOne, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { listItems } from "../../src/domain/listings/list-items.ts";

const STICKER = "Sticker | Crown (Foil)";

describe("trade races", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let buyer2: PlatformFixture;
  let goodsId: number;
  const post = (trader: PlatformFixture, path: string, body: unknown) =>
    t.as(trader.token, "POST", `/api/market/developer/${path}`, body);

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createReadyTrader(t, "seller");
    buyer = await createReadyTrader(t, "buyer");
    buyer2 = await createReadyTrader(t, "buyer2");
    await t.fund(buyer.userId, "balance", 100);
    await t.fund(buyer2.userId, "balance", 100);
    goodsId = await goodsIdOf(t, STICKER);
  });
  after(() => t.close());

  test("relisting an item while a purchase of its listing commits never sells it twice", async () => {
    const assetid = await grantOne(t, seller.platformid, { market_hash_name: STICKER });
    await post(seller, "sell_order/items", { game: "cs2", assets: [{ assetid, price: 5 }] });
    // The buyer's purchase lands between listItems' look at the item and listOne's transaction.
    let fired = false;
    const realDb = t.database.db;
    const db = new Proxy(realDb, {
      get(target, prop) {
        if (prop === "transaction" && !fired) {
          return () => ({
            async execute(fn: (trx: unknown) => Promise<unknown>) {
              fired = true;
              const bought = (
                await post(buyer, "purchase/orders", {
                  game: "cs2",
                  items: [{ goods_id: goodsId, max_price: 5, quantity: 1 }],
                })
              ).json();
              assert.equal(bought.result[String(goodsId)].success_num, 1);
              return target.transaction().execute(fn as never);
            },
          });
        }
        const value = Reflect.get(target, prop, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const sellerCtx = { ...t.ctx, db, actor: { kind: "user" as const, userId: Number(seller.userId) } };
    const relisted = await listItems(sellerCtx as never, [{ assetid, price: 6 }]);
    assert.ok(relisted.ok);
    const bought2 = (
      await post(buyer2, "purchase/orders", {
        game: "cs2",
        items: [{ goods_id: goodsId, max_price: 6, quantity: 1 }],
      })
    ).json();
    const live = await realDb
      .selectFrom("trades")
      .select(["trade_id", "buyer_id", "state"])
      .where("assetid", "=", Number(assetid))
      .where("state", "in", ["SELLER_TO_SEND_OFFER", "TRADING"])
      .execute();
    assert.equal(
      live.length,
      1,
      `relist answered ${JSON.stringify(relisted.value.results)}; buyer2 bought ${bought2.result[String(goodsId)].success_num}; live trades for one asset: ${JSON.stringify(live)}`,
    );
  });

  test("send_offer after the 12-hour delivery deadline is refused even before the job has run", async () => {
    await grantOne(t, seller.platformid, { market_hash_name: STICKER });
    const inv = await t.database.db
      .selectFrom("sandbox_assets")
      .select("assetid")
      .where("platformid", "=", seller.platformid)
      .where("traded_to_assetid", "is", null)
      .orderBy("assetid", "desc")
      .executeTakeFirstOrThrow();
    await post(seller, "sell_order/items", {
      game: "cs2",
      assets: [{ assetid: String(inv.assetid), price: 3 }],
    });
    const bought = (
      await post(buyer, "purchase/orders", {
        game: "cs2",
        items: [{ goods_id: goodsId, max_price: 3, quantity: 1 }],
      })
    ).json();
    const id = bought.result[String(goodsId)].bill_order_ids[0];
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 13 * 3600 });
    const sent = await post(seller, "sell_order/send_offer", { order_id: id });
    assert.notEqual(sent.statusCode, 200, "offer sent after the delivery deadline");
  });
});
