import { PAINTWEAR_INTERVALS } from "@skinmarket/contract";
import type { GoodsTagRow, SpecificRow } from "../../storage/schema.ts";
import { fadeCalculatorOf } from "./specific.ts";
import { PHASE_OFFSETS } from "../catalog/phases.ts";

/**
 * The parts of a goods that the float-range price operations describe apart (docs/design/market-data.md#the-market-figures-and-the-other-price-operations): the reference's fixed paint-wear intervals, and variants (`tag_id`, `tag_name`):
 * Doppler-style phases, named by the goods' phase tags, and fade ranges of Fade-style skins.
 */

/** The goods fields the variants depend on. */
export interface VariantGoods {
  market_hash_name: string;
  paint_index: number | null;
  tags: GoodsTagRow[];
}

/** A variant as the answers name it. */
export interface VariantTag {
  tagId: number;
  tagName: string;
}

/**
 * Fade ranges, by fade percentage (80-100, the calculator's scale): each holds `from <= % < to`,
 * the last one also 100. Ids sit above every catalog tag id (those are in the hundreds and only grow
 * slowly), so a fade range never shares an id with a phase.
 */
export const FADE_RANGES: ReadonlyArray<{ from: number; to: number } & VariantTag> = [
  [80, 90],
  [90, 93],
  [93, 95],
  [95, 97],
  [97, 99],
  [99, 100],
].map(([from, to], index) => ({
  from: from!,
  to: to!,
  tagId: 1_000_001 + index,
  tagName: `${from}%-${to}%`,
}));

/** The fixed paint-wear intervals as numbers, in order; each is closed, as the reference says. */
export const FLOAT_INTERVALS = PAINTWEAR_INTERVALS.map(([min, max]) => ({ min, max }));

/**
 * The phase of an item of a Doppler-style goods, by its paint index: the goods' phase tag (its
 * catalog id and localized name) and internal name; undefined for other goods.
 */
export function phaseOf(
  goods: VariantGoods,
  paintindex: number | null,
): (VariantTag & { phase: string }) | undefined {
  if (goods.paint_index === null || paintindex === null) return undefined;
  const offset = paintindex - goods.paint_index;
  const tag = goods.tags.find(
    (candidate) => candidate.category === "phase" && PHASE_OFFSETS[candidate.internal_name] === offset,
  );
  return tag ? { tagId: tag.id, tagName: tag.localized_name, phase: tag.internal_name } : undefined;
}

/** Whether the goods is a Doppler-style finish (its items differ by phase). */
export function hasPhases(goods: VariantGoods): boolean {
  return goods.tags.some((tag) => tag.category === "phase" && tag.internal_name in PHASE_OFFSETS);
}

const fadeTables = new Map<string, Map<number, number>>();

/**
 * Whether the goods' fade percentages are at hand without computing them: it is no Fade-style
 * goods, or another goods of its weapon and finish asked first. A table costs 2-16 ms to compute.
 */
export function fadeTableKnown(goods: Pick<VariantGoods, "market_hash_name">): boolean {
  const fade = fadeCalculatorOf(goods);
  return !fade || fadeTables.has(fadeTableKey(fade));
}

function fadeTableKey(fade: NonNullable<ReturnType<typeof fadeCalculatorOf>>): string {
  return `${fade.calculator.constructor.name}:${fade.weapon}`;
}

/** The fade percentage of each paint seed of a Fade-style goods; undefined for other goods. */
export function fadePercentages(
  goods: Pick<VariantGoods, "market_hash_name">,
): Map<number, number> | undefined {
  const fade = fadeCalculatorOf(goods);
  if (!fade) return undefined;
  const key = fadeTableKey(fade);
  let table = fadeTables.get(key);
  if (!table) {
    table = new Map(
      fade.calculator
        .getFadePercentages(fade.weapon as never)
        .map((entry: { seed: number; percentage: number }) => [entry.seed, entry.percentage]),
    );
    fadeTables.set(key, table);
  }
  return table;
}

/** The fade range a fade percentage falls in. */
export function fadeRangeOf(percentage: number): (typeof FADE_RANGES)[number] | undefined {
  return FADE_RANGES.find(
    (range, index) =>
      percentage >= range.from &&
      (percentage < range.to || (index === FADE_RANGES.length - 1 && percentage <= range.to)),
  );
}

/** What an entry describes, for deciding which buy orders can buy any of its items. */
export type EntryPart =
  | { kind: "interval"; min: string; max: string }
  | { kind: "phase"; phase: string }
  | { kind: "fade"; from: number; to: number };

/**
 * Whether a buy order with these constraints accepts every item an entry describes: its
 * constraints may only be of the entry's kind and must cover the entry whole (a paint-wear range
 * holding the interval, the entry's phase among its phases, a fade range holding the entry's). A
 * buy order that takes only part of an interval, or adds a paint-seed list, is no bid for every item
 * of the entry and does not count in its `buy_max_price` and `buy_order_num`.
 */
export function coversEntry(specific: readonly SpecificRow[], part: EntryPart): boolean {
  return specific.every((row) => {
    if (part.kind === "interval" && row.type === "paintwear")
      return Number(row.values[0]) <= Number(part.min) && Number(part.max) <= Number(row.values[1]);
    if (part.kind === "phase" && row.type === "phase") return row.values.includes(part.phase);
    if (part.kind === "fade" && row.type === "fade")
      return Number(row.values[0]) <= part.from && part.to <= Number(row.values[1]);
    return false;
  });
}
