/**
 * The platform's trade URLs, in their real form:
 * `https://steamcommunity.com/tradeoffer/new/?partner=<account id>&token=<8 characters>`, where the
 * account id is the 32-bit part of the 64-bit platform id (`7656119...`). Any platform adapter and
 * the marketplace (which delivers purchases to a trade URL) share this form.
 */
const STEAM_ID_BASE = 76561197960265728n;
const TRADE_URL_PATTERN =
  /^https:\/\/steamcommunity\.com\/tradeoffer\/new\/\?partner=(\d{1,10})&token=([A-Za-z0-9_-]{8})$/;

function accountIdOf(platformid: string): string {
  return String(BigInt(platformid) - STEAM_ID_BASE);
}

export function tradeUrlOf(platformid: string, token: string): string {
  return `https://steamcommunity.com/tradeoffer/new/?partner=${accountIdOf(platformid)}&token=${token}`;
}

/** The same URL with its token empty or absent: a counter-offer names its partner without one. */
const TOKENLESS_TRADE_URL_PATTERN =
  /^https:\/\/steamcommunity\.com\/tradeoffer\/new\/\?partner=(\d{1,10})(?:&token=([A-Za-z0-9_-]{8})?)?$/;

export function parseTradeUrl(
  url: string,
  options: { tokenOptional?: boolean } = {},
): { platformid: string; token: string } | undefined {
  const match = (options.tokenOptional ? TOKENLESS_TRADE_URL_PATTERN : TRADE_URL_PATTERN).exec(url.trim());
  if (!match?.[1] || (!match[2] && !options.tokenOptional)) return undefined;
  return { platformid: String(BigInt(match[1]) + STEAM_ID_BASE), token: match[2] ?? "" };
}

/** The page of one trade offer on the platform, where its receiver answers it. */
export function tradeOfferUrlOf(tradeofferid: string): string {
  return `https://steamcommunity.com/tradeoffer/${tradeofferid}/`;
}
