import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
const REDLINE = "AK-47 | Redline (Field-Tested)";

interface Figures {
  recent_average_duration: unknown;
  recent_deliver_rate: unknown;
  sticker_premium: unknown;
}
type ListingRecord = Figures & { id: string; game: string; price: string };

const figuresOf = (record: Figures): Figures => ({
  recent_average_duration: record.recent_average_duration,
  recent_deliver_rate: record.recent_deliver_rate,
  sticker_premium: record.sticker_premium,
});

/**
 * The three records of a listing on sale (the seller's `sell_order/on_sale`, the enterprise
 * `goods/sell_order` and the website's `goods/sell_order`) carry the same seller delivery record
 * and sticker premium: figures recomputed here from the trade's own times and the prices listed.
 */
describe("a listing's figures are the same on every record that carries them", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let newcomer: PlatformFixture;
  let enterprise: { token: string };
  /** Seconds from the sale to the buyer's acceptance, from the trade row's own timestamps. */
  let deliverySeconds: number;

  const list = async (trader: PlatformFixture, goods: string, price: number, extra = {}) => {
    const [assetid] = await grant(t, trader.platformid, { market_hash_name: goods, count: 1, ...extra });
    const listed = await t.as(trader.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price }],
    });
    assert.equal(listed.json()[assetid!], "OK", listed.body);
    return listed.json().sell_orders[assetid!].sell_order_id as string;
  };
  const onSale = async (trader: PlatformFixture) => {
    const answer = await t.as(trader.token, "GET", "/api/market/developer/sell_order/on_sale?game=cs2");
    assert.equal(answer.statusCode, 200, answer.body);
    return answer.json<{ data: { items: ListingRecord[] } }>().data.items;
  };
  const enterpriseListings = async (goods: string) => {
    const answer = await t.as(
      enterprise.token,
      "GET",
      `/api/market/enterprise/goods/sell_order?game=cs2&market_hash_name=${encodeURIComponent(goods)}`,
    );
    assert.equal(answer.statusCode, 200, answer.body);
    return answer.json<{ items: ListingRecord[] }>().items;
  };
  const websiteListings = async (goods: string) => {
    const goodsId = await goodsIdOf(t, goods);
    const answer = await t.app.inject({
      method: "GET",
      url: `/api/market/goods/sell_order?game=csgo&goods_id=${goodsId}`,
    });
    assert.equal(answer.statusCode, 200, answer.body);
    return answer.json<{ data: { items: ListingRecord[] } }>().data.items;
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    enterprise = await t.createUser({ access_level: "enterprise" });
    seller = await createReadyTrader(t, "seller");
    newcomer = await createReadyTrader(t, "newcomer");
    const buyer = await createReadyTrader(t, "buyer");
    await t.fund(buyer.userId, "balance", 100);

    // One sale, delivered ten minutes (sandbox clock) after it was made.
    await list(seller, STICKER, 3);
    const bought = await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [{ market_hash_name: STICKER, max_price: 3, quantity: 1 }],
    });
    assert.equal(bought.statusCode, 200, bought.body);
    const [tradeId] = Object.values(bought.json().result as Record<string, { bill_order_ids: string[] }>)[0]!
      .bill_order_ids;
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 600 });
    const sent = await t.as(seller.token, "POST", "/api/market/developer/sell_order/send_offer", {
      order_id: tradeId,
    });
    assert.equal(sent.statusCode, 200, sent.body);
    const offer = (await t.admin("GET", `/sandbox/platform/offers?platformid=${buyer.platformid}`)).json()
      .items[0];
    await t.admin("POST", `/sandbox/platform/offers/${offer.tradeofferid}/accept`);
    await t.admin("POST", "/sandbox/jobs/run");
    const trade = await t.database.db
      .selectFrom("trades")
      .select(["state", "created_at", "updated_at"])
      .where("trade_id", "=", Number(tradeId))
      .executeTakeFirstOrThrow();
    assert.equal(trade.state, "SUCCESS");
    deliverySeconds = Math.round((trade.updated_at.getTime() - trade.created_at.getTime()) / 1000);
    // The clock was moved 600 s between the sale and the delivery (plus the requests' own time).
    assert.ok(deliverySeconds >= 600, `${deliverySeconds} s`);

    // On sale now: a sticker at 3.00 (the sticker's price), a plain Redline at 11.00 (the goods'
    // floor) by the newcomer, and the seller's Redline with that sticker at 12.00.
    await list(seller, STICKER, 3);
    await list(newcomer, REDLINE, 11);
    await list(seller, REDLINE, 12, { stickers: [{ market_hash_name: STICKER }] });
  });
  after(() => t.close());

  test("a seller with one delivered sale: rate 1 and the sale's delivery time; 1.00 over the floor for a 3.00 sticker is 0.3333", async () => {
    const expected: Figures = {
      recent_average_duration: deliverySeconds,
      recent_deliver_rate: 1,
      sticker_premium: 0.3333,
    };
    const own = (await onSale(seller)).find((record) => record.price === "12.00")!;
    assert.deepEqual(figuresOf(own), expected);
    const byEnterprise = (await enterpriseListings(REDLINE)).find((record) => record.id === own.id)!;
    assert.deepEqual(figuresOf(byEnterprise), expected);
    const onWebsite = (await websiteListings(REDLINE)).find((record) => record.id === own.id)!;
    assert.deepEqual(figuresOf(onWebsite), expected);
  });

  test("a listing without stickers has premium 0 and its seller's record on every record", async () => {
    const expected: Figures = {
      recent_average_duration: deliverySeconds,
      recent_deliver_rate: 1,
      sticker_premium: 0,
    };
    const own = (await onSale(seller)).find((record) => record.price === "3.00")!;
    assert.deepEqual(figuresOf(own), expected);
    const byEnterprise = (await enterpriseListings(STICKER)).find((record) => record.id === own.id)!;
    assert.deepEqual(figuresOf(byEnterprise), expected);
    const onWebsite = (await websiteListings(STICKER)).find((record) => record.id === own.id)!;
    assert.deepEqual(figuresOf(onWebsite), expected);
  });

  test("a seller without a finished sale shows 0 and 0 on every record", async () => {
    const expected: Figures = { recent_average_duration: 0, recent_deliver_rate: 0, sticker_premium: 0 };
    const [own] = await onSale(newcomer);
    assert.deepEqual(figuresOf(own!), expected);
    const byEnterprise = (await enterpriseListings(REDLINE)).find((record) => record.id === own!.id)!;
    assert.deepEqual(figuresOf(byEnterprise), expected);
    const onWebsite = (await websiteListings(REDLINE)).find((record) => record.id === own!.id)!;
    assert.deepEqual(figuresOf(onWebsite), expected);
  });

  test("every listing record carries game csgo", async () => {
    for (const record of [
      ...(await onSale(seller)),
      ...(await enterpriseListings(REDLINE)),
      ...(await websiteListings(REDLINE)),
    ])
      assert.equal(record.game, "csgo", record.id);
  });
});
