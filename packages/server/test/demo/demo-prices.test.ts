import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { buildDemoMarket } from "../../src/demo/build-demo-market.ts";
import { DEMO_DEFAULTS } from "../../src/demo/demo-defaults.ts";
import type { DomainContext } from "../../src/domain/context.ts";
import { typicalPriceOf } from "../../src/domain/simulation/start-simulation.ts";
import type { DatabaseHandle } from "../../src/storage/database.ts";
import { openTestDatabase } from "../support/test-database.ts";
import { silentLog, testPlatform } from "../support/test-context.ts";

/**
 * The default demo market's prices are plausible (docs/design/platform-and-sandbox.md#demo-prices):
 * the goods people look up first, and a small world's listings and Steam prices by kind.
 */

const NOW = new Date("2026-06-01T12:00:00.000Z");

describe("demo market: plausible prices", () => {
  let handle: DatabaseHandle;
  let ctx: DomainContext;

  before(async () => {
    handle = await openTestDatabase({ catalog: true });
    await buildDemoMarket(handle.db, {
      listings: 1200,
      traders: 6,
      days: 14,
      now: NOW,
      seed: DEMO_DEFAULTS.seed,
    });
    ctx = {
      db: handle.db,
      clock: { now: () => NOW },
      log: silentLog,
      platform: testPlatform(),
    } as unknown as DomainContext;
  });
  after(() => handle.close());

  /** The typical price of the default seed, in yuan, of the goods of that name. */
  async function yuan(marketHashName: string): Promise<number> {
    const row = await handle.db
      .selectFrom("goods")
      .select("goods_id")
      .where("market_hash_name", "=", marketHashName)
      .executeTakeFirstOrThrow();
    return (await typicalPriceOf(ctx, row.goods_id, DEMO_DEFAULTS.seed)) / 100;
  }

  test("a Battle-Scarred Lore Karambit costs thousands, above a vanilla Bayonet, below its Factory New", async () => {
    const loreBs = await yuan("★ Karambit | Lore (Battle-Scarred)");
    const loreFn = await yuan("★ Karambit | Lore (Factory New)");
    const bayonet = await yuan("★ Bayonet");
    const karambit = await yuan("★ Karambit");
    assert.ok(loreBs >= 2_000 && loreBs <= 10_000, `${loreBs}`);
    assert.ok(bayonet >= 1_000 && bayonet <= 4_000, `${bayonet}`);
    assert.ok(loreBs > bayonet, `${loreBs} > ${bayonet}`);
    assert.ok(karambit > 1.5 * bayonet, `${karambit} > ${bayonet}`);
    assert.ok(loreFn > 2 * loreBs, `${loreFn} > ${loreBs}`);
    assert.ok((await yuan("★ StatTrak™ Karambit | Lore (Battle-Scarred)")) > loreBs);
    // A covert rifle below the knives, a consumer-grade skin a few yuan, a case a few yuan.
    const asiimov = await yuan("AWP | Asiimov (Field-Tested)");
    assert.ok(asiimov >= 100 && asiimov < bayonet, `${asiimov}`);
    const marshGrass = await yuan("Nova | Marsh Grass (Minimal Wear)");
    assert.ok(marshGrass > 0.05 && marshGrass <= 10, `${marshGrass}`);
    const howl = await yuan("M4A4 | Howl (Field-Tested)");
    assert.ok(howl > loreFn, `${howl}`);
  });

  test("every knife and gloves on sale asks at least 700 yuan, on our market and on Steam's", async () => {
    const { rows } = await sql<{
      type: string;
      cheapest: string;
      steam: string;
      median: string;
      count: string;
    }>`
      SELECT g.type, MIN(l.price)::text AS cheapest, MIN(s.price)::text AS steam,
        percentile_disc(0.5) WITHIN GROUP (ORDER BY s.price)::text AS median, COUNT(*)::text AS count
      FROM listings l JOIN goods g USING (goods_id) JOIN sandbox_steam_market_prices s USING (goods_id)
      WHERE l.state = 'ON_SALE' GROUP BY g.type
    `.execute(handle.db);
    const of = (type: string) => rows.find((row) => row.type === type)!;
    for (const type of ["knife", "gloves"]) {
      assert.ok(Number(of(type).count) > 5, JSON.stringify(rows));
      assert.ok(Number(of(type).cheapest) >= 70_000, `${type} ${of(type).cheapest}`);
      assert.ok(Number(of(type).steam) >= 70_000 * 1.15, `${type} on Steam ${of(type).steam}`);
      assert.ok(Number(of(type).median) > 100 * Number(of("container").median), JSON.stringify(rows));
    }
  });

  test("consumer-grade skins on sale ask a few yuan, their souvenirs a little more", async () => {
    const { rows } = await sql<{ quality: string; dearest: string; median: string }>`
      SELECT g.quality, MAX(l.price)::text AS dearest,
        percentile_disc(0.5) WITHIN GROUP (ORDER BY l.price)::text AS median
      FROM listings l JOIN goods g USING (goods_id)
      WHERE l.state = 'ON_SALE' AND g.type = 'weapon'
        AND g.tags @> '[{"category": "rarity", "internal_name": "common_weapon"}]'::jsonb
      GROUP BY g.quality
    `.execute(handle.db);
    const normal = rows.find((row) => row.quality === "normal")!;
    assert.ok(Number(normal.dearest) <= 1_500, JSON.stringify(rows));
    assert.ok(Number(normal.median) <= 300, JSON.stringify(rows));
    for (const row of rows) assert.ok(Number(row.dearest) <= 5_000, JSON.stringify(rows));
  });
});
