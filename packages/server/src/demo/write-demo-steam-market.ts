import { sql } from "kysely";
import { DemoRandom, STREAM } from "../domain/simulation/demo-random.ts";
import { startingSteamRatio, steamDailyVolume } from "../domain/simulation/steam-market-walk.ts";
import { STEAM_SALE_RATIO } from "../platform/sandbox/steam-market.ts";
import type { DemoWorld } from "./demo-world.ts";

/** Standard deviation of a day's step of the seeded history (of the log of the price). */
const DAILY_VOLATILITY = 0.03;

/**
 * The sandbox's Steam market for the goods on sale (docs/design/steam-face.md#market-prices): each
 * goods' Steam price is its typical price on our market times its starting ratio (`STEAM_RATIO`),
 * its 24-hour volume drawn from the price, and a daily history of the world's `days`: a walk back
 * from today's median with volumes around today's, from hashes of the seed, goods and day (one
 * set-based statement). Goods already priced (a build beside an existing market) keep theirs.
 */
export async function writeDemoSteamMarket(world: DemoWorld): Promise<number> {
  const { seed, days } = world.settings;
  const goods = world.catalog.covered;
  const updatedAt = world.now.toISOString();
  for (let start = 0; start < goods.length; start += world.batch) {
    const rows = goods.slice(start, start + world.batch).map((each) => {
      const price = Math.max(
        3,
        Math.round(world.catalog.typical.get(each.goods_id)! * startingSteamRatio(seed, each.goods_id)),
      );
      const random = new DemoRandom(seed, STREAM.steamMarket, each.goods_id, 1);
      return {
        goods_id: each.goods_id,
        price,
        volume: steamDailyVolume(price, random),
        updated_at: updatedAt,
      };
    });
    await sql`
      INSERT INTO sandbox_steam_market_prices (goods_id, price, volume, updated_at)
      SELECT goods_id, price, volume, updated_at
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS r(goods_id integer, price bigint, volume integer, updated_at timestamptz)
      ON CONFLICT (goods_id) DO NOTHING
    `.execute(world.tx);
  }
  const today = world.now.toISOString().slice(0, 10);
  // uniform(-0.5, 0.5) has a standard deviation of 1/sqrt(12).
  const step = DAILY_VOLATILITY * Math.sqrt(12);
  await sql`
    INSERT INTO sandbox_steam_market_history (goods_id, day, price, volume)
    SELECT goods_id, day,
      greatest(1, round(price * ${STEAM_SALE_RATIO}::float8 * exp(walk)))::bigint,
      greatest(0, round(volume * (0.6 + 0.8 * v)))::integer
    FROM (
      SELECT p.goods_id, p.price, p.volume, (${today}::date - s.n) AS day,
        sum(CASE WHEN s.n = 0 THEN 0 ELSE ${step}::float8 * (
          (hashint8extended(p.goods_id::bigint * 4096 + s.n, ${seed}::bigint) & 65535)::float8 / 65536 - 0.5
        ) END) OVER (PARTITION BY p.goods_id ORDER BY s.n) AS walk,
        (hashint8extended(p.goods_id::bigint * 4096 + s.n, ${seed}::bigint + 1) & 65535)::float8 / 65536 AS v
      FROM sandbox_steam_market_prices p CROSS JOIN generate_series(0, ${days - 1}::integer) AS s(n)
      WHERE p.updated_at = ${updatedAt}::timestamptz
    ) AS points
    ON CONFLICT (goods_id, day) DO NOTHING
  `.execute(world.tx);
  return goods.length;
}
