import { sql } from "kysely";
import { DemoRandom, STREAM } from "../domain/simulation/demo-random.ts";
import { startingSteamRatio, steamDailyVolume } from "../domain/simulation/steam-market-walk.ts";
import type { DemoWorld } from "./demo-world.ts";

/**
 * The sandbox's Steam market for the goods on sale (docs/design/steam-face.md#market-prices): each
 * goods' Steam price is its typical price on our market times its starting ratio (`STEAM_RATIO`),
 * its 24-hour volume drawn from the price, and a daily history of the world's `days`, which is not
 * written: the row keeps the seed, today and the price and volume, and the history is made from
 * them when read (`readSteamMarketItem`). Goods already priced (a build beside an existing
 * market) keep theirs.
 */
export async function writeDemoSteamMarket(world: DemoWorld): Promise<number> {
  const { seed, days } = world.settings;
  const goods = world.catalog.covered;
  const updatedAt = world.now.toISOString();
  const today = updatedAt.slice(0, 10);
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
      INSERT INTO sandbox_steam_market_prices (goods_id, price, volume, updated_at,
        history_seed, history_until, history_days, history_price, history_volume)
      SELECT goods_id, price, volume, updated_at, ${seed}::bigint, ${today}::date, ${days}::integer, price, volume
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS r(goods_id integer, price bigint, volume integer, updated_at timestamptz)
      ON CONFLICT (goods_id) DO NOTHING
    `.execute(world.tx);
  }
  return goods.length;
}
