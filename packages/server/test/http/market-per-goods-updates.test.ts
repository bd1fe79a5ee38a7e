import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MarketChanges } from "../../src/domain/market/market-changes.ts";
import { ok } from "../../src/domain/result.ts";
import { inTransaction } from "../../src/domain/transaction.ts";
import type { PriceSnapshot } from "../../src/domain/market/price-snapshot.ts";
import { PriceSnapshots } from "../../src/domain/market/price-snapshots.ts";
import {
  createReadyTrader,
  goodsIdOf,
  listOne,
  passSeconds,
  type PlatformFixture,
} from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
const REDLINE = "AK-47 | Redline (Field-Tested)";

/**
 * The snapshot is updated per changed goods (docs/design/market-snapshots.md#updates-per-changed-goods): a commit names the goods
 * it wrote, the update re-reads those alone and keeps every other entry, and a single-goods answer
 * reads the database only for a goods changed since the snapshot. Writes made behind the
 * instance's back (uncounted) tell which goods were read again.
 */
describe("the price snapshot updated per changed goods", { timeout: 120_000 }, () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let enterprise: { token: string };
  let sticker: number;
  let redline: number;

  const list = (goods: string, price: number) => listOne(t, seller, goods, price);
  /** Raises a goods' listings by 1.00 in a write the instance does not count. */
  const raisePricesUncounted = async (goodsId: number) => {
    await t.database.db
      .updateTable("listings")
      .set((eb) => ({ price: eb("price", "+", 100) }))
      .where("goods_id", "=", goodsId)
      .where("state", "=", "ON_SALE")
      .execute();
  };
  const pass = (seconds: number) => passSeconds(t, seconds);
  const singleGoodsMinPrice = async (goodsId: number): Promise<string> => {
    const answer = await t.as(enterprise.token, "GET", `/api/market/items?game=cs2&goods_id=${goodsId}`);
    assert.equal(answer.statusCode, 200, answer.body);
    return answer.json().info[0].sales[0].min_price as string;
  };
  const wholeMarketMinPrice = async (goodsId: number): Promise<string | undefined> => {
    const answer = await t.as(enterprise.token, "GET", "/api/market/items?game=cs2");
    assert.equal(answer.statusCode, 200, answer.body);
    const entries = answer.json().info as Array<{ goods_id: number; sales: Array<{ min_price: string }> }>;
    return entries.find((entry) => entry.goods_id === goodsId)?.sales[0]?.min_price;
  };
  /**
   * Runs `change`, a second on (so that a rebuild is due at once), then keeps the snapshot fresh
   * and answers the first rebuilt snapshot that `shows` the change, as the rebuilds' own callback
   * tells (a rebuild already under way may predate the change; the change keeps the snapshot out
   * of date, so the next one follows). Fails after five rebuilds without it.
   */
  const rebuiltAfter = async (
    change: () => Promise<unknown>,
    shows: (snapshot: PriceSnapshot) => boolean,
  ): Promise<PriceSnapshot> => {
    pass(1);
    await change();
    let stop = () => {};
    try {
      return await new Promise<PriceSnapshot>((resolve, reject) => {
        let rebuilds = 0;
        stop = t.snapshots!.keepFresh(t.ctx, (snapshot) => {
          if (shows(snapshot)) resolve(snapshot);
          else if (++rebuilds >= 5) reject(new Error("five rebuilds without the change"));
          else pass(1);
        });
      });
    } finally {
      stop();
    }
  };

  before(async () => {
    t = await createTestApp({ catalog: true, serverSnapshots: true });
    seller = await createReadyTrader(t);
    enterprise = await t.createUser({ access_level: "enterprise" });
    sticker = await goodsIdOf(t, STICKER);
    redline = await goodsIdOf(t, REDLINE);
    await list(STICKER, 2.5);
    await list(REDLINE, 11);
    await t.snapshots!.current(t.ctx);
  });
  after(() => t.close());

  test("a single-goods answer reads the database for a changed goods alone, the snapshot for the others", async () => {
    await raisePricesUncounted(redline);
    await list(STICKER, 1.5);
    assert.equal(
      await singleGoodsMinPrice(redline),
      "11.00",
      "the Redline did not change: from the snapshot",
    );
    assert.equal(await singleGoodsMinPrice(sticker), "1.50", "the sticker changed: from the database");
  });

  test("a change to one goods re-reads it alone: the others keep their entries, the whole market shows it", async () => {
    const before = await t.snapshots!.current(t.ctx);
    const updated = await rebuiltAfter(
      () => list(STICKER, 1),
      (snapshot) => snapshot.entries.get(sticker)?.whole.minPrice === 100,
    );
    assert.notEqual(updated, before);
    assert.deepEqual([...updated.entries.keys()], [...before.entries.keys()], "same goods, same order");
    for (const [goodsId, entry] of before.entries)
      if (goodsId !== sticker)
        assert.equal(updated.entries.get(goodsId), entry, `goods ${goodsId} untouched`);
    assert.equal(updated.entries.get(redline)?.whole.minPrice, 1100, "the uncounted raise was not read");
    assert.equal(await wholeMarketMinPrice(sticker), "1.00");
    assert.equal(await wholeMarketMinPrice(redline), "11.00");
  });

  test("a goods new to the market takes its place in id order", async () => {
    const before = await t.snapshots!.current(t.ctx);
    const newcomer = await goodsIdOf(t, "AK-47 | Redline (Minimal Wear)");
    assert.equal(before.entries.has(newcomer), false);
    const updated = await rebuiltAfter(
      () => list("AK-47 | Redline (Minimal Wear)", 20),
      (snapshot) => snapshot.entries.has(newcomer),
    );
    const ids = [...updated.entries.keys()];
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
    );
    assert.equal(updated.entries.get(newcomer)?.whole.minPrice, 2000);
    assert.equal(updated.entries.get(redline), before.entries.get(redline));
  });

  test("a commit that names no goods reads the whole market again", async () => {
    // A transaction that notes no goods (as a verb that forgot to would): a change to everything.
    const unnamed = () =>
      inTransaction({ ...t.ctx, afterCommit: (goods) => t.marketChanges.committed(goods) }, async (tx) => {
        await tx.db
          .updateTable("users")
          .set({ updated_at: tx.clock.now() })
          .where("user_id", "=", -1)
          .execute();
        return ok(undefined);
      });
    const rebuilt = await rebuiltAfter(
      unnamed,
      (snapshot) => snapshot.entries.get(redline)?.whole.minPrice === 1200,
    );
    assert.equal(rebuilt.entries.get(redline)?.whole.minPrice, 1200, "the uncounted raise is read now");
    assert.equal(await wholeMarketMinPrice(redline), "12.00");
  });

  test("with a shorter update interval, changes to goods are read sooner than a change to everything", async () => {
    const changes = new MarketChanges();
    const snapshots = new PriceSnapshots(changes, 1000, { maxAgeMs: Infinity, updateIntervalMs: 250 });
    const first = await snapshots.current(t.ctx);
    await raisePricesUncounted(sticker);
    changes.committed([sticker]);
    pass(0.25);
    const updated = await snapshots.current(t.ctx);
    assert.notEqual(updated, first, "a quarter of a second on, the goods changed are read");
    await raisePricesUncounted(sticker);
    changes.committed("all");
    pass(0.25);
    assert.equal(await snapshots.current(t.ctx), updated, "a change to everything waits for the interval");
    pass(0.75);
    assert.notEqual(await snapshots.current(t.ctx), updated);
  });
});
