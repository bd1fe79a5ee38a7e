import { parseMoney, type Fen } from "@skinmarket/contract";
import { invalidArgument, ok, type Result } from "../result.ts";

export interface PriceRange {
  min?: Fen;
  max?: Fen;
}

/** `min_price` and `max_price` filters: amounts with at most 2 decimals, min not above max. */
export function parsePriceRange(minPrice: unknown, maxPrice: unknown): Result<PriceRange> {
  const range: PriceRange = {};
  for (const [field, value, key] of [
    ["min_price", minPrice, "min"],
    ["max_price", maxPrice, "max"],
  ] as const) {
    if (value === undefined) continue;
    const parsed = parseMoney(value);
    if (!parsed.ok) return invalidArgument(field, parsed.reason);
    range[key] = parsed.fen;
  }
  if (range.min !== undefined && range.max !== undefined && range.min > range.max) {
    return invalidArgument("min_price", "must not be greater than max_price");
  }
  return ok(range);
}
