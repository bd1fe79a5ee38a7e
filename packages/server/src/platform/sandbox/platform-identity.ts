import { randomBytes, randomInt } from "node:crypto";

/** New identifiers of sandbox platform accounts: a 64-bit platform id and a trade URL token. */

export function generatePlatformId(): string {
  // The ten digits after 7656119 start at 7960265729 so the account id is positive.
  return `7656119${randomInt(7_960_265_729, 9_999_999_999)}`;
}

export function generateTradeToken(): string {
  return randomBytes(6).toString("base64url");
}
