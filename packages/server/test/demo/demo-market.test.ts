import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { formatMoney } from "@skinmarket/contract";
import { sql, type Kysely } from "kysely";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { PHASE_OFFSETS } from "../../src/domain/catalog/phases.ts";
import { verifyPassword } from "../../src/domain/password-hash.ts";
import { assertLedgerInvariants } from "../../src/domain/wallet/check-ledger-invariants.ts";
import {
  buildDemoMarket,
  DemoMarketRefused,
  type DemoMarketReport,
} from "../../src/demo/build-demo-market.ts";
import { suspendForeignKeys } from "../../src/demo/bulk-rows.ts";
import { demoWantedAtStart } from "../../src/demo/demo-at-start.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import type { Database } from "../../src/storage/schema.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { createReadyTrader } from "../support/platform-world.ts";
import { openTestDatabase } from "../support/test-database.ts";
import { silentLog, testPlatform } from "../support/test-context.ts";
import type { DomainContext } from "../../src/domain/context.ts";
import { readSteamMarketItem } from "../../src/platform/sandbox/steam-market.ts";

const NOW = new Date("2026-06-01T12:00:00.000Z");
const SMALL = { listings: 1200, traders: 6, days: 14, now: NOW } as const;
const TINY = { ...SMALL, listings: 300 } as const;

/** The seller's fee by docs/design/purchases-and-trades.md#the-trade-lifecycle, worked out apart from the code: 2.5 % rounded up to the fen, at least 0.01. */
function expectedFee(priceFen: number): number {
  return Math.max(1, Math.ceil((priceFen * 25) / 1000));
}

/** A database with the committed catalog, as a server has it after its first start. */
function catalogDatabase(): Promise<DatabaseHandle> {
  return openTestDatabase({ catalog: true });
}

/** Every row of the world that the seed decides, in a fixed order; secrets left out. */
async function worldDigest(db: Kysely<Database>): Promise<string> {
  const queries: Record<string, string> = {
    users: "SELECT user_id, nickname, access_level, created_at FROM users ORDER BY user_id",
    api_tokens: "SELECT user_id, created_at FROM api_tokens ORDER BY user_id",
    ledger_accounts: "SELECT * FROM ledger_accounts ORDER BY account_id",
    journal_entries: "SELECT * FROM journal_entries ORDER BY entry_id",
    journal_lines: "SELECT * FROM journal_lines ORDER BY line_id",
    sandbox_platform_accounts: "SELECT * FROM sandbox_platform_accounts ORDER BY platformid",
    bound_platform_accounts:
      "SELECT platformid, user_id, bound_at, trade_url, inventory_refreshed_at FROM bound_platform_accounts ORDER BY platformid",
    sandbox_assets: "SELECT * FROM sandbox_assets ORDER BY assetid",
    platform_inventory_items: "SELECT * FROM platform_inventory_items ORDER BY platformid, assetid",
    listings: "SELECT * FROM listings ORDER BY listing_id",
    trades: "SELECT * FROM trades ORDER BY trade_id",
    sandbox_trade_offers: "SELECT * FROM sandbox_trade_offers ORDER BY tradeofferid",
    buy_orders: "SELECT * FROM buy_orders ORDER BY buy_order_id",
    sandbox_steam_market_prices: "SELECT * FROM sandbox_steam_market_prices ORDER BY goods_id",
    sandbox_steam_market_history:
      "SELECT goods_id, day::text, price, volume FROM sandbox_steam_market_history ORDER BY goods_id, day",
  };
  const hash = createHash("sha256");
  for (const [table, query] of Object.entries(queries)) {
    const rows = await sql.raw(query).execute(db);
    hash.update(`${table}:${rows.rows.length}:${JSON.stringify(rows.rows)}\n`);
  }
  return hash.digest("hex");
}

/** Every foreign key of the schema: its table, name and definition. */
async function foreignKeys(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ key: string }>`
    SELECT conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS key
    FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace
    ORDER BY 1
  `.execute(db);
  return rows.map((row) => row.key);
}

