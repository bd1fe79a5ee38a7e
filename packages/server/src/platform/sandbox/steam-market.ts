import type { Fen } from "@skinmarket/contract";
import { sql } from "kysely";
import type { DomainContext } from "../../domain/context.ts";

/**
 * The sandbox's Steam Community Market (docs/design/steam-face.md#market-prices): a reference
 * price per goods (the lowest ask on the platform's market) with its 24-hour volume, and a daily
 * history of median price and volume. The demo market seeds it, the simulator moves it; the face's
 * `priceoverview`/`pricehistory` and the marketplace's `steam_price` read it.
 */

/** One goods' price on the sandbox's Steam market, as the simulator sets it. */
export interface SteamMarketPoint {
  goodsId: number;
  /** The lowest ask, in fen. */
  price: Fen;
  /** Units sold in the last 24 hours. */
  volume: number;
}

/** A day of the history: its date (`YYYY-MM-DD`, UTC), median sale price in fen, units sold. */
export interface SteamMarketDay {
  day: string;
  price: Fen;
  volume: number;
}

/**
 * Sales on Steam's market clear a little under the lowest ask: a day's median is the reference
 * price times this ratio.
 */
export const STEAM_SALE_RATIO = 0.97;

/** The reference prices and volumes of these goods; goods without one are absent. */
export async function readSteamMarketPrices(
  ctx: DomainContext,
  goodsIds: readonly number[],
): Promise<Map<number, { price: Fen; volume: number }>> {
  if (goodsIds.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom("sandbox_steam_market_prices")
    .select(["goods_id", "price", "volume"])
    .where("goods_id", "in", [...new Set(goodsIds)])
    .execute();
  return new Map(rows.map((row) => [row.goods_id, { price: Number(row.price), volume: row.volume }]));
}

/**
 * Sets the reference prices and, for the sandbox clock's day, each goods' history point (the
 * day's median: `STEAM_SALE_RATIO` of the price, and the 24-hour volume). Two statements whatever
 * the number of goods.
 */
export async function recordSteamMarketPrices(
  ctx: DomainContext,
  points: readonly SteamMarketPoint[],
): Promise<void> {
  if (points.length === 0) return;
  const now = ctx.clock.now();
  const day = now.toISOString().slice(0, 10);
  await ctx.db
    .insertInto("sandbox_steam_market_prices")
    .values(points.map((point) => ({ ...toRow(point), updated_at: now })))
    .onConflict((conflict) =>
      conflict.column("goods_id").doUpdateSet((eb) => ({
        price: eb.ref("excluded.price"),
        volume: eb.ref("excluded.volume"),
        updated_at: eb.ref("excluded.updated_at"),
      })),
    )
    .execute();
  await ctx.db
    .insertInto("sandbox_steam_market_history")
    .values(
      points.map((point) => ({
        goods_id: point.goodsId,
        day,
        price: Math.max(1, Math.round(point.price * STEAM_SALE_RATIO)),
        volume: toRow(point).volume,
      })),
    )
    .onConflict((conflict) =>
      conflict.columns(["goods_id", "day"]).doUpdateSet((eb) => ({
        price: eb.ref("excluded.price"),
        volume: eb.ref("excluded.volume"),
      })),
    )
    .execute();
}

function toRow(point: SteamMarketPoint) {
  return {
    goods_id: point.goodsId,
    price: Math.max(1, Math.round(point.price)),
    volume: Math.max(0, Math.round(point.volume)),
  };
}

/** A goods as the face's market routes see it: its price (if any) and its history, oldest first. */
export interface SteamMarketItem {
  goodsId: number;
  current?: { price: Fen; volume: number };
  history: SteamMarketDay[];
}

/** The goods of this market hash name on the sandbox's Steam market; undefined for a name the catalog lacks. */
export async function readSteamMarketItem(
  ctx: DomainContext,
  marketHashName: string,
): Promise<SteamMarketItem | undefined> {
  const goods = await ctx.db
    .selectFrom("goods")
    .select("goods_id")
    .where("market_hash_name", "=", marketHashName)
    .executeTakeFirst();
  if (!goods) return undefined;
  const [current, history] = await Promise.all([
    readSteamMarketPrices(ctx, [goods.goods_id]),
    readSteamMarketHistory(ctx, goods.goods_id),
  ]);
  const price = current.get(goods.goods_id);
  return {
    goodsId: goods.goods_id,
    ...(price ? { current: price } : {}),
    history: history.map((row) => ({ day: row.day, price: Number(row.price), volume: row.volume })),
  };
}

/** Standard deviation of a day's step of the seeded history (of the log of the price). */
const DAILY_VOLATILITY = 0.03;

/**
 * A goods' history, oldest first: the days the simulator wrote, and the demo's seeded days that it
 * did not, made from the price row's `history_*` (a walk back from that day's median, with volumes
 * around that day's, from hashes of the seed, goods and day). Made here rather than written by the
 * demo: a default demo would write 660,000 rows that are read one goods at a time, if ever.
 */
async function readSteamMarketHistory(ctx: DomainContext, goodsId: number): Promise<SteamMarketDay[]> {
  // uniform(-0.5, 0.5) has a standard deviation of 1/sqrt(12).
  const step = DAILY_VOLATILITY * Math.sqrt(12);
  const { rows } = await sql<{ day: string; price: string; volume: number }>`
    WITH seeded AS (
      SELECT day,
        greatest(1, round(price * ${STEAM_SALE_RATIO}::float8 * exp(walk)))::bigint AS price,
        greatest(0, round(volume * (0.6 + 0.8 * v)))::integer AS volume
      FROM (
        SELECT p.history_price AS price, p.history_volume AS volume, (p.history_until - s.n) AS day,
          sum(CASE WHEN s.n = 0 THEN 0 ELSE ${step}::float8 * (
            (hashint8extended(p.goods_id::bigint * 4096 + s.n, p.history_seed) & 65535)::float8 / 65536 - 0.5
          ) END) OVER (ORDER BY s.n) AS walk,
          (hashint8extended(p.goods_id::bigint * 4096 + s.n, p.history_seed + 1) & 65535)::float8 / 65536 AS v
        FROM sandbox_steam_market_prices p
          CROSS JOIN LATERAL generate_series(0, p.history_days - 1) AS s(n)
        WHERE p.goods_id = ${goodsId} AND p.history_seed IS NOT NULL
      ) AS points
    )
    SELECT to_char(day, 'YYYY-MM-DD') AS day, price::text, volume FROM (
      SELECT day, price, volume FROM sandbox_steam_market_history WHERE goods_id = ${goodsId}
      UNION ALL
      SELECT day, price, volume FROM seeded
      WHERE NOT EXISTS (
        SELECT 1 FROM sandbox_steam_market_history h WHERE h.goods_id = ${goodsId} AND h.day = seeded.day
      )
    ) AS days
    ORDER BY day
  `.execute(ctx.db);
  return rows.map((row) => ({ day: row.day, price: Number(row.price), volume: row.volume }));
}
