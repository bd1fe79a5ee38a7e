import type { Fen } from "@skinmarket/contract";
import { sql, type RawBuilder } from "kysely";
import type { SpecificRow } from "../../storage/schema.ts";
import { publicBook } from "./public-book.ts";
import type { DomainContext } from "../context.ts";
import type { MarketCatalog, MarketGoods } from "./market-goods.ts";
import { coversEntry, fadeRangeOf, FLOAT_INTERVALS, phaseOf, type EntryPart } from "./market-variants.ts";

/** The market figures of docs/design/market-data.md#the-market-figures-and-the-other-price-operations, of a whole goods or of one part of it. */
export interface Figures {
  /** Cheapest tradable listing; 0 while there is none. */
  minPrice: Fen;
  /** Cheapest listing still in trade cooldown; 0 while there is none. */
  preSellMinPrice: Fen;
  sellNum: number;
  preSellNum: number;
  /** Mean of the (up to) 10 cheapest tradable listings, rounded half up to the fen; 0 without. */
  avgMinPrice: Fen;
  /** Best buy order in the public book that takes any item described; 0 while there is none. */
  buyMaxPrice: Fen;
  /** Units those buy orders still want. */
  buyOrderNum: number;
}

export interface IntervalFigures extends Figures {
  minFloat: string;
  maxFloat: string;
}

export interface VariantFigures extends Figures {
  tagId: number;
  tagName: string;
}

export interface GoodsFigures {
  whole: Figures;
  /** The fixed paint-wear intervals holding at least one listing, in order. */
  intervals: IntervalFigures[];
  /** The phases, then the fade ranges, holding at least one listing, in order. */
  variants: VariantFigures[];
}

export const NO_FIGURES: Figures = {
  minPrice: 0,
  preSellMinPrice: 0,
  sellNum: 0,
  preSellNum: 0,
  avgMinPrice: 0,
  buyMaxPrice: 0,
  buyOrderNum: 0,
};

interface ListingAggregate {
  min_price: number | null;
  pre_sell_min_price: number | null;
  sell_num: number;
  pre_sell_num: number;
  /** The 10 cheapest tradable prices, comma-separated, ascending. */
  cheapest: string | null;
}

interface ListingFigures {
  minPrice: Fen;
  preSellMinPrice: Fen;
  sellNum: number;
  preSellNum: number;
  cheapest: Fen[];
}

// Every figure of a group of live listings in one pass; `tradable` is computed by `liveListings`.
const AGGREGATES = sql`
  min(price) FILTER (WHERE tradable) AS min_price,
  min(price) FILTER (WHERE NOT tradable) AS pre_sell_min_price,
  count(*) FILTER (WHERE tradable) AS sell_num,
  count(*) FILTER (WHERE NOT tradable) AS pre_sell_num,
  array_to_string((array_agg(price ORDER BY price) FILTER (WHERE tradable))[1:10], ',') AS cheapest`;

/** Which goods a figure query keeps to: some goods, a range of goods ids (both ends in), or all. */
export type GoodsChoice =
  { goodsIds: readonly number[] } | { goodsRange: GoodsRange } | Record<string, never>;

/** A range of goods ids, both ends in. */
export interface GoodsRange {
  from: number;
  to: number;
}

function onlyGoods(choice: GoodsChoice, column: string): RawBuilder<unknown> {
  const ref = sql.ref(column);
  if ("goodsIds" in choice) return sql`AND ${ref} IN (${sql.join(choice.goodsIds)})`;
  if ("goodsRange" in choice)
    return sql`AND ${ref} BETWEEN ${choice.goodsRange.from} AND ${choice.goodsRange.to}`;
  return sql``;
}

/** Listings on sale (of some goods only, when given), tradable when their cooldown is over. */
function liveListings(now: Date, goods: GoodsChoice): RawBuilder<unknown> {
  const only = onlyGoods(goods, "goods_id");
  return sql`(
    SELECT goods_id, price, paintwear, paintseed, paintindex,
      (tradable_after IS NULL OR tradable_after <= ${now}) AS tradable
    FROM listings WHERE state = 'ON_SALE' ${only}
  ) AS live`;
}

