import { AcidFadeCalculator, AmberFadeCalculator, FadeCalculator } from "csgo-fade-percentage-calculator";
import type { GoodsTagRow, SpecificRow } from "../../storage/schema.ts";
import { phasePaintIndex, phaseTagsOf } from "../catalog/phases.ts";
import { invalidArgument, ok, type Result } from "../result.ts";

/** The goods fields that decide which `specific` constraints it supports. */
export interface SpecificGoods {
  market_hash_name: string;
  paintwear_min: string | null;
  paintwear_max: string | null;
  paint_index: number | null;
  tags: GoodsTagRow[];
}

/**
 * A buy order's constraints as conditions on a listed item: a paintwear interval, the paint seeds
 * it accepts (a paint seed list, and a fade range turned into the seeds that give it), the paint
 * indexes of the accepted phases. Absent fields accept anything.
 */
export interface SpecificFilter {
  paintwearMin?: string;
  paintwearMax?: string;
  paintseeds?: number[];
  paintindexes?: number[];
}

const DECIMAL = /^(0(\.\d{1,20})?|1(\.0{1,20})?)$/;
const MAX_PAINTSEEDS = 100;

/** Fade-style finishes and the calculator of each (Valve's pattern algorithm, open source). */
const FADE_CALCULATORS = {
  Fade: FadeCalculator,
  "Amber Fade": AmberFadeCalculator,
  "Acid Fade": AcidFadeCalculator,
} as const;

/** Weapon and finish of a skin's market hash name: `★ StatTrak™ Karambit | Fade (Factory New)`. */
function weaponAndFinish(marketHashName: string): { weapon: string; finish: string } | undefined {
  const match = /^(?:★ )?(?:StatTrak™ |Souvenir )?(.+?) \| (.+?)(?: \([^)]*\))?$/.exec(marketHashName);
  return match ? { weapon: match[1]!, finish: match[2]! } : undefined;
}

/** The fade calculator and weapon of a Fade-style skin (undefined for any other goods). */
export function fadeCalculatorOf(goods: Pick<SpecificGoods, "market_hash_name">) {
  const parts = weaponAndFinish(goods.market_hash_name);
  if (!parts || !(parts.finish in FADE_CALCULATORS)) return undefined;
  const calculator = FADE_CALCULATORS[parts.finish as keyof typeof FADE_CALCULATORS];
  return calculator.getSupportedWeapons().includes(parts.weapon as never)
    ? { calculator, weapon: parts.weapon }
    : undefined;
}

/** Which `specific` types a goods supports (docs/design/buy-orders.md#placing-supplying-and-cancelling). */
export function supportedSpecifics(goods: SpecificGoods): Set<SpecificRow["type"]> {
  const types = new Set<SpecificRow["type"]>();
  if (goods.paintwear_min !== null && goods.paintwear_max !== null) types.add("paintwear");
  if (goods.paint_index !== null) types.add("paintseed");
  if (fadeCalculatorOf(goods)) types.add("fade");
  if (phaseTagsOf(goods).length > 0) types.add("phase");
  return types;
}

/**
 * Checks a buy order's `specific` list against its goods and answers it in stored form (phases by
 * internal name). Each type may appear once and only where the goods supports it.
 */
export function parseSpecific(
  input: ReadonlyArray<{ type: string; values: string[] }>,
  goods: SpecificGoods,
): Result<SpecificRow[]> {
  const supported = supportedSpecifics(goods);
  const seen = new Set<string>();
  const rows: SpecificRow[] = [];
  for (const [index, entry] of input.entries()) {
    const field = `specific.${index}`;
    if (!["paintwear", "paintseed", "fade", "phase"].includes(entry.type))
      return invalidArgument(`${field}.type`, "must be one of paintwear, paintseed, fade, phase");
    const type = entry.type as SpecificRow["type"];
    if (seen.has(type)) return invalidArgument(`${field}.type`, `${type} is given twice`);
    seen.add(type);
    if (!supported.has(type))
      return invalidArgument(`${field}.type`, `${goods.market_hash_name} has no ${type}`);
    if (type === "paintwear" || type === "fade") {
      const range = parseRange(entry.values, type, goods);
      if (!range.ok) return invalidArgument(`${field}.values`, range.reason);
      rows.push({ type, values: range.values });
    } else if (type === "paintseed") {
      const seeds = [...new Set(entry.values)];
      if (seeds.length === 0 || seeds.length > MAX_PAINTSEEDS)
        return invalidArgument(`${field}.values`, `must list 1 to ${MAX_PAINTSEEDS} paint seeds`);
      if (!seeds.every((seed) => /^\d{1,4}$/.test(seed) && Number(seed) <= 1000))
        return invalidArgument(`${field}.values`, "paint seeds are whole numbers from 0 to 1000");
      rows.push({ type, values: seeds.map((seed) => String(Number(seed))) });
    } else {
      const phases = phaseTagsOf(goods);
      const names: string[] = [];
      for (const value of new Set(entry.values)) {
        const tag = phases.find((phase) => phase.internal_name === value || phase.localized_name === value);
        if (!tag)
          return invalidArgument(
            `${field}.values`,
            `must be phases of this goods: ${phases.map((phase) => phase.internal_name).join(", ")}`,
          );
        names.push(tag.internal_name);
      }
      if (names.length === 0) return invalidArgument(`${field}.values`, "must name at least one phase");
      rows.push({ type, values: names });
    }
  }
  return ok(rows);
}

