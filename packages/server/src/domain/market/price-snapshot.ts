import { formatMoney, type Fen } from "@skinmarket/contract";
import { publicBook } from "../buy-orders/public-book.ts";
import { sql } from "kysely";
import { toUnixSeconds } from "../clock.ts";
import type { DomainContext } from "../context.ts";

/** Goods the price list leaves out with `include_sticker=0`: stickers, sticker slabs, sealed graffiti. */
const STICKER_TYPES = new Set(["sticker", "sticker_slab", "graffiti"]);

export interface PriceEntry {
  goods_id: number;
  market_hash_name: string;
  name: string;
  type: string;
  /** Cheapest tradable listing; 0 while there is none. */
  minPrice: Fen;
  /** Cheapest listing still in trade cooldown; 0 while there is none. */
  preSellMinPrice: Fen;
}

export interface PriceSnapshot {
  builtAt: Date;
  /** Every goods with a listing on sale or a buy order in the public book, by goods id. */
  entries: Map<number, PriceEntry>;
}

/**
 * The market's prices as of one moment (docs/design.md section 4): whole-market answers are read
 * from it instead of the database, and it is rebuilt on demand once it is older than `maxAgeMs`
 * (one rebuild at a time), so a change in listings shows within about that long.
 */
export class PriceSnapshots {
  readonly #maxAgeMs: number;
  #current: PriceSnapshot | undefined;
  #building: Promise<PriceSnapshot> | undefined;

  constructor(maxAgeMs = 1000) {
    this.#maxAgeMs = maxAgeMs;
  }

  async current(ctx: DomainContext): Promise<PriceSnapshot> {
    const now = ctx.clock.now().getTime();
    if (this.#current && now - this.#current.builtAt.getTime() < this.#maxAgeMs) return this.#current;
    this.#building ??= buildSnapshot(ctx).finally(() => (this.#building = undefined));
    this.#current = await this.#building;
    return this.#current;
  }
}

async function buildSnapshot(ctx: DomainContext): Promise<PriceSnapshot> {
  const builtAt = ctx.clock.now();
  const [listed, bid] = await Promise.all([
    sql<{ goods_id: number; min_price: string | null; pre_sell_min_price: string | null }>`
      SELECT goods_id,
        min(price) FILTER (WHERE tradable_after IS NULL OR tradable_after <= ${builtAt}) AS min_price,
        min(price) FILTER (WHERE tradable_after > ${builtAt}) AS pre_sell_min_price
      FROM listings WHERE state = 'ON_SALE' GROUP BY goods_id
    `.execute(ctx.db),
    publicBook(ctx.db).select("buy_orders.goods_id").distinct().execute(),
  ]);
  const prices = new Map<number, { minPrice: Fen; preSellMinPrice: Fen }>();
  for (const row of bid) prices.set(row.goods_id, { minPrice: 0, preSellMinPrice: 0 });
  for (const row of listed.rows)
    prices.set(row.goods_id, {
      minPrice: Number(row.min_price ?? 0),
      preSellMinPrice: Number(row.pre_sell_min_price ?? 0),
    });
  const goods =
    prices.size === 0
      ? []
      : await ctx.db
          .selectFrom("goods")
          .select(["goods_id", "market_hash_name", "name", "type"])
          .where("goods_id", "in", [...prices.keys()])
          .orderBy("goods_id")
          .execute();
  return {
    builtAt,
    entries: new Map(goods.map((row) => [row.goods_id, { ...row, ...prices.get(row.goods_id)! }])),
  };
}

/** A price entry as `GET /api/market/items` answers it. */
export function toItemPrice(entry: Omit<PriceEntry, "type">, statTime: Date) {
  return {
    goods_id: entry.goods_id,
    market_hash_name: entry.market_hash_name,
    name: entry.name,
    sales: [
      { min_price: formatMoney(entry.minPrice), pre_sell_min_price: formatMoney(entry.preSellMinPrice) },
    ],
    update_time: toUnixSeconds(statTime),
  };
}

export function isStickerLike(entry: { type: string }): boolean {
  return STICKER_TYPES.has(entry.type);
}