// The interval (0-based) of each wear: `width_bucket` over the intervals' lower bounds, once per
// listing (a join with an interval table, or a lateral pair per row, measured two to three times
// slower over 300,000 listings). The intervals are closed, so a wear exactly on a shared boundary
// (0.07) also counts in the interval below: the second branch adds those few rows.
const LOWER_BOUNDS = sql.raw(`ARRAY[${FLOAT_INTERVALS.map(({ min }) => min).join(", ")}]::numeric[]`);

function listingsByInterval(now: Date, goods: GoodsChoice): RawBuilder<unknown> {
  const only = onlyGoods(goods, "goods_id");
  const worn = sql`(
    SELECT goods_id, price, paintwear, width_bucket(paintwear, ${LOWER_BOUNDS}) AS bucket,
      (tradable_after IS NULL OR tradable_after <= ${now}) AS tradable
    FROM listings WHERE state = 'ON_SALE' AND paintwear IS NOT NULL ${only}
  ) AS worn`;
  return sql`(
    SELECT goods_id, price, tradable, bucket - 1 AS idx FROM ${worn}
    UNION ALL
    SELECT goods_id, price, tradable, bucket - 2 AS idx FROM ${worn}
    WHERE bucket > 1 AND paintwear = (${LOWER_BOUNDS})[bucket]
  ) AS live`;
}

interface BuyAggregate {
  goods_id: number;
  buy_max: number | null;
  wanted: number | string | null;
  open_max: number | null;
  open_wanted: number | string | null;
}

interface ConstrainedOrder {
  goods_id: number;
  price: number;
  wanted: number;
  specific: SpecificRow[];
}

/**
 * The market figures of every goods on the market (with a listing on sale or a buy order in the
 * public book), or of some goods only, as of `now`: whole goods, fixed paint-wear intervals, phases
 * and fade ranges. Each is one SQL aggregate over all listings at once (the phase and fade ones
 * over the listings of those finishes only), so a whole-market build is a handful of scans
 * whatever its size.
 */
