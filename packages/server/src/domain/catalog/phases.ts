import type { GoodsTagRow } from "../../storage/schema.ts";

/**
 * Doppler-style finishes: the catalog carries Phase 1's paint index; each phase sits at a fixed
 * offset from it (Doppler 415-421, Gamma Doppler 568-572, Glock-18 Gamma Doppler 1119-1123).
 */
export const PHASE_OFFSETS: Readonly<Record<string, number>> = {
  ruby: -3,
  sapphire: -2,
  black_pearl: -1,
  emerald: -1,
  phase_1: 0,
  phase_2: 1,
  phase_3: 2,
  phase_4: 3,
};

/** The phase tags of a goods (empty unless it is a Doppler-style finish). */
export function phaseTagsOf(goods: { tags: GoodsTagRow[] }): GoodsTagRow[] {
  return goods.tags.filter((tag) => tag.category === "phase" && tag.internal_name in PHASE_OFFSETS);
}

/** The paint index of an item of the goods in a phase (by the tag's internal name). */
export function phasePaintIndex(goods: { paint_index: number | null }, phase: string): number | null {
  const offset = PHASE_OFFSETS[phase];
  if (goods.paint_index === null || offset === undefined) return null;
  return goods.paint_index + offset;
}
