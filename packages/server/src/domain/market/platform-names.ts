import { formatMoney, type Fen } from "@skinmarket/contract";

/*
 * The reference renames the real service's `steam_*` fields to `platform_*`; the tools written for
 * the real service read `steam_*`. Records carry both names, built here from one value, so that
 * the two can never disagree (docs/design/wire-conventions.md#wire-conventions).
 */

/** `platform_price` and `steam_price`: the goods' reference price on the platform. */
export function platformPriceFields(price: Fen) {
  const text = formatMoney(price);
  return { platform_price: text, steam_price: text };
}

/** `platformPriceFields` and their `_cny` twins: every amount of this service is in yuan. */
export function platformPriceCnyFields(price: Fen) {
  const text = formatMoney(price);
  return { platform_price: text, steam_price: text, platform_price_cny: text, steam_price_cny: text };
}

/** `platform_market_url` and `steam_market_url`: the goods' page on the platform's community market. */
export function platformMarketUrlFields(marketHashName: string) {
  const url = `https://steamcommunity.com/market/listings/730/${encodeURIComponent(marketHashName)}`;
  return { platform_market_url: url, steam_market_url: url };
}