export async function computeMarketFigures(
  ctx: DomainContext,
  catalog: MarketCatalog,
  options: { now: Date } & GoodsChoice,
): Promise<Map<number, GoodsFigures>> {
  const { now } = options;
  const choice: GoodsChoice =
    "goodsIds" in options
      ? { goodsIds: options.goodsIds }
      : "goodsRange" in options
        ? { goodsRange: options.goodsRange }
        : {};
  if ("goodsIds" in choice && choice.goodsIds.length === 0) return new Map();
  const inChoice = (id: number) =>
    "goodsRange" in choice ? id >= choice.goodsRange.from && id <= choice.goodsRange.to : true;
  const ofGoods = (wanted: (goods: MarketGoods) => boolean) =>
    ("goodsIds" in choice ? choice.goodsIds : [...catalog.byId.keys()]).filter((id) => {
      const goods = catalog.byId.get(id);
      return goods !== undefined && inChoice(id) && wanted(goods);
    });
  const phasedIds = ofGoods((goods) => goods.phased);
  const fadeIds = ofGoods((goods) => goods.fade !== undefined);
  const byGoodsIds = (query: ReturnType<typeof publicBook>) =>
    "goodsIds" in choice
      ? query.where("buy_orders.goods_id", "in", [...choice.goodsIds])
      : "goodsRange" in choice
        ? query
            .where("buy_orders.goods_id", ">=", choice.goodsRange.from)
            .where("buy_orders.goods_id", "<=", choice.goodsRange.to)
        : query;

  const [whole, intervals, phases, fades, bids, constrained] = await Promise.all([
    sql<ListingAggregate & { goods_id: number }>`
      SELECT goods_id, ${AGGREGATES} FROM ${liveListings(now, choice)} GROUP BY goods_id
    `.execute(ctx.db),
    sql<ListingAggregate & { goods_id: number; idx: number }>`
      SELECT goods_id, idx, ${AGGREGATES} FROM ${listingsByInterval(now, choice)} GROUP BY goods_id, idx
    `.execute(ctx.db),
    phasedIds.length === 0
      ? { rows: [] }
      : sql<ListingAggregate & { goods_id: number; paintindex: number | null }>`
          SELECT goods_id, paintindex, ${AGGREGATES} FROM ${liveListings(now, { goodsIds: phasedIds })}
          GROUP BY goods_id, paintindex
        `.execute(ctx.db),
    fadeIds.length === 0
      ? { rows: [] }
      : sql<ListingAggregate & { goods_id: number; paintseed: number | null }>`
          SELECT goods_id, paintseed, ${AGGREGATES} FROM ${liveListings(now, { goodsIds: fadeIds })}
          GROUP BY goods_id, paintseed
        `.execute(ctx.db),
    byGoodsIds(publicBook(ctx.db))
      .select([
        "buy_orders.goods_id",
        sql<number>`max(buy_orders.price)`.as("buy_max"),
        sql<number>`sum(buy_orders.num - buy_orders.real_num - buy_orders.frozen_num)`.as("wanted"),
        sql<
          number | null
        >`max(buy_orders.price) FILTER (WHERE jsonb_array_length(buy_orders.specific) = 0)`.as("open_max"),
        sql<
          number | null
        >`sum(buy_orders.num - buy_orders.real_num - buy_orders.frozen_num) FILTER (WHERE jsonb_array_length(buy_orders.specific) = 0)`.as(
          "open_wanted",
        ),
      ])
      .groupBy("buy_orders.goods_id")
      .execute() as Promise<BuyAggregate[]>,
    byGoodsIds(publicBook(ctx.db))
      .select([
        "buy_orders.goods_id",
        "buy_orders.price",
        "buy_orders.specific",
        sql<number>`buy_orders.num - buy_orders.real_num - buy_orders.frozen_num`.as("wanted"),
      ])
      .where(sql<boolean>`jsonb_array_length(buy_orders.specific) > 0`)
      .execute() as Promise<ConstrainedOrder[]>,
  ]);

  const figures = new Map<number, GoodsFigures>();
  const entryOf = (goodsId: number) => {
    let entry = figures.get(goodsId);
    if (!entry) {
      entry = { whole: { ...NO_FIGURES }, intervals: [], variants: [] };
      figures.set(goodsId, entry);
    }
    return entry;
  };
  const bidsOf = new Map(bids.map((row) => [row.goods_id, row]));
  const constrainedOf = new Map<number, ConstrainedOrder[]>();
  for (const order of constrained) {
    const list = constrainedOf.get(order.goods_id) ?? [];
    list.push(order);
    constrainedOf.set(order.goods_id, list);
  }
  // The best bid and the units wanted for every item of one part of a goods.
  const bidFor = (goodsId: number, part: EntryPart) => {
    const open = bidsOf.get(goodsId);
    let buyMaxPrice = Number(open?.open_max ?? 0);
    let buyOrderNum = Number(open?.open_wanted ?? 0);
    for (const order of constrainedOf.get(goodsId) ?? []) {
      if (!coversEntry(order.specific, part)) continue;
      buyMaxPrice = Math.max(buyMaxPrice, order.price);
      buyOrderNum += Number(order.wanted);
    }
    return { buyMaxPrice, buyOrderNum };
  };

  for (const row of whole.rows) Object.assign(entryOf(row.goods_id).whole, withAverage(listingFigures(row)));
  for (const row of bids) {
    const entry = entryOf(row.goods_id).whole;
    entry.buyMaxPrice = Number(row.buy_max ?? 0);
    entry.buyOrderNum = Number(row.wanted ?? 0);
  }
  const sortedIntervals = [...intervals.rows].sort((a, b) => a.goods_id - b.goods_id || a.idx - b.idx);
  for (const row of sortedIntervals) {
    const goods = catalog.byId.get(row.goods_id);
    if (!goods || goods.paintwear_min === null) continue;
    const { min, max } = FLOAT_INTERVALS[row.idx]!;
    entryOf(row.goods_id).intervals.push({
      ...withAverage(listingFigures(row)),
      ...bidFor(row.goods_id, { kind: "interval", min, max }),
      minFloat: min,
      maxFloat: max,
    });
  }
  const sortedPhases = [...phases.rows].sort(
    (a, b) => a.goods_id - b.goods_id || (a.paintindex ?? 0) - (b.paintindex ?? 0),
  );
  for (const row of sortedPhases) {
    const goods = catalog.byId.get(row.goods_id);
    const phase = goods && phaseOf(goods, row.paintindex);
    if (!phase) continue;
    entryOf(row.goods_id).variants.push({
      ...withAverage(listingFigures(row)),
      ...bidFor(row.goods_id, { kind: "phase", phase: phase.phase }),
      tagId: phase.tagId,
      tagName: phase.tagName,
    });
  }
  for (const [goodsId, ranges] of fadeRanges(catalog, fades.rows)) {
    for (const [range, listed] of ranges)
      entryOf(goodsId).variants.push({
        ...withAverage(listed),
        ...bidFor(goodsId, { kind: "fade", from: range.from, to: range.to }),
        tagId: range.tagId,
        tagName: range.tagName,
      });
  }
  return figures;
}

