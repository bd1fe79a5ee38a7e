import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { PriceSnapshot } from "../../src/domain/market/price-snapshot.ts";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
const REDLINE = "AK-47 | Redline (Field-Tested)";

/**
 * Price answers with the snapshots kept as the server keeps them (docs/design/market-snapshots.md#market-snapshots): a
 * change shows in the very next single-goods answer of the instance that made it, although the
 * whole-market snapshot is not rebuilt yet; and a snapshot kept fresh never answers with figures
 * from before a quiet spell.
 */
describe("prices read your writes", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let enterprise: { token: string };
  let sticker: number;

  const list = async (goods: string, price: number, extra: Record<string, unknown> = {}): Promise<string> => {
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: goods, count: 1, ...extra });
    const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price }],
    });
    assert.equal(listed.statusCode, 200, listed.body);
    return (listed.json().sell_orders as Record<string, { sell_order_id: string }>)[assetid!]!.sell_order_id;
  };
  /** The single-goods answer of `GET /api/market/items` for the sticker: its lowest price. */
  const stickerMinPrice = async (): Promise<string> => {
    const answer = await t.as(enterprise.token, "GET", `/api/market/items?game=cs2&goods_id=${sticker}`);
    assert.equal(answer.statusCode, 200, answer.body);
    return answer.json().info[0].sales[0].min_price as string;
  };
  const stickerBuyMax = async (): Promise<string> => {
    const answer = await t.as(
      enterprise.token,
      "GET",
      `/api/market/enterprise/items?game=cs2&market_hash_name=${encodeURIComponent(STICKER)}`,
    );
    assert.equal(answer.statusCode, 200, answer.body);
    return answer.json().info[0].sales[0].buy_max_price as string;
  };
  const wholeMarketMinPrice = async (goodsId: number): Promise<string | undefined> => {
    const answer = await t.as(enterprise.token, "GET", "/api/market/items?game=cs2");
    assert.equal(answer.statusCode, 200, answer.body);
    const entries = answer.json().info as Array<{
      goods_id: number;
      sales: Array<{ min_price: string }>;
    }>;
    return entries.find((entry) => entry.goods_id === goodsId)?.sales[0]?.min_price;
  };

  before(async () => {
    t = await createTestApp({ catalog: true, serverSnapshots: true });
    seller = await createReadyTrader(t);
    buyer = await createReadyTrader(t);
    enterprise = await t.createUser({ access_level: "enterprise" });
    sticker = await goodsIdOf(t, STICKER);
    await list(REDLINE, 11);
    // The snapshot every answer below would come from without reading the changed goods.
    await t.as(enterprise.token, "GET", "/api/market/items?game=cs2");
  });
  after(() => t.close());

  test("a listing, a new price, a purchase and a delisting each show in the next single-goods answer", async () => {
    assert.equal(await stickerMinPrice(), "0.00");
    const cheap = await list(STICKER, 2.5);
    assert.equal(await stickerMinPrice(), "2.50", "listed");
    const dear = await list(STICKER, 4);
    assert.equal(await stickerMinPrice(), "2.50");
    const repriced = await t.as(seller.token, "PUT", "/api/market/developer/sell_order/items", {
      game: "cs2",
      sell_orders: [{ sell_order_id: cheap, price: 3 }],
    });
    assert.equal(repriced.statusCode, 200, repriced.body);
    assert.equal(await stickerMinPrice(), "3.00", "repriced");
    await t.fund(buyer.userId, "balance", 10);
    const bought = await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [{ market_hash_name: STICKER, max_price: 3, quantity: 1 }],
    });
    assert.equal(bought.statusCode, 200, bought.body);
    assert.equal(await stickerMinPrice(), "4.00", "the cheapest was bought");
    const delisted = await t.as(seller.token, "DELETE", "/api/market/developer/sell_order/items", {
      game: "cs2",
      sell_orders: [dear],
    });
    assert.equal(delisted.statusCode, 200, delisted.body);
    assert.equal(await stickerMinPrice(), "0.00", "delisted");
  });

  test("a buy order shows in the next single-goods answer", async () => {
    await t.fund(buyer.userId, "balance", 10);
    const before = await stickerBuyMax();
    const ordered = await t.as(buyer.token, "POST", "/api/market/developer/buy_order", {
      game: "cs2",
      goods_id: sticker,
      price: 1.25,
      num: 1,
    });
    assert.equal(ordered.statusCode, 200, ordered.body);
    assert.notEqual(before, "1.25");
    assert.equal(await stickerBuyMax(), "1.25");
  });

  test("kept fresh, the first answer after a quiet spell holds the last change, not an older snapshot", async () => {
    const rebuilt: PriceSnapshot[] = [];
    let told = () => {};
    const stop = t.snapshots!.keepFresh(t.ctx, (snapshot) => {
      rebuilt.push(snapshot);
      told();
    });
    try {
      t.clock.setOffset(t.clock.offsetMs + 5_000);
      const redline = await goodsIdOf(t, REDLINE);
      const before = await wholeMarketMinPrice(redline);
      assert.equal(before, "11.00");
      const rebuiltWith = (holds: (snapshot: PriceSnapshot) => boolean) =>
        new Promise<void>((resolve) => {
          told = () => {
            if (holds(rebuilt.at(-1)!)) resolve();
          };
        });
      // A listing in trade cooldown: the next rebuild without a change would be at its end, a day on.
      const inCooldown = rebuiltWith((snapshot) => snapshot.nextCooldownEnd !== null);
      await list(REDLINE, 9, { cooldown_days: 1 });
      await inCooldown;
      const showsTheListing = rebuiltWith(
        (snapshot) => snapshot.entries.get(redline)?.whole.minPrice === 700,
      );
      await list(REDLINE, 7);
      // A rebuild follows the change without any request asking for it, however far that day is.
      await showsTheListing;
      // Three quiet minutes on the marketplace clock: the first request finds the last change.
      t.clock.setOffset(t.clock.offsetMs + 180_000);
      assert.equal(await wholeMarketMinPrice(redline), "7.00");
    } finally {
      stop();
    }
  });
});
