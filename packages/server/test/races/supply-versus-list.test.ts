import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { createReadyTrader, goodsIdOf, grantOne, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { usingPostgres } from "../support/test-database.ts";

const STICKER = "Sticker | Crown (Foil)";
/** Only a PostgreSQL server runs the two requests' transactions at once (PGlite runs one after the other). */
const SKIP = !usingPostgres && "needs PostgreSQL (TEST_DATABASE_URL)";

describe("an item supplied and listed at the same moment", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let bidder: PlatformFixture;
  let goodsId: number;
  const api = (trader: PlatformFixture, method: "POST" | "DELETE", path: string, body: unknown) =>
    t.as(trader.token, method, `/api/market/developer/${path}`, body);

  before(async () => {
    if (SKIP) return;
    t = await createTestApp({ catalog: true });
    seller = await createReadyTrader(t, "seller");
    bidder = await createReadyTrader(t, "bidder");
    goodsId = await goodsIdOf(t, STICKER);
  });
  after(async () => {
    if (!SKIP) await t.close();
  });

  test("is committed to the sale or the buy order, never both, in 30 rounds", { skip: SKIP }, async () => {
    for (let round = 0; round < 30; round++) {
      await t.fund(bidder.userId, "balance", 4);
      const order = await api(bidder, "POST", "buy_order", {
        game: "cs2",
        goods_id: goodsId,
        price: 4,
        num: 1,
      });
      assert.equal(order.statusCode, 200, order.body);
      const assetid = await grantOne(t, seller.platformid, { market_hash_name: STICKER });
      const [supplied, listed] = await Promise.all([
        api(seller, "POST", "buy_order/supply", {
          game: "cs2",
          buy_order_id: order.json().id,
          assets: [assetid],
        }),
        api(seller, "POST", "sell_order/items", { game: "cs2", assets: [{ assetid, price: 9 }] }),
      ]);
      const commitments = await sql<{ on_sale: number; in_trade: number }>`
        SELECT (SELECT count(*)::int FROM listings WHERE assetid = ${Number(assetid)} AND state = 'ON_SALE') AS on_sale,
          (SELECT count(*)::int FROM trades WHERE assetid = ${Number(assetid)}
            AND state IN ('PAYING', 'SELLER_TO_SEND_OFFER', 'TRADING')) AS in_trade
      `.execute(t.database.db);
      const { on_sale: onSale, in_trade: inTrade } = commitments.rows[0]!;
      assert.ok(
        onSale + inTrade <= 1,
        `round ${round}: supply answered ${supplied.body}, listing answered ${listed.body}; ` +
          `${onSale} listing(s) on sale and ${inTrade} live trade(s) of one item`,
      );
      await t.assertLedger();
      // The round's leftovers go: an unsold listing off sale, an unfilled order cancelled.
      const sellOrder = listed.json().sell_orders?.[assetid]?.sell_order_id;
      if (sellOrder)
        await api(seller, "DELETE", "sell_order/items", { game: "cs2", sell_orders: [sellOrder] });
      await api(bidder, "DELETE", "buy_order", { game: "cs2", buy_order_ids: [order.json().id] });
    }
  });
});
