/**
 * Money is integer fen (1 yuan = 100 fen) inside, and a decimal string with exactly two
 * decimals on the wire. Every conversion and every arithmetic step on money goes through here,
 * so that no amount ever touches floating point.
 */

export type Fen = number;

/** The largest amount accepted anywhere: 100 million yuan, far inside 2^53 fen. */
export const MAX_MONEY_FEN: Fen = 10_000_000_000;

const MONEY_PATTERN = /^(-)?(\d{1,15})(?:\.(\d{1,2}))?$/;

export type MoneyParseResult = { ok: true; fen: Fen } | { ok: false; reason: string };

export interface MoneyParseOptions {
  allowNegative?: boolean;
  allowZero?: boolean;
  maxFen?: Fen;
}

/**
 * Parses a price given as a JSON number or a numeric string with at most two decimals.
 * Numbers are read through their shortest decimal representation (what JSON carried), so
 * `12.3` is exactly 1230 fen and `0.1 + 0.2`-style artefacts cannot arise.
 */
export function parseMoney(input: unknown, options: MoneyParseOptions = {}): MoneyParseResult {
  const { allowNegative = false, allowZero = true, maxFen = MAX_MONEY_FEN } = options;
  let text: string;
  if (typeof input === "number") {
    if (!Number.isFinite(input)) return { ok: false, reason: "must be a finite number" };
    text = String(input);
  } else if (typeof input === "string") {
    // Taken as written: `" 1 "` is not an amount, as `"0x1"` and `"1e2"` are not.
    text = input;
  } else {
    return { ok: false, reason: "must be a number or a numeric string" };
  }
  const match = MONEY_PATTERN.exec(text);
  if (!match) return { ok: false, reason: "must be an amount in yuan with at most 2 decimals" };
  const [, sign, whole = "0", decimals = ""] = match;
  const magnitude = Number(whole) * 100 + Number(decimals.padEnd(2, "0"));
  const fen = sign && magnitude !== 0 ? -magnitude : magnitude;
  if (fen < 0 && !allowNegative) return { ok: false, reason: "must not be negative" };
  if (fen === 0 && !allowZero)
    return { ok: false, reason: allowNegative ? "must not be 0" : "must be greater than 0" };
  if (Math.abs(fen) > maxFen) return { ok: false, reason: `must not exceed ${formatMoney(maxFen)}` };
  return { ok: true, fen };
}

/** Formats fen as the wire's decimal string with exactly two decimals: 1250 -> "12.50". */
export function formatMoney(fen: Fen): string {
  assertFen(fen);
  const sign = fen < 0 ? "-" : "";
  const magnitude = Math.abs(fen);
  const whole = Math.floor(magnitude / 100);
  const cents = magnitude % 100;
  return `${sign}${whole}.${cents.toString().padStart(2, "0")}`;
}

/** The wire's number form of an amount, for the few fields the reference types as numbers. */
export function moneyToNumber(fen: Fen): number {
  return Number(formatMoney(fen));
}

export function addMoney(...amounts: Fen[]): Fen {
  let total = 0;
  for (const amount of amounts) {
    assertFen(amount);
    total += amount;
  }
  assertFen(total);
  return total;
}

export function multiplyMoney(amount: Fen, count: number): Fen {
  if (!Number.isSafeInteger(count)) throw new RangeError(`count ${count} is not an integer`);
  const total = amount * count;
  assertFen(total);
  return total;
}

/** A rate in basis points (250 = 2.5 %) applied to an amount, rounded up to the fen. */
export function applyRateCeil(amount: Fen, basisPoints: number): Fen {
  assertFen(amount);
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0) {
    throw new RangeError(`rate ${basisPoints} is not a whole number of basis points`);
  }
  return Math.ceil((amount * basisPoints) / 10_000);
}

function assertFen(value: Fen): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${value} is not a whole number of fen`);
}
