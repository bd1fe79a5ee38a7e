import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { DomainContext } from "../../src/domain/context.ts";
import { addBookmark } from "../../src/domain/goods/add-bookmark.ts";
import { setBookmarkAlert } from "../../src/domain/goods/set-bookmark-alert.ts";
import { createReadyTrader, goodsIdOf, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { listNew } from "../support/web-trader.ts";

const STICKER = "Sticker | Crown (Foil)";

/**
 * Price alerts on bookmarks (docs/design/events.md#price-alerts-on-bookmarks), below the HTTP
 * layer: the verb sets the alert, the market moves through the official operations, and the
 * sequencer's rounds fire `bookmark.price_alert` once per crossing and re-arm it.
 */
describe("bookmark price alerts", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let watcher: PlatformFixture;
  let stickerId: number;
  let watcherCtx: DomainContext;

  const api = (token: string, method: "POST" | "PUT" | "DELETE", path: string, body: unknown) =>
    t.as(token, method, `/api/market/developer/${path}`, body);
  /** Sequences what committed (a poll catches the log up) and answers the watcher's alerts so far. */
  const alerts = async () => {
    const polled = await t.as(
      watcher.token,
      "GET",
      "/api/market/developer/events?types=bookmark.*&limit=1000",
    );
    assert.equal(polled.statusCode, 200, polled.body);
    return polled.json<{ items: Array<{ type: string; goods_id: number; data: Record<string, unknown> }> }>()
      .items;
  };
  const reprice = async (id: string, price: number) => {
    const response = await api(seller.token, "PUT", "sell_order/items", {
      game: "cs2",
      sell_orders: [{ sell_order_id: id, price }],
    });
    assert.equal(response.statusCode, 200, response.body);
  };
  const stored = async () =>
    t.database.db
      .selectFrom("bookmarks")
      .select(["alert_sell_reached", "alert_buy_reached"])
      .where("user_id", "=", Number(watcher.userId))
      .where("target_id", "=", stickerId)
      .executeTakeFirstOrThrow();

  before(async () => {
    t = await createTestApp({ catalog: true });
    stickerId = await goodsIdOf(t, STICKER);
    seller = await createReadyTrader(t, "alert-seller");
    watcher = await createReadyTrader(t, "alert-watcher");
    watcherCtx = { ...t.ctx, actor: { kind: "user", userId: Number(watcher.userId) } } as DomainContext;
    assert.ok((await addBookmark(watcherCtx, { type: "goods", id: String(stickerId) })).ok);
  });
  after(() => t.close());

  test("a lowest listing that falls to the target fires one alert; lower still fires none", async () => {
    const [listing] = await listNew(t, seller, { market_hash_name: STICKER }, [12]);
    const set = await setBookmarkAlert(watcherCtx, { id: String(stickerId), sell_at: "10.00" });
    assert.ok(set.ok);
    assert.equal(set.value.alert.sell_reached, false, "12.00 is above 10.00: armed");
    assert.deepEqual(await alerts(), []);

    await reprice(listing!, 10);
    const fired = await alerts();
    assert.equal(fired.length, 1, "at the target is a crossing");
    assert.equal(fired[0]!.goods_id, stickerId);
    assert.equal(fired[0]!.data.crossed, "sell");
    assert.equal(fired[0]!.data.price, "10.00");
    const record = fired[0]!.data.alert as Record<string, unknown>;
    assert.equal(record.market_hash_name, STICKER);
    assert.equal(record.sell_at, "10.00");
    assert.equal(record.sell_reached, true);
    assert.equal(record.fired_price, "10.00");

    await reprice(listing!, 9);
    await listNew(t, seller, { market_hash_name: STICKER }, [8.5]);
    assert.equal((await alerts()).length, 1, "still below: no second alert");
    assert.equal((await stored()).alert_sell_reached, true);
  });

  test("the price going back above re-arms the alert, and the next fall fires again", async () => {
    const before = (await alerts()).length;
    const ids = await t.database.db
      .selectFrom("listings")
      .select("listing_id")
      .where("goods_id", "=", stickerId)
      .where("state", "=", "ON_SALE")
      .execute();
    for (const { listing_id } of ids) await reprice(String(listing_id), 15);
    assert.equal((await alerts()).length, before, "a rise fires nothing");
    assert.equal((await stored()).alert_sell_reached, false, "re-armed");

    await reprice(String(ids[0]!.listing_id), 9.99);
    const after = await alerts();
    assert.equal(after.length, before + 1);
    assert.equal(after.at(-1)!.data.price, "9.99");
  });

  test("an alert set while the market already meets it is reached and fires nothing", async () => {
    const before = (await alerts()).length;
    const set = await setBookmarkAlert(watcherCtx, { id: String(stickerId), sell_at: "20.00" });
    assert.ok(set.ok);
    assert.equal(set.value.alert.sell_reached, true);
    assert.equal((await alerts()).length, before);
  });

  test("a highest buy order that rises to the target fires a buy alert, once", async () => {
    const buyer = await createReadyTrader(t, "alert-buyer");
    await t.fund(buyer.userId, "balance", 100);
    const set = await setBookmarkAlert(watcherCtx, { id: String(stickerId), buy_at: "5.00" });
    assert.ok(set.ok);
    const before = (await alerts()).length;
    for (const price of ["4.00", "5.00", "6.00"]) {
      const bid = await api(buyer.token, "POST", "buy_order", {
        game: "cs2",
        num: 1,
        goods_id: stickerId,
        price,
      });
      assert.equal(bid.statusCode, 200, bid.body);
    }
    const fired = (await alerts()).slice(before);
    assert.deepEqual(
      fired.map((event) => [event.data.crossed, event.data.price]),
      [["buy", "5.00"]],
    );
  });

  test("clearing both prices clears the alert; another user's bookmark is not found", async () => {
    const cleared = await setBookmarkAlert(watcherCtx, {
      id: String(stickerId),
      sell_at: null,
      buy_at: null,
    });
    assert.ok(cleared.ok);
    assert.equal(cleared.value.alert.sell_at, null);
    const stranger = { ...t.ctx, actor: { kind: "user", userId: Number(seller.userId) } } as DomainContext;
    const refused = await setBookmarkAlert(stranger, { id: String(stickerId), sell_at: "1.00" });
    assert.equal(refused.ok, false);
    assert.equal(!refused.ok && refused.failure.code, "Not Found");
  });
});
