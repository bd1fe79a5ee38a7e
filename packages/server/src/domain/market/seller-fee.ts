import { applyRateCeil, type Fen } from "@skinmarket/contract";
import type { MarketRules } from "../context.ts";

/** The seller's fee on a sale (docs/design/buy-orders.md#placing-supplying-and-cancelling): the rate rounded up to the fen, at least 0.01. */
export function sellerFee(price: Fen, rules: MarketRules): Fen {
  return Math.max(1, applyRateCeil(price, rules.sellerFeeBasisPoints));
}
