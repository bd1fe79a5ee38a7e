import { parseMoney, type Fen } from "@skinmarket/contract";
import type { MarketRules } from "../context.ts";
import { sellerFee } from "./seller-fee.ts";

/** A listing price: positive, at most 2 decimals, at most the configured maximum, above the fee. */
export function parseListingPrice(
  input: unknown,
  rules: MarketRules,
): { ok: true; price: Fen; fee: Fen } | { ok: false; reason: string } {
  const parsed = parseMoney(input, { allowZero: false, maxFen: rules.maxListingPriceFen });
  if (!parsed.ok) return { ok: false, reason: parsed.reason };
  const fee = sellerFee(parsed.fen, rules);
  if (fee >= parsed.fen) return { ok: false, reason: "too low to leave the seller anything after the fee" };
  return { ok: true, price: parsed.fen, fee };
}
