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
    ctx.db
      .selectFrom("sandbox_steam_market_history")
      .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as("day"), "price", "volume"])
      .where("goods_id", "=", goods.goods_id)
      .orderBy("day")
      .execute(),
  ]);
  const price = current.get(goods.goods_id);
  return {
    goodsId: goods.goods_id,
    ...(price ? { current: price } : {}),
    history: history.map((row) => ({ day: row.day, price: Number(row.price), volume: row.volume })),
  };
}
