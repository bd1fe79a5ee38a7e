import { randomBytes, randomInt } from "node:crypto";

/**
 * The platform's identifiers, in their real forms: 64-bit account ids (`7656119...`), the 32-bit
 * account id inside them, and trade URLs
 * `https://steamcommunity.com/tradeoffer/new/?partner=<account id>&token=<8 characters>`.
 */
const STEAM_ID_BASE = 76561197960265728n;
const TRADE_URL_PATTERN =
  /^https:\/\/steamcommunity\.com\/tradeoffer\/new\/\?partner=(\d{1,10})&token=([A-Za-z0-9_-]{8})$/;

export function generatePlatformId(): string {
  // The ten digits after 7656119 start at 7960265729 so the account id is positive.
  return `7656119${randomInt(7_960_265_729, 9_999_999_999)}`;
}

export function accountIdOf(platformid: string): string {
  return String(BigInt(platformid) - STEAM_ID_BASE);
}

export function generateTradeToken(): string {
  return randomBytes(6).toString("base64url");
}

export function tradeUrlOf(platformid: string, token: string): string {
  return `https://steamcommunity.com/tradeoffer/new/?partner=${accountIdOf(platformid)}&token=${token}`;
}

export function parseTradeUrl(url: string): { platformid: string; token: string } | undefined {
  const match = TRADE_URL_PATTERN.exec(url.trim());
  if (!match?.[1] || !match[2]) return undefined;
  return { platformid: String(BigInt(match[1]) + STEAM_ID_BASE), token: match[2] };
}
