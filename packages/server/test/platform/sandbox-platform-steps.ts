import assert from "node:assert/strict";
import type { AssetInfo, SandboxPlatformAccount, SandboxTradeOffer } from "@skinmarket/contract";
import type { Static } from "typebox";
import type { TestApp } from "../support/test-app.ts";

/**
 * The steps the sandbox platform tests build their world with, all through the sandbox API. A
 * step that is only set-up asserts its own success, so a broken set-up fails where it happens.
 */

export type PlatformAccountView = Static<typeof SandboxPlatformAccount>;
export type TradeOffer = Static<typeof SandboxTradeOffer>;

export interface CreatedAccount {
  platformid: string;
  trade_url: string;
  cookies: string;
}

/** The platform's base 64-bit id: a trade URL's `partner` is the account id minus this. */
export const STEAM_ID_BASE = 76561197960265728n;

export const REDLINE = "AK-47 | Redline (Field-Tested)";
export const KARAMBIT_DOPPLER = "★ Karambit | Doppler (Factory New)";
export const GLOCK_GAMMA_DOPPLER = "Glock-18 | Gamma Doppler (Factory New)";
export const CROWN_FOIL = "Sticker | Crown (Foil)";
export const PHOENIX_CASE = "Operation Phoenix Weapon Case";
export const LIL_SQUIRT = "Charm | Lil' Squirt";

export async function createAccount(t: TestApp, body: { user_id?: string } = {}): Promise<CreatedAccount> {
  const response = await t.admin("POST", "/sandbox/platform/accounts", body);
  assert.equal(response.statusCode, 200, response.body);
  return response.json<CreatedAccount>();
}

export async function describeAccount(t: TestApp, platformid: string): Promise<PlatformAccountView> {
  const response = await t.admin("GET", `/sandbox/platform/accounts/${platformid}`);
  assert.equal(response.statusCode, 200, response.body);
  return response.json<PlatformAccountView>();
}

export async function itemCount(t: TestApp, platformid: string): Promise<number> {
  return (await describeAccount(t, platformid)).item_count;
}

export function grantRequest(t: TestApp, platformid: string, body: Record<string, unknown>) {
  return t.admin("POST", `/sandbox/platform/accounts/${platformid}/items`, body);
}

export async function grantItems(
  t: TestApp,
  platformid: string,
  body: Record<string, unknown>,
): Promise<AssetInfo[]> {
  const response = await grantRequest(t, platformid, body);
  assert.equal(response.statusCode, 200, response.body);
  return response.json<{ assets: AssetInfo[] }>().assets;
}

/** One plain item (no random stickers, charm or name tag) and its assetid. */
export async function grantOne(t: TestApp, platformid: string, marketHashName = REDLINE): Promise<string> {
  const [asset] = await grantItems(t, platformid, { market_hash_name: marketHashName, random_extras: false });
  assert.ok(asset);
  return asset.assetid;
}

export function offerRequest(
  t: TestApp,
  sender: string,
  tradeUrl: string,
  assetids: string[],
  message?: string,
) {
  return t.admin("POST", "/sandbox/platform/offers", {
    platformid: sender,
    trade_url: tradeUrl,
    assetids,
    ...(message === undefined ? {} : { message }),
  });
}

export async function sendOffer(
  t: TestApp,
  sender: CreatedAccount,
  receiver: CreatedAccount,
  assetids: string[],
): Promise<TradeOffer> {
  const response = await offerRequest(t, sender.platformid, receiver.trade_url, assetids);
  assert.equal(response.statusCode, 200, response.body);
  return response.json<TradeOffer>();
}

export async function listOffers(t: TestApp, platformid: string): Promise<TradeOffer[]> {
  const response = await t.admin("GET", `/sandbox/platform/offers?platformid=${platformid}`);
  assert.equal(response.statusCode, 200, response.body);
  return response.json<{ items: TradeOffer[] }>().items;
}

export async function advanceClock(t: TestApp, seconds: number): Promise<void> {
  const response = await t.admin("POST", "/sandbox/clock/advance", { seconds });
  assert.equal(response.statusCode, 200, response.body);
}
