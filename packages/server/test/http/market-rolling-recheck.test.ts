import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import type { SnapshotBuild } from "../../src/domain/market/price-snapshots.ts";
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
const NEWCOMER = "AK-47 | Redline (Minimal Wear)";

type Entry = { goods_id: number; sales: Array<Record<string, string>> };

/**
 * After the first snapshot the whole market is not read again (docs/design/market-snapshots.md#the-rolling-recheck): writes
 * made behind the service's back are found by the rolling recheck, a slice of the catalog a
 * second (a sixtieth of its listings), every goods within a minute; a recomputation of the liquidity ranks reads the ranks
 * alone. The snapshots tell each build (`onBuild`), so the test sees which reads ran.
 */
describe("the rolling recheck and the whole reads left", { timeout: 180_000 }, () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let enterprise: { token: string };
  const builds: SnapshotBuild[] = [];

  const list = (goods: string, price: number) => listOne(t, seller, goods, price);
  const pass = (seconds: number) => passSeconds(t, seconds);
  const wholeMarket = async (path = "/api/market/items?game=cs2"): Promise<Map<number, Entry>> => {
    const answer = await t.as(enterprise.token, "GET", path);
    assert.equal(answer.statusCode, 200, answer.body);
    return new Map((answer.json().info as Entry[]).map((entry) => [entry.goods_id, entry]));
  };
  const wholeBuildsSince = (start: number) => builds.slice(start).filter((build) => build.kind === "whole");

  before(async () => {
    t = await createTestApp({ catalog: true, snapshots: { onBuild: (build) => builds.push(build) } });
    seller = await createReadyTrader(t);
    enterprise = await t.createUser({ access_level: "enterprise" });
    await list(STICKER, 2.5);
    await list(REDLINE, 11);
    await wholeMarket();
    assert.deepEqual(builds, [{ kind: "whole" }], "the first snapshot reads the whole market");
  });
  after(() => t.close());

  test("writes behind the service's back are in the whole-market answer once the recheck has gone round", async () => {
    const [sticker, redline, newcomer] = [
      await goodsIdOf(t, STICKER),
      await goodsIdOf(t, REDLINE),
      await goodsIdOf(t, NEWCOMER),
    ];
    const before = await wholeMarket();
    assert.equal(before.has(newcomer), false);
    const start = builds.length;
    const version = t.marketChanges.version;
    // Written straight into the database, no change counted (as by another process): the
    // sticker's price raised, a listing of a goods off the market, the Redline's listing withdrawn.
    await t.database.db
      .updateTable("listings")
      .set((eb) => ({ price: eb("price", "+", 100) }))
      .where("goods_id", "=", sticker)
      .where("state", "=", "ON_SALE")
      .execute();
    await sql`
      INSERT INTO listings (user_id, platformid, assetid, goods_id, price, fee, state, allow_bargain,
        allow_wallet_zft, allow_epay, allow_pending_divide_balance, force_buyer_send_offer, description,
        paintwear, paintseed, paintindex, tradable_after, asset, created_at, updated_at)
      SELECT user_id, platformid, 900000000001, ${newcomer}, 2000, fee, state, allow_bargain,
        allow_wallet_zft, allow_epay, allow_pending_divide_balance, force_buyer_send_offer, description,
        0.1, paintseed, paintindex, NULL, asset, created_at, updated_at
      FROM listings WHERE goods_id = ${redline} AND state = 'ON_SALE'
    `.execute(t.database.db);
    await t.database.db
      .updateTable("listings")
      .set({ state: "CANCELLED" })
      .where("goods_id", "=", redline)
      .where("state", "=", "ON_SALE")
      .execute();
    assert.equal(t.marketChanges.version, version, "nothing was counted");

    // A slice of the catalog each second: within a minute every goods was read again.
    let after = before;
    for (let second = 0; second < 60; second++) {
      pass(1);
      after = await wholeMarket();
    }
    assert.equal(after.get(sticker)?.sales[0]?.min_price, "3.50", "the raise");
    assert.equal(after.get(newcomer)?.sales[0]?.min_price, "20.00", "the goods new to the market");
    assert.equal(after.has(redline), false, "the goods that left the market");

    const since = builds.slice(start);
    assert.deepEqual(wholeBuildsSince(start), [], "no whole read");
    assert.equal(since.length, 60, "one recheck a second");
    const catalogGoods = Number(
      (
        await t.database.db
          .selectFrom("goods")
          .select((eb) => eb.fn.countAll<string>().as("count"))
          .executeTakeFirstOrThrow()
      ).count,
    );
    const onSale = Number(
      (
        await t.database.db
          .selectFrom("listings")
          .select((eb) => eb.fn.countAll<string>().as("count"))
          .where("state", "=", "ON_SALE")
          .executeTakeFirstOrThrow()
      ).count,
    );
    // A slice holds a sixtieth of the goods and their listings (each goods weighs one more).
    const slice = Math.ceil((catalogGoods + onSale) / 60);
    for (const build of since) {
      assert.equal(build.kind, "update");
      if (build.kind === "update") assert.ok(build.rechecked <= slice, `${build.rechecked} <= ${slice}`);
    }
    const rechecked = since.reduce((sum, build) => sum + (build.kind === "update" ? build.rechecked : 0), 0);
    assert.ok(rechecked >= catalogGoods, `${rechecked} goods rechecked of ${catalogGoods}`);
    assert.ok(
      since.some((build) => build.kind === "update" && build.ranks),
      "the end of a round reads the liquidity ranks again",
    );
  });

  test("a quiet second with nothing behind its back keeps the answer, its stat_time and its validator", async () => {
    pass(1);
    const first = await t.as(enterprise.token, "GET", "/api/market/items?game=cs2");
    pass(1);
    const second = await t.as(enterprise.token, "GET", "/api/market/items?game=cs2");
    assert.equal(second.headers.etag, first.headers.etag);
    assert.equal(second.json().stat_time, first.json().stat_time);
  });

  test("a trade counts no change to everything, and the day's liquidity ranks are read without the market", async () => {
    const sticker = await goodsIdOf(t, STICKER);
    const buyer = await createReadyTrader(t);
    const accepted = await t.admin("PUT", `/sandbox/platform/accounts/${buyer.platformid}/auto_accept`, {
      enabled: true,
    });
    assert.equal(accepted.statusCode, 200, accepted.body);
    await t.fund(buyer.userId, "balance", 100);
    const start = builds.length;
    const version = t.marketChanges.version;

    // Listed, bought, delivered, settled by the jobs, which also compute the day's ranks.
    await list(STICKER, 1);
    const bought = await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [{ market_hash_name: STICKER, max_price: 1, quantity: 1 }],
    });
    assert.equal(bought.statusCode, 200, bought.body);
    const waiting = (
      await t.as(seller.token, "POST", "/api/market/developer/sell_order/history", {
        game: "cs2",
        state: "SELLER_TO_SEND_OFFER",
        page_size: 100,
      })
    ).json<{ items: Array<{ id: string }> }>();
    assert.equal(waiting.items.length, 1);
    const sent = await t.as(seller.token, "POST", "/api/market/developer/sell_order/send_offer", {
      order_id: waiting.items[0]!.id,
    });
    assert.equal(sent.statusCode, 200, sent.body);
    const jobs = await t.admin("POST", "/sandbox/jobs/run");
    assert.equal(jobs.statusCode, 200, jobs.body);
    assert.equal(
      jobs
        .json<{ jobs: Array<{ name: string; processed: number }> }>()
        .jobs.find((job) => job.name === "refresh-liquidity-ranks")?.processed,
      1,
      "the ranks were computed",
    );
    assert.equal(t.marketChanges.everythingSince(version), false, "no commit counted as everything");
    assert.equal(t.marketChanges.ranksChangedSince(version), true);

    pass(1);
    const ranks = await wholeMarket("/api/market/enterprise/items/liquidity_rank?game=cs2");
    assert.equal(ranks.get(sticker)?.sales[0]?.liquidity_rank, "100.00%", "the only goods traded");
    const one = await t.as(
      enterprise.token,
      "GET",
      `/api/market/enterprise/items/liquidity_rank?game=cs2&goods_id=${sticker}`,
    );
    assert.equal(one.json().info[0].sales[0].liquidity_rank, "100.00%");
    assert.deepEqual(wholeBuildsSince(start), [], "no whole read");
    assert.ok(builds.slice(start).some((build) => build.kind === "update" && build.ranks));
  });
});
