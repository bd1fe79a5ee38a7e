import type { Fen } from "@skinmarket/contract";

/**
 * Money as Steam's market writes it, per Steam currency code (ECurrencyCode): `$1,234.56` for
 * USD (1), `¥ 1,234.56` for CNY (23). The sandbox's prices are in yuan; dollars are the yuan at
 * `SANDBOX_CNY_PER_USD`, rounded to the cent.
 */
export const SANDBOX_CNY_PER_USD = 7.2;

export interface SteamCurrency {
  code: number;
  prefix: string;
  suffix: string;
  /** The amount in the currency's cents. */
  fromFen(fen: Fen): number;
}

const CURRENCIES: ReadonlyMap<number, SteamCurrency> = new Map([
  [1, { code: 1, prefix: "$", suffix: "", fromFen: (fen: Fen) => Math.round(fen / SANDBOX_CNY_PER_USD) }],
  [23, { code: 23, prefix: "¥", suffix: "", fromFen: (fen: Fen) => fen }],
]);

/** Steam's default when a request names no currency. */
export const USD = CURRENCIES.get(1)!;
export const CNY = CURRENCIES.get(23)!;

/** The currency of a `currency` parameter (absent: USD); undefined for a code the face does not price in. */
export function steamCurrency(parameter: string | undefined): SteamCurrency | undefined {
  if (parameter === undefined || parameter === "") return USD;
  if (!/^\d{1,3}$/.test(parameter)) return undefined;
  return CURRENCIES.get(Number(parameter));
}

/** `$1,234.56` or `¥ 1,234.56`. */
export function formatSteamMoney(fen: Fen, currency: SteamCurrency): string {
  const cents = currency.fromFen(fen);
  const units = Math.floor(cents / 100).toLocaleString("en-US");
  const amount = `${units}.${String(cents % 100).padStart(2, "0")}`;
  return currency.prefix === "$"
    ? `$${amount}${currency.suffix}`
    : `${currency.prefix} ${amount}${currency.suffix}`;
}

/** A count as Steam writes it (`1,234`). */
export function formatSteamCount(count: number): string {
  return count.toLocaleString("en-US");
}