function parseRange(
  values: string[],
  type: "paintwear" | "fade",
  goods: SpecificGoods,
): { ok: true; values: string[] } | { ok: false; reason: string } {
  if (values.length !== 2) return { ok: false, reason: "must be [min, max]" };
  const [min, max] = values as [string, string];
  if (type === "paintwear") {
    if (!DECIMAL.test(min) || !DECIMAL.test(max))
      return { ok: false, reason: "must be decimals between 0 and 1" };
    if (Number(min) >= Number(max)) return { ok: false, reason: "min must be below max" };
    if (Number(max) <= Number(goods.paintwear_min) || Number(min) >= Number(goods.paintwear_max))
      return {
        ok: false,
        reason: `must overlap the goods' wear range ${goods.paintwear_min}-${goods.paintwear_max}`,
      };
    return { ok: true, values: [min, max] };
  }
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(min) || !/^\d{1,3}(\.\d{1,2})?$/.test(max))
    return { ok: false, reason: "must be percentages between 80 and 100" };
  if (Number(min) < 80 || Number(max) > 100 || Number(min) >= Number(max))
    return { ok: false, reason: "must be percentages between 80 and 100, min below max" };
  return { ok: true, values: [min, max] };
}

/** The conditions a listed item must meet for a buy order with these constraints. */
export function specificFilter(specific: readonly SpecificRow[], goods: SpecificGoods): SpecificFilter {
  const filter: SpecificFilter = {};
  let seeds: Set<number> | undefined;
  const narrow = (allowed: Iterable<number>) => {
    const next = new Set(allowed);
    seeds = seeds ? new Set([...seeds].filter((seed) => next.has(seed))) : next;
  };
  for (const row of specific) {
    if (row.type === "paintwear") {
      filter.paintwearMin = row.values[0]!;
      filter.paintwearMax = row.values[1]!;
    } else if (row.type === "paintseed") {
      narrow(row.values.map(Number));
    } else if (row.type === "fade") {
      const fade = fadeCalculatorOf(goods);
      const [min, max] = row.values.map(Number) as [number, number];
      narrow(
        fade
          ? fade.calculator
              .getFadePercentages(fade.weapon as never)
              .filter((entry: { percentage: number }) => entry.percentage >= min && entry.percentage <= max)
              .map((entry: { seed: number }) => entry.seed)
          : [],
      );
    } else {
      filter.paintindexes = row.values
        .map((phase) => phasePaintIndex(goods, phase))
        .filter((index): index is number => index !== null);
    }
  }
  if (seeds) filter.paintseeds = [...seeds].sort((a, b) => a - b);
  return filter;
}

/** Whether a listed item meets the conditions (the same test the listing queries make in SQL). */
export function meetsFilter(
  filter: SpecificFilter,
  item: { paintwear: string | null; paintseed: number | null; paintindex: number | null },
): boolean {
  if (filter.paintwearMin !== undefined) {
    if (item.paintwear === null) return false;
    const wear = Number(item.paintwear);
    if (wear < Number(filter.paintwearMin) || wear >= Number(filter.paintwearMax)) return false;
  }
  if (filter.paintseeds && (item.paintseed === null || !filter.paintseeds.includes(item.paintseed)))
    return false;
  if (filter.paintindexes && (item.paintindex === null || !filter.paintindexes.includes(item.paintindex)))
    return false;
  return true;
}
