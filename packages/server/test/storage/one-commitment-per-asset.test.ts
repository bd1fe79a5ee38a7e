import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { sql } from "kysely";
import { createReadyTrader, goodsIdOf, grantOne, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
const COMMITMENT_INDEX = "listings_one_commitment_per_asset";

/**
 * The commitment rule for items (docs/design/domain-model.md#the-commitment-rule-for-items): an item is on sale, or in one live
 * sale, or free. The database holds the rule, so it is checked here both through the verbs and by
 * writing the second commitment straight into the table, as a racing writer would.
 */
describe("one commitment per item", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let goodsId: number;
  const api = (trader: PlatformFixture, method: "POST" | "PUT" | "DELETE", path: string, body: unknown) =>
    t.as(trader.token, method, `/api/market/developer/${path}`, body);

  before(async () => {
    t = await createTestApp({ catalog: true });
    goodsId = await goodsIdOf(t, STICKER);
  });
  // Every test starts from an empty market with two fresh traders.
  beforeEach(async () => {
    const reset = await t.admin("POST", "/sandbox/reset");
    assert.equal(reset.statusCode, 200, reset.body);
    seller = await createReadyTrader(t, "seller");
    buyer = await createReadyTrader(t, "buyer");
    await t.fund(buyer.userId, "balance", 1000);
  });
  after(() => t.close());

  async function listed(price: number): Promise<{ assetid: string; listingId: string }> {
    const assetid = await grantOne(t, seller.platformid, { market_hash_name: STICKER });
    const response = await api(seller, "POST", "sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price }],
    });
    assert.equal(response.json()[assetid], "OK", response.body);
    return { assetid, listingId: response.json().sell_orders[assetid].sell_order_id };
  }

  async function sold(price: number): Promise<{ assetid: string; listingId: string; tradeId: string }> {
    const listing = await listed(price);
    const bought = await api(buyer, "POST", "purchase/orders", {
      game: "cs2",
      items: [{ goods_id: goodsId, max_price: price, quantity: 1 }],
    });
    const [tradeId] = bought.json().result[String(goodsId)].bill_order_ids as string[];
    assert.ok(tradeId, bought.body);
    return { ...listing, tradeId };
  }

  /** A second listing of the item, written as `state`, straight into the table. */
  function copyListing(listingId: string, state: "ON_SALE" | "SOLD") {
    return sql`
      INSERT INTO listings (user_id, platformid, assetid, goods_id, price, fee, state, allow_bargain,
        allow_wallet_zft, allow_epay, allow_pending_divide_balance, force_buyer_send_offer, description,
        paintwear, tradable_after, asset, created_at, updated_at)
      SELECT user_id, platformid, assetid, goods_id, price, fee, ${state}, allow_bargain, allow_wallet_zft,
        allow_epay, allow_pending_divide_balance, force_buyer_send_offer, description, paintwear,
        tradable_after, asset, created_at, updated_at
      FROM listings WHERE listing_id = ${Number(listingId)}
    `.execute(t.database.db);
  }

  async function bid(price: number): Promise<string> {
    const created = await api(buyer, "POST", "buy_order", { game: "cs2", goods_id: goodsId, price, num: 1 });
    assert.equal(created.statusCode, 200, created.body);
    return created.json().id as string;
  }

  const supply = async (orderId: string, assetid: string) =>
    (
      await api(seller, "POST", "buy_order/supply", { game: "cs2", buy_order_id: orderId, assets: [assetid] })
    ).json()[assetid];

  test("the database refuses to put on sale an item whose sale is in a live trade", async () => {
    const sale = await sold(5);
    await assert.rejects(copyListing(sale.listingId, "ON_SALE"), {
      code: "23505",
      constraint: COMMITMENT_INDEX,
    });
  });

  test("the database refuses to sell an item on sale a second time, as a supply would", async () => {
    const listing = await listed(5);
    await assert.rejects(copyListing(listing.listingId, "SOLD"), {
      code: "23505",
      constraint: COMMITMENT_INDEX,
    });
  });

  test("a supply of an item on sale or in a live trade is refused with the reason", async () => {
    const onSale = await listed(50);
    const sale = await sold(6);
    const order = await bid(4);
    assert.equal(await supply(order, onSale.assetid), "on sale; take it off sale first");
    assert.equal(await supply(order, sale.assetid), "in a trade that is not finished");
    await t.assertLedger();
  });

  test("a repriced listing keeps its item committed; a delisted one frees it for a supply", async () => {
    const listing = await listed(50);
    const order = await bid(4);
    const repriced = await api(seller, "PUT", "sell_order/items", {
      game: "cs2",
      sell_orders: [{ sell_order_id: listing.listingId, price: 40 }],
    });
    assert.equal(repriced.json()[listing.listingId], "OK", repriced.body);
    assert.equal(await supply(order, listing.assetid), "on sale; take it off sale first");
    await api(seller, "DELETE", "sell_order/items", { game: "cs2", sell_orders: [listing.listingId] });
    assert.equal(await supply(order, listing.assetid), "OK");
    await t.assertLedger();
  });

  test("a failed trade frees its item: it can be listed again", async () => {
    const sale = await sold(5);
    const early = await api(seller, "POST", "sell_order/items", {
      game: "cs2",
      assets: [{ assetid: sale.assetid, price: 5 }],
    });
    assert.equal(early.json()[sale.assetid], "in a trade that is not finished");
    // The seller never sends the offer: past the 12-hour delivery time the trade fails.
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 13 * 3600 });
    await t.admin("POST", "/sandbox/jobs/run");
    const again = await api(seller, "POST", "sell_order/items", {
      game: "cs2",
      assets: [{ assetid: sale.assetid, price: 5 }],
    });
    assert.equal(again.json()[sale.assetid], "OK", again.body);
    await t.assertLedger();
  });

  test("a delivered trade frees the item's old assetid", async () => {
    const sale = await sold(5);
    const sent = await api(seller, "POST", "sell_order/send_offer", { order_id: sale.tradeId });
    assert.equal(sent.statusCode, 200, sent.body);
    const { tradeofferid } = await t.database.db
      .selectFrom("trades")
      .select("tradeofferid")
      .where("trade_id", "=", Number(sale.tradeId))
      .executeTakeFirstOrThrow();
    await t.admin("POST", `/sandbox/platform/offers/${tradeofferid}/accept`);
    await t.admin("POST", "/sandbox/jobs/run");
    const trade = await t.database.db
      .selectFrom("trades")
      .select("state")
      .where("trade_id", "=", Number(sale.tradeId))
      .executeTakeFirstOrThrow();
    assert.equal(trade.state, "SUCCESS");
    // Nothing commits the old assetid any more: a listing of it is accepted by the database (and
    // taken off sale again, since its seller no longer holds the item).
    await copyListing(sale.listingId, "ON_SALE");
    await sql`UPDATE listings SET state = 'CANCELLED' WHERE assetid = ${Number(sale.assetid)} AND state = 'ON_SALE'`.execute(
      t.database.db,
    );
    await t.assertLedger();
  });
});