function listingFigures(row: ListingAggregate): ListingFigures {
  return {
    minPrice: Number(row.min_price ?? 0),
    preSellMinPrice: Number(row.pre_sell_min_price ?? 0),
    sellNum: Number(row.sell_num),
    preSellNum: Number(row.pre_sell_num),
    cheapest: row.cheapest ? row.cheapest.split(",").map(Number) : [],
  };
}

function withAverage({ cheapest, ...figures }: ListingFigures) {
  return { ...figures, avgMinPrice: averageFen(cheapest) };
}

/** The mean of amounts in fen, rounded half up to the fen (exact: integer arithmetic only). */
export function averageFen(amounts: readonly Fen[]): Fen {
  if (amounts.length === 0) return 0;
  const sum = amounts.reduce((total, amount) => total + amount, 0);
  return Math.floor((2 * sum + amounts.length) / (2 * amounts.length));
}

/** Per Fade-style goods, the figures of each fade range, merged from the per-seed aggregates. */
function fadeRanges(
  catalog: MarketCatalog,
  rows: ReadonlyArray<ListingAggregate & { goods_id: number; paintseed: number | null }>,
) {
  type Range = NonNullable<ReturnType<typeof fadeRangeOf>>;
  const merged = new Map<number, Map<Range, ListingFigures>>();
  for (const row of rows) {
    const fade = catalog.byId.get(row.goods_id)?.fade;
    const percentage = row.paintseed === null ? undefined : fade?.get(row.paintseed);
    const range = percentage === undefined ? undefined : fadeRangeOf(percentage);
    if (!range) continue;
    const ranges = merged.get(row.goods_id) ?? new Map<Range, ListingFigures>();
    merged.set(row.goods_id, ranges);
    const part = listingFigures(row);
    const known = ranges.get(range);
    ranges.set(range, known ? mergeListings(known, part) : part);
  }
  return [...merged.entries()]
    .sort(([a], [b]) => a - b)
    .map(
      ([goodsId, ranges]) => [goodsId, [...ranges.entries()].sort(([a], [b]) => a.from - b.from)] as const,
    );
}

function mergeListings(a: ListingFigures, b: ListingFigures): ListingFigures {
  const lowest = (x: Fen, y: Fen) => (x === 0 ? y : y === 0 ? x : Math.min(x, y));
  return {
    minPrice: lowest(a.minPrice, b.minPrice),
    preSellMinPrice: lowest(a.preSellMinPrice, b.preSellMinPrice),
    sellNum: a.sellNum + b.sellNum,
    preSellNum: a.preSellNum + b.preSellNum,
    cheapest: [...a.cheapest, ...b.cheapest].sort((x, y) => x - y).slice(0, 10),
  };
}