describe("demo market: the world it builds", () => {
  let first: DatabaseHandle;
  let report: DemoMarketReport;

  before(async () => {
    first = await catalogDatabase();
    report = await buildDemoMarket(first.db, { ...SMALL, seed: 7 });
  });
  after(() => first.close());

  test("the ledger invariants of docs/design/money-and-ledger.md#the-ledger hold", async () => {
    await assertLedgerInvariants(first.db);
    const sums = await sql<{ kind: string; total: string }>`
      SELECT kind, SUM(balance)::text AS total FROM ledger_accounts GROUP BY kind ORDER BY kind
    `.execute(first.db);
    const fees = await sql<{ total: string }>`SELECT SUM(fee)::text AS total FROM trades`.execute(first.db);
    assert.equal(sums.rows.find((row) => row.kind === "fees")?.total, fees.rows[0]?.total);
    assert.equal(sums.rows.find((row) => row.kind === "escrow")?.total, "0");
  });

  test("the journal is numbered in time order, so a wallet's movements list in time order", async () => {
    // A trade's payout comes after the payments of trades bought meanwhile; `balance/entries`
    // lists by entry id, so an entry numbered before an earlier one would show out of order.
    const { rows } = await sql<{ disorder: string; payouts: string }>`
      SELECT COUNT(*) FILTER (WHERE created_at < previous)::text AS disorder,
        COUNT(*) FILTER (WHERE kind = 'trade_payout')::text AS payouts
      FROM (SELECT kind, created_at, lag(created_at) OVER (ORDER BY entry_id) AS previous
        FROM journal_entries) AS entries
    `.execute(first.db);
    assert.equal(rows[0]!.disorder, "0");
    assert.equal(rows[0]!.payouts, "360");
  });

  test("the counts asked for, and more than half as many goods on sale as listings", async () => {
    const counts = await sql<{ on_sale: string; sold: string; goods: string; pre_sell: string }>`
      SELECT COUNT(*) FILTER (WHERE state = 'ON_SALE')::text AS on_sale,
        COUNT(*) FILTER (WHERE state = 'SOLD')::text AS sold,
        COUNT(DISTINCT goods_id) FILTER (WHERE state = 'ON_SALE')::text AS goods,
        COUNT(*) FILTER (WHERE state = 'ON_SALE' AND tradable_after > ${NOW})::text AS pre_sell
      FROM listings
    `.execute(first.db);
    const row = counts.rows[0]!;
    assert.equal(Number(row.on_sale), 1200);
    assert.equal(Number(row.sold), 360, "30 % of the listings were sold before");
    assert.equal(Number(row.goods), 660);
    assert.equal(Number(row.goods), report.goodsOnSale);
    assert.equal(Number(row.pre_sell), report.preSellListings);
    assert.ok(report.preSellListings > 20 && report.preSellListings < 120, `${report.preSellListings}`);
    const trades = await sql<{ state: string; count: string }>`
      SELECT state, COUNT(*)::text AS count FROM trades GROUP BY state
    `.execute(first.db);
    assert.deepEqual(trades.rows, [{ state: "SUCCESS", count: "360" }]);
    const orders = await sql<{ count: string }>`
      SELECT COUNT(*)::text AS count FROM buy_orders WHERE state = 'progressing'
    `.execute(first.db);
    assert.equal(Number(orders.rows[0]!.count), 120);
    const users = await sql<{ count: string }>`SELECT COUNT(*)::text AS count FROM users`.execute(first.db);
    assert.equal(Number(users.rows[0]!.count), 6);
    assert.equal(report.traders.length, 6);
  });

  test("every listing is an item its seller holds, at the 2.5 % fee, with real wear, seed and paint index", async () => {
    const listings = await sql<{
      listing_id: number;
      price: number;
      fee: number;
      paintwear: string | null;
      paintseed: number | null;
      paintindex: number | null;
      goods_type: string;
      paintwear_min: string | null;
      paintwear_max: string | null;
      paint_index: number | null;
      tags: Array<{ category: string; internal_name: string }>;
      holder: string | null;
      traded_to: number | null;
      bound_to: number | null;
      user_id: number;
      asset_goods: number;
      goods_id: number;
      asset_paintwear: string | null;
      inventory_asset: unknown;
      listing_asset: unknown;
    }>`
      SELECT l.listing_id, l.price, l.fee, l.paintwear::text AS paintwear, l.paintseed, l.paintindex,
        g.type AS goods_type, g.paintwear_min::text AS paintwear_min, g.paintwear_max::text AS paintwear_max,
        g.paint_index, g.tags, a.platformid AS holder, a.traded_to_assetid AS traded_to,
        b.user_id AS bound_to, l.user_id, a.goods_id AS asset_goods, l.goods_id, a.paintwear AS asset_paintwear,
        i.asset AS inventory_asset, l.asset AS listing_asset
      FROM listings l
      JOIN goods g ON g.goods_id = l.goods_id
      LEFT JOIN sandbox_assets a ON a.assetid = l.assetid
      LEFT JOIN bound_platform_accounts b ON b.platformid = l.platformid
      LEFT JOIN platform_inventory_items i ON i.platformid = l.platformid AND i.assetid = l.assetid
      WHERE l.state = 'ON_SALE'
    `.execute(first.db);
    let wearable = 0;
    let phased = 0;
    for (const row of listings.rows) {
      assert.equal(
        row.holder !== null && row.traded_to === null,
        true,
        `listing ${row.listing_id} item held`,
      );
      assert.equal(row.bound_to, row.user_id, `listing ${row.listing_id} account bound to the seller`);
      assert.equal(row.asset_goods, row.goods_id);
      assert.deepEqual(row.listing_asset, row.inventory_asset);
      assert.equal(row.fee, expectedFee(row.price));
      assert.ok(row.fee < row.price);
      if (row.paintwear_min !== null && ["weapon", "knife", "gloves"].includes(row.goods_type)) {
        wearable += 1;
        const wear = Number(row.paintwear);
        assert.ok(wear >= Number(row.paintwear_min) && wear < Number(row.paintwear_max), `wear ${wear}`);
        assert.equal(Math.fround(Number(row.asset_paintwear)), Number(row.asset_paintwear), "a float32");
        assert.ok(row.paintseed !== null && row.paintseed >= 0 && row.paintseed <= 1000);
        const phases = row.tags.filter((tag) => tag.category === "phase");
        if (phases.length > 0 && row.paint_index !== null) {
          phased += 1;
          const allowed = phases.map((tag) => row.paint_index! + PHASE_OFFSETS[tag.internal_name]!);
          assert.ok(allowed.includes(row.paintindex!), `paint index ${row.paintindex} of ${allowed}`);
        } else {
          assert.equal(row.paintindex, row.paint_index);
        }
      } else {
        assert.equal(row.paintwear, null);
        assert.equal(row.paintseed, null);
      }
    }
    assert.ok(wearable > 300, `${wearable} wearable listings`);
    assert.ok(phased >= 0);
  });

  test("a completed trade moved the item to the buyer through an accepted offer, and the money", async () => {
    const trades = await sql<{
      trade_id: number;
      price: number;
      fee: number;
      listing_state: string;
      listing_price: number;
      offer_state: string;
      offer_sender: string;
      offer_receiver: string;
      seller_platformid: string;
      buyer_platformid: string;
      sold_to: number | null;
      received_assetid: number;
      received_from: number | null;
      received_holder: string;
      received_cooldown: Date;
      completed: Date;
      payments: string;
      payouts: string;
    }>`
      SELECT t.trade_id, t.price, t.fee, l.state AS listing_state, l.price AS listing_price,
        o.state AS offer_state, o.sender AS offer_sender, o.receiver AS offer_receiver,
        t.seller_platformid, t.buyer_platformid, s.traded_to_assetid AS sold_to, t.received_assetid,
        r.traded_from_assetid AS received_from, r.platformid AS received_holder,
        r.tradable_after AS received_cooldown, t.updated_at AS completed,
        (SELECT COUNT(*) FROM journal_entries e WHERE e.kind = 'purchase_payment'
           AND e.reference = 'listing:' || t.listing_id)::text AS payments,
        (SELECT COUNT(*) FROM journal_entries e WHERE e.kind = 'trade_payout'
           AND e.reference = 'trade:' || t.trade_id)::text AS payouts
      FROM trades t
      JOIN listings l ON l.listing_id = t.listing_id
      JOIN sandbox_trade_offers o ON o.tradeofferid = t.tradeofferid
      JOIN sandbox_assets s ON s.assetid = t.assetid
      JOIN sandbox_assets r ON r.assetid = t.received_assetid
    `.execute(first.db);
    assert.equal(trades.rows.length, 360);
    for (const row of trades.rows) {
      assert.equal(row.listing_state, "SOLD");
      assert.equal(row.listing_price, row.price);
      assert.equal(row.fee, expectedFee(row.price));
      assert.equal(row.offer_state, "accepted");
      assert.equal(row.offer_sender, row.seller_platformid);
      assert.equal(row.offer_receiver, row.buyer_platformid);
      assert.notEqual(row.seller_platformid, row.buyer_platformid);
      assert.equal(row.sold_to, row.received_assetid);
      assert.equal(row.received_holder, row.buyer_platformid);
      assert.equal(row.received_cooldown.getTime() - row.completed.getTime(), 7 * 24 * 3600 * 1000);
      assert.ok(row.completed < NOW && row.completed > new Date(NOW.getTime() - 14 * 24 * 3600 * 1000));
      assert.equal(row.payments, "1");
      assert.equal(row.payouts, "1");
    }
  });

  test("buy orders bid below the cheapest listing and their traders can pay them", async () => {
    const orders = await sql<{
      buy_order_id: number;
      price: number;
      num: number;
      cheapest: number;
      balance: number;
    }>`
      SELECT o.buy_order_id, o.price, o.num,
        (SELECT MIN(price) FROM listings l WHERE l.goods_id = o.goods_id AND l.state = 'ON_SALE') AS cheapest,
        a.balance
      FROM buy_orders o JOIN ledger_accounts a ON a.user_id = o.user_id AND a.kind = 'balance'
    `.execute(first.db);
    for (const row of orders.rows) {
      assert.ok(row.price < row.cheapest, `buy order ${row.buy_order_id} ${row.price} < ${row.cheapest}`);
      assert.ok(row.price * row.num <= row.balance, `buy order ${row.buy_order_id} covered`);
    }
  });

  test("the goods on sale have a Steam market price above ours and a daily history of the world's days", async () => {
    const rows = await sql<{ goods: string; above: string }>`
      SELECT COUNT(*)::text AS goods,
        COUNT(*) FILTER (WHERE s.price >= l.cheapest * 1.15 / 1.35 AND s.price <= l.cheapest * 1.45)::text AS above
      FROM sandbox_steam_market_prices s
      JOIN (SELECT goods_id, MIN(price) AS cheapest FROM listings WHERE state = 'ON_SALE' GROUP BY goods_id) l
        USING (goods_id)
    `.execute(first.db);
    const row = rows.rows[0]!;
    assert.equal(Number(row.goods), report.goodsOnSale, "every goods on sale, and only those");
    // The Steam price is the typical price times 1.15-1.45; our listings ask the typical price up to
    // 35 % more, and a few more still for a rare phase or a low float.
    assert.ok(Number(row.above) >= Number(row.goods) * 0.95, `${row.above} of ${row.goods}`);
    // The history is made when read, from the seed: a day per day of the world, today's the median.
    const ctx: DomainContext = {
      db: first.db,
      clock: { now: () => NOW },
      actor: { kind: "system" },
      log: silentLog,
      ...testPlatform(),
    };
    const sample = await sql<{ market_hash_name: string }>`
      SELECT g.market_hash_name FROM sandbox_steam_market_prices s JOIN goods g USING (goods_id)
      ORDER BY s.goods_id LIMIT 25
    `.execute(first.db);
    for (const { market_hash_name } of sample.rows) {
      const item = await readSteamMarketItem(ctx, market_hash_name);
      assert.ok(item?.current, market_hash_name);
      assert.equal(item.history.length, SMALL.days, market_hash_name);
      const today = item.history.at(-1)!;
      assert.equal(today.day, NOW.toISOString().slice(0, 10));
      assert.ok(
        Math.abs(today.price - item.current.price * 0.97) <= 0.5,
        "today's point is the median, 97 % of the ask",
      );
      assert.ok(item.history.every((day) => day.price > 0 && day.volume >= 0));
    }
    assert.equal(
      (
        await sql<{
          count: string;
        }>`SELECT COUNT(*)::text AS count FROM sandbox_steam_market_history`.execute(first.db)
      ).rows[0]?.count,
      "0",
      "nothing of the seeded past is written",
    );
  });

  test("prices follow the kind of goods (knives and gloves high, stickers and cases low), exterior and quality", async () => {
    const medians = await sql<{ type: string; median: number }>`
      SELECT g.type, percentile_disc(0.5) WITHIN GROUP (ORDER BY l.price) AS median
      FROM listings l JOIN goods g ON g.goods_id = l.goods_id
      WHERE l.state = 'ON_SALE' GROUP BY g.type
    `.execute(first.db);
    const median = (type: string) => Number(medians.rows.find((row) => row.type === type)?.median);
    assert.ok(median("knife") > 50 * median("weapon"), JSON.stringify(medians.rows));
    assert.ok(median("gloves") > 50 * median("weapon"));
    assert.ok(median("weapon") > median("sticker"));
    // A knife's median is near a vanilla Bayonet's (about 2,000 yuan), a case's a few yuan.
    assert.ok(median("knife") > 400 * median("container"), JSON.stringify(medians.rows));
    // Within a skin, by each goods' median asking price in the world built: Factory New and
    // Minimal Wear above the worn exteriors, StatTrak™ and souvenir above the plain item.
    const goods = await sql<{ short_name: string; quality: string; exterior: string; median: number }>`
      SELECT g.short_name, g.quality, g.exterior,
        percentile_disc(0.5) WITHIN GROUP (ORDER BY l.price) AS median
      FROM listings l JOIN goods g ON g.goods_id = l.goods_id
      WHERE g.type IN ('weapon', 'knife', 'gloves') AND g.exterior IS NOT NULL
      GROUP BY g.goods_id, g.short_name, g.quality, g.exterior
    `.execute(first.db);
    const key = (shortName: string, quality: string, exterior: string) =>
      `${shortName}|${quality}|${exterior}`;
    const medianOf = new Map(
      goods.rows.map((row) => [key(row.short_name, row.quality, row.exterior), Number(row.median)]),
    );
    const DEARER_THAN: Record<string, string[]> = {
      wearcategory0: ["wearcategory2", "wearcategory3", "wearcategory4"],
      wearcategory1: ["wearcategory3", "wearcategory4"],
    };
    const PLAIN: Record<string, string> = {
      stattrak: "normal",
      souvenir: "normal",
      unusual_stattrak: "unusual",
    };
    const unordered: string[] = [];
    let pairs = 0;
    const compare = (row: (typeof goods.rows)[number], quality: string, exterior: string) => {
      const cheaper = medianOf.get(key(row.short_name, quality, exterior));
      if (cheaper === undefined) return;
      pairs += 1;
      if (!(Number(row.median) > cheaper)) unordered.push(`${row.short_name} ${row.quality} ${row.exterior}`);
    };
    for (const row of goods.rows) {
      for (const exterior of DEARER_THAN[row.exterior] ?? []) compare(row, row.quality, exterior);
      if (PLAIN[row.quality]) compare(row, PLAIN[row.quality]!, row.exterior);
    }
    assert.ok(pairs >= 15, `${pairs} pairs`);
    assert.deepEqual(unordered, []);
  });

  test("same seed, same world, in batches of any size; another seed, another world; a second build is refused", async () => {
    // Three small worlds: the rules that make a world from its seed do not depend on its size.
    const [again, inBatches, other] = await Promise.all([
      catalogDatabase(),
      catalogDatabase(),
      catalogDatabase(),
    ]);
    try {
      await buildDemoMarket(again.db, { ...TINY, seed: 7 });
      // A batch smaller than the traders, trades, listings and buy orders: every loop crosses batches.
      await buildDemoMarket(inBatches.db, { ...TINY, seed: 7, batchSize: 4 });
      await buildDemoMarket(other.db, { ...TINY, seed: 8 });
      const digests = await Promise.all(
        [again, inBatches, other].map((database) => worldDigest(database.db)),
      );
      assert.equal(digests[0], digests[1]);
      assert.notEqual(digests[0], digests[2]);
      for (const database of [inBatches, other]) await assertLedgerInvariants(database.db);
      await assert.rejects(buildDemoMarket(again.db, { ...TINY, seed: 7 }), DemoMarketRefused);
      // Beside the existing world when asked: new users, the invariants still hold.
      const added = await buildDemoMarket(again.db, { ...TINY, seed: 9, listings: 200, add: true });
      assert.equal(added.traders[0]!.userId, 1007);
      await assertLedgerInvariants(again.db);
    } finally {
      await Promise.all([again, inBatches, other].map((database) => database.close()));
    }
  });

  test("popular listings go to the most popular standard goods in turn, beyond the listings asked for", async () => {
    const database = await catalogDatabase();
    try {
      const built = await buildDemoMarket(database.db, {
        ...SMALL,
        listings: 300,
        popularListings: { goods: 2, listings: 200 },
      });
      assert.equal(built.listings, 500);
      assert.equal(
        Number(
          (
            await database.db
              .selectFrom("listings")
              .select((eb) => eb.fn.countAll().as("count"))
              .where("state", "=", "ON_SALE")
              .executeTakeFirstOrThrow()
          ).count,
        ),
        500,
      );
      const top = await database.db
        .selectFrom("listings")
        .innerJoin("goods", "goods.goods_id", "listings.goods_id")
        .select(["listings.goods_id", "goods.is_standard", (eb) => eb.fn.countAll<number>().as("count")])
        .where("listings.state", "=", "ON_SALE")
        .groupBy(["listings.goods_id", "goods.is_standard"])
        .orderBy("count", "desc")
        .limit(3)
        .execute();
      assert.deepEqual(
        top.slice(0, 2).map((row) => row.is_standard),
        [true, true],
      );
      for (const row of top.slice(0, 2)) assert.ok(Number(row.count) >= 100, `${row.count} listings`);
      assert.ok(Number(top[2]!.count) < 100);
      await assertLedgerInvariants(database.db);
    } finally {
      await database.close();
    }
  });

  test("traders beyond the credentialed ones share a locked password and have no API token", async () => {
    const database = await catalogDatabase();
    try {
      const built = await buildDemoMarket(database.db, {
        ...SMALL,
        listings: 300,
        traders: 7,
        credentialedTraders: 3,
      });
      assert.equal(built.traderCount, 7);
      assert.deepEqual(
        built.traders.map((trader) => trader.userId),
        [1001, 1002, 1003],
      );
      const users = await sql<{ user_id: number; password_hash: string; tokens: number }>`
        SELECT u.user_id, u.password_hash, (SELECT count(*)::int FROM api_tokens t WHERE t.user_id = u.user_id) AS tokens
        FROM users u ORDER BY u.user_id
      `.execute(database.db);
      assert.equal(users.rows.length, 7);
      const [own, others] = [users.rows.slice(0, 3), users.rows.slice(3)];
      assert.deepEqual(
        own.map((row) => row.tokens),
        [1, 1, 1],
      );
      assert.deepEqual(
        others.map((row) => row.tokens),
        [0, 0, 0, 0],
      );
      assert.equal(new Set(others.map((row) => row.password_hash)).size, 1, "one hash shared");
      assert.match(others[0]!.password_hash, /^\$argon2id\$/);
      assert.ok(!own.some((row) => row.password_hash === others[0]!.password_hash));
      for (const [index, trader] of built.traders.entries())
        assert.ok((await verifyPassword(trader.password, own[index]!.password_hash)).matches);
      // They trade like the others: the market's rows name them too.
      const sellers = await sql<{ count: number }>`
        SELECT count(DISTINCT user_id)::int AS count FROM listings WHERE user_id > 1003
      `.execute(database.db);
      assert.ok(sellers.rows[0]!.count > 0);
      await assertLedgerInvariants(database.db);
    } finally {
      await database.close();
    }
  });

  test("every foreign key is back after the build, as the migrations made it", async () => {
    const fresh = await openTestDatabase();
    try {
      const built = await foreignKeys(first.db);
      const migrated = await foreignKeys(fresh.db);
      assert.ok(built.length > 20, `${built.length} foreign keys`);
      assert.deepEqual(built, migrated);
    } finally {
      await fresh.close();
    }
  });

  test("foreign keys checked at the end refuse a row that breaks one, and the build leaves them as they were", async () => {
    const database = await catalogDatabase();
    try {
      const before = await foreignKeys(database.db);
      await assert.rejects(
        database.db.transaction().execute(async (tx) => {
          const keys = await suspendForeignKeys(tx, ["api_tokens", "listings"]);
          assert.equal(keys.count, 3);
          // Unchecked while the keys are away: a token of a user that does not exist.
          await sql`
            INSERT INTO api_tokens (user_id, token_hash, prefix, created_at)
            VALUES (424242, 'hash', 'smk_none', now())
          `.execute(tx);
          await keys.restore();
        }),
        /violates foreign key constraint/,
      );
      assert.deepEqual(await foreignKeys(database.db), before);
      const tokens = await sql<{ count: number }>`SELECT count(*)::int AS count FROM api_tokens`.execute(
        database.db,
      );
      assert.equal(tokens.rows[0]!.count, 0);
    } finally {
      await database.close();
    }
  });

  test("bad sizes are refused before anything is written", async () => {
    await assert.rejects(buildDemoMarket(first.db, { traders: 1, add: true }), RangeError);
    await assert.rejects(buildDemoMarket(first.db, { days: 0, add: true }), RangeError);
    await assert.rejects(buildDemoMarket(first.db, { credentialedTraders: 0, add: true }), RangeError);
    await assert.rejects(
      buildDemoMarket(first.db, { add: true, popularListings: { goods: 0, listings: 10 } }),
      RangeError,
    );
  });
});

