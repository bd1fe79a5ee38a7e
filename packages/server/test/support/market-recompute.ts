import { PAINTWEAR_INTERVALS } from "@skinmarket/contract";
import { AcidFadeCalculator, AmberFadeCalculator, FadeCalculator } from "csgo-fade-percentage-calculator";
import type { TestApp } from "./test-app.ts";

/**
 * The market figures of docs/design/market-data.md#the-market-figures-and-the-other-price-operations recomputed the plain way, from the rows of the
 * listings and buy orders in the database, to hold the price operations to.
 */

const PHASE_OFFSETS: Record<string, number> = {
  ruby: -3,
  sapphire: -2,
  black_pearl: -1,
  emerald: -1,
  phase_1: 0,
  phase_2: 1,
  phase_3: 2,
  phase_4: 3,
};
const FADES = [
  [80, 90],
  [90, 93],
  [93, 95],
  [95, 97],
  [97, 99],
  [99, 100],
] as const;

export interface Listing {
  price: number;
  paintwear: string | null;
  paintseed: number | null;
  paintindex: number | null;
  tradable: boolean;
}

export interface Order {
  price: number;
  wanted: number;
  specific: Array<{ type: string; values: string[] }>;
}

export interface Part {
  listings: Listing[];
  orders: Order[];
  min_float?: string;
  max_float?: string;
  tag_id?: number;
  tag_name?: string;
}

export function yuan(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, "0")}`;
}

/** The full figures of a part, as `enterprise/float/items` writes them. */
export function figures(part: Part) {
  const tradable = part.listings.filter((listing) => listing.tradable).map((listing) => listing.price);
  const preSell = part.listings.filter((listing) => !listing.tradable).map((listing) => listing.price);
  const cheapest = [...tradable].sort((a, b) => a - b).slice(0, 10);
  const mean = cheapest.length === 0 ? 0 : cheapest.reduce((a, b) => a + b, 0) / cheapest.length;
  return {
    min_price: yuan(tradable.length ? Math.min(...tradable) : 0),
    pre_sell_min_price: yuan(preSell.length ? Math.min(...preSell) : 0),
    avg_min_price: yuan(Math.floor(mean + 0.5)),
    buy_max_price: yuan(Math.max(0, ...part.orders.map((order) => order.price))),
    sell_num: tradable.length,
    pre_sell_num: preSell.length,
    buy_order_num: part.orders.reduce((total, order) => total + order.wanted, 0),
    ...(part.min_float !== undefined ? { min_float: part.min_float, max_float: part.max_float } : {}),
    ...(part.tag_id !== undefined ? { tag_id: part.tag_id, tag_name: part.tag_name } : {}),
  };
}

function fadePercentage(marketHashName: string, seed: number): number | undefined {
  const match = /^(?:★ )?(?:StatTrak™ )?(.+?) \| (Fade|Amber Fade|Acid Fade) \(/.exec(marketHashName);
  if (!match) return undefined;
  const calculator = {
    Fade: FadeCalculator,
    "Amber Fade": AmberFadeCalculator,
    "Acid Fade": AcidFadeCalculator,
  }[match[2] as "Fade"];
  if (!calculator.getSupportedWeapons().includes(match[1] as never)) return undefined;
  return calculator
    .getFadePercentages(match[1] as never)
    .find((entry: { seed: number }) => entry.seed === seed)?.percentage;
}

/** The whole goods, then each paint-wear interval with listings, then each phase and fade range with listings. */
export async function expectedParts(t: TestApp, goodsId: number): Promise<Part[]> {
  const now = t.clock.now();
  const goods = await t.database.db
    .selectFrom("goods")
    .selectAll()
    .where("goods_id", "=", goodsId)
    .executeTakeFirstOrThrow();
  const listings: Listing[] = (
    await t.database.db
      .selectFrom("listings")
      .select(["price", "paintwear", "paintseed", "paintindex", "tradable_after"])
      .where("goods_id", "=", goodsId)
      .where("state", "=", "ON_SALE")
      .execute()
  ).map((row) => ({
    ...row,
    tradable: row.tradable_after === null || row.tradable_after <= now,
  }));
  const orders: Order[] = (
    await t.database.db
      .selectFrom("buy_orders")
      .innerJoin("users", "users.user_id", "buy_orders.user_id")
      .select(["price", "num", "real_num", "frozen_num", "specific", "state", "buy_order_status"])
      .where("goods_id", "=", goodsId)
      .execute()
  )
    .filter(
      (row) =>
        row.state === "progressing" &&
        row.buy_order_status === "online" &&
        row.num - row.real_num - row.frozen_num > 0,
    )
    .map((row) => ({
      price: row.price,
      wanted: row.num - row.real_num - row.frozen_num,
      specific: row.specific,
    }));
  const open = orders.filter((order) => order.specific.length === 0);
  const covering = (test: (row: { type: string; values: string[] }) => boolean) => [
    ...open,
    ...orders.filter((order) => order.specific.length > 0 && order.specific.every(test)),
  ];
  const parts: Part[] = [{ listings, orders }];
  if (goods.paintwear_min !== null)
    for (const [min, max] of PAINTWEAR_INTERVALS) {
      const inside = listings.filter(
        (listing) =>
          listing.paintwear !== null &&
          Number(listing.paintwear) >= Number(min) &&
          Number(listing.paintwear) <= Number(max),
      );
      if (inside.length === 0) continue;
      parts.push({
        listings: inside,
        orders: covering(
          (row) =>
            row.type === "paintwear" &&
            Number(row.values[0]) <= Number(min) &&
            Number(max) <= Number(row.values[1]),
        ),
        min_float: min,
        max_float: max,
      });
    }
  const phases = goods.tags.filter((tag) => tag.category === "phase");
  const indexes = [...new Set(listings.map((listing) => listing.paintindex))].sort((a, b) => a! - b!);
  for (const index of phases.length > 0 ? indexes : []) {
    const tag = phases.find((phase) => goods.paint_index! + PHASE_OFFSETS[phase.internal_name]! === index);
    if (!tag) continue;
    parts.push({
      listings: listings.filter((listing) => listing.paintindex === index),
      orders: covering((row) => row.type === "phase" && row.values.includes(tag.internal_name)),
      tag_id: tag.id,
      tag_name: tag.localized_name,
    });
  }
  for (const [index, [from, to]] of FADES.entries()) {
    const inside = listings.filter((listing) => {
      const percentage =
        listing.paintseed === null ? undefined : fadePercentage(goods.market_hash_name, listing.paintseed);
      return (
        percentage !== undefined &&
        percentage >= from &&
        (percentage < to || (to === 100 && percentage <= to))
      );
    });
    if (inside.length === 0) continue;
    parts.push({
      listings: inside,
      orders: covering(
        (row) => row.type === "fade" && Number(row.values[0]) <= from && to <= Number(row.values[1]),
      ),
      tag_id: 1_000_001 + index,
      tag_name: `${from}%-${to}%`,
    });
  }
  return parts;
}

/** The fade range (80-90 ... 99-100) of a seed of a Fade-style goods. */
export function fadeRangeIndex(marketHashName: string, seed: number): number | undefined {
  const percentage = fadePercentage(marketHashName, seed);
  if (percentage === undefined) return undefined;
  const index = FADES.findIndex(([from, to]) => percentage >= from && (percentage < to || to === 100));
  return index < 0 ? undefined : index;
}
