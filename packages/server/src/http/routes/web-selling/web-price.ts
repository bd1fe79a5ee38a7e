import { formatMoney } from "@skinmarket/contract";

/** How far from a whole fen a number may be and still be read as one: float noise, not intent. */
const FLOAT_NOISE_FEN = 1e-6;

/**
 * A price as the website's tools send it. Some compute it in floating point (Steamauto's
 * BuffAutoOnSale lists at `lowest - 0.01`, which JSON carries as `12.329999999999998`); the real
 * website takes such a number as the whole fen it stands for, and so do we, as a text for the
 * price parser. Any other input (a real third decimal, a text) goes to the parser as sent, which
 * refuses what is not an amount.
 */
export function webPrice(input: unknown): unknown {
  if (typeof input !== "number" || !Number.isFinite(input)) return input;
  const fen = Math.round(input * 100);
  return Math.abs(input * 100 - fen) < FLOAT_NOISE_FEN && Number.isSafeInteger(fen)
    ? formatMoney(fen)
    : input;
}