describe("demo market: the API answers from it", () => {
  let t: TestApp;
  let report: DemoMarketReport;

  before(async () => {
    t = await createTestApp({ catalog: true });
    report = await buildDemoMarket(
      t.database.db,
      { ...SMALL, listings: 1500, seed: 3, now: t.clock.now(), secretBox: t.ctx.secretBox },
      () => {},
    );
  });
  after(() => t.close());

  test("a trader's token works and the price list is the listings' minimums", async () => {
    const trader = report.traders[1]!;
    const response = await t.as(trader.token, "GET", "/api/market/items?game=cs2");
    assert.equal(response.statusCode, 200, response.body);
    const info = response.json<{
      info: Array<{ goods_id: number; sales: Array<{ min_price: string; pre_sell_min_price: string }> }>;
    }>().info;
    const now = t.clock.now();
    const expected = await sql<{ goods_id: number; tradable: number | null; cooling: number | null }>`
      SELECT goods_id,
        MIN(price) FILTER (WHERE tradable_after IS NULL OR tradable_after <= ${now}) AS tradable,
        MIN(price) FILTER (WHERE tradable_after > ${now}) AS cooling
      FROM listings WHERE state = 'ON_SALE' GROUP BY goods_id
    `.execute(t.database.db);
    assert.equal(info.length, expected.rows.length);
    assert.equal(info.length, report.goodsOnSale);
    const byGoods = new Map(info.map((entry) => [entry.goods_id, entry.sales[0]!]));
    for (const row of expected.rows) {
      assert.deepEqual(byGoods.get(row.goods_id), {
        min_price: formatMoney(row.tradable ?? 0),
        pre_sell_min_price: formatMoney(row.cooling ?? 0),
      });
    }
  });

  test("liquidity ranks are there at once, from the weeks of trades", async () => {
    const traded = await sql<{ goods_id: number }>`
      SELECT DISTINCT goods_id FROM trades WHERE state = 'SUCCESS' ORDER BY goods_id
    `.execute(t.database.db);
    const ranked = await t.database.db
      .selectFrom("liquidity_ranks")
      .select("goods_id")
      .orderBy("goods_id")
      .execute();
    assert.deepEqual(ranked, traded.rows);
    const enterprise = report.traders.find((trader) => trader.accessLevel === "enterprise")!;
    const goodsId = traded.rows[0]!.goods_id;
    const response = await t.as(
      enterprise.token,
      "GET",
      `/api/market/enterprise/items/liquidity_rank?game=cs2&goods_id=${goodsId}`,
    );
    assert.equal(response.statusCode, 200, response.body);
    const info = response.json<{
      info: Array<{ goods_id: number; sales: Array<{ liquidity_rank: string }> }>;
    }>().info;
    assert.equal(info[0]?.goods_id, goodsId);
    assert.match(info[0]!.sales[0]!.liquidity_rank, /^\d+\.\d\d%$/);
    assert.notEqual(info[0]!.sales[0]!.liquidity_rank, "0.00%");
  });

  test("the trader's listings are on sale under the trader's token", async () => {
    const trader = report.traders[2]!;
    const response = await t.as(trader.token, "GET", "/api/market/developer/sell_order/on_sale?game=cs2");
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json<{
      data: { total_count: number; items: Array<{ id: string; goods_id: number; price: string }> };
    }>().data;
    const own = await sql<{ count: string }>`
      SELECT COUNT(*)::text AS count FROM listings WHERE user_id = ${trader.userId} AND state = 'ON_SALE'
    `.execute(t.database.db);
    assert.equal(body.total_count, Number(own.rows[0]!.count));
    assert.ok(body.total_count > 0);
    const first = await t.database.db
      .selectFrom("listings")
      .select(["user_id", "price", "goods_id"])
      .where("listing_id", "=", Number(body.items[0]!.id))
      .executeTakeFirstOrThrow();
    assert.equal(first.user_id, trader.userId);
    assert.equal(formatMoney(first.price), body.items[0]!.price);
    assert.equal(first.goods_id, body.items[0]!.goods_id);
    const other = await t.as(
      "smk_" + "x".repeat(43),
      "GET",
      "/api/market/developer/sell_order/on_sale?game=cs2",
    );
    assert.equal(other.statusCode, 401);
  });

  test("a new user buys from the demo market, the trader delivers, and the ledger holds", async () => {
    const cheapest = await sql<{ listing_id: number; goods_id: number; price: number; user_id: number }>`
      SELECT l.listing_id, l.goods_id, l.price, l.user_id FROM listings l JOIN goods g ON g.goods_id = l.goods_id
      WHERE l.state = 'ON_SALE' AND g.is_standard AND l.tradable_after IS NULL
      ORDER BY l.goods_id, l.price, l.listing_id LIMIT 1
    `.execute(t.database.db);
    const listing = cheapest.rows[0]!;
    const buyer = await createReadyTrader(t);
    await t.fund(buyer.userId, "balance", formatMoney(listing.price));
    const bought = await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [{ goods_id: listing.goods_id, max_price: formatMoney(listing.price), quantity: 1 }],
      platformid: buyer.platformid,
    });
    assert.equal(bought.statusCode, 200, bought.body);
    const result = bought.json<{
      result: Record<string, { success_num: number; bill_order_ids: string[] }>;
    }>().result[String(listing.goods_id)]!;
    assert.equal(result.success_num, 1, bought.body);
    await t.assertLedger();
    const seller = report.traders.find((trader) => trader.userId === listing.user_id)!;
    const sent = await t.as(seller.token, "POST", "/api/market/developer/sell_order/send_offer", {
      order_id: result.bill_order_ids[0],
    });
    assert.equal(sent.statusCode, 200, sent.body);
    const trade = await t.database.db
      .selectFrom("trades")
      .select(["state", "price", "seller_id"])
      .where("trade_id", "=", Number(result.bill_order_ids[0]))
      .executeTakeFirstOrThrow();
    assert.deepEqual(trade, { state: "TRADING", price: listing.price, seller_id: listing.user_id });
    await t.assertLedger();
  });
});

describe("demo market: when a server builds it at start", () => {
  test("auto builds only on a new embedded database with the sandbox on; on always; off never", () => {
    assert.equal(demoWantedAtStart({ demo: "auto", sandbox: true }, true), true);
    assert.equal(demoWantedAtStart({ demo: "auto", sandbox: true }, false), false);
    assert.equal(demoWantedAtStart({ demo: "auto", sandbox: false }, true), false);
    assert.equal(demoWantedAtStart({ demo: "on", sandbox: false }, false), true);
    assert.equal(demoWantedAtStart({ demo: "off", sandbox: true }, true), false);
  });

  test("DEMO is auto by default, and anything but auto, on or off stops the start naming it", () => {
    assert.equal(loadConfig({}).demo, "auto");
    assert.equal(loadConfig({ DEMO: "off" }).demo, "off");
    assert.equal(loadConfig({ DEMO: "on" }).demo, "on");
    assert.throws(
      () => loadConfig({ DEMO: "yes" }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.variable, "DEMO");
        return true;
      },
    );
  });
});
