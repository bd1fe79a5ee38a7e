import assert from "node:assert/strict";
import request from "request";
import { EAuthTokenPlatformType, LoginSession } from "steam-session";
import SteamCommunity from "steamcommunity";
import TradeOfferManager from "steam-tradeoffer-manager";
import SteamTotp from "steam-totp";
import type { DomainContext } from "../../src/domain/context.ts";
import { createPlatformAccount } from "../../src/platform/sandbox/platform-accounts.ts";
import { showSteamCredentials, type SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import type { SteamFaceWorld } from "./steam-face-world.ts";

/** A new sandbox account with its Steam secrets, as a bot's owner would have them. */
export async function newSteamAccount(admin: DomainContext): Promise<SteamCredentials> {
  const created = await createPlatformAccount(admin);
  assert.ok(created.ok);
  const shown = await showSteamCredentials(admin, created.value.platformid);
  assert.ok(shown.ok);
  return shown.value;
}

/**
 * A bot's session, made as bots make it: steam-session logs in with the password and a Steam
 * Guard code (its `agent`: the face's proxy and CA), and steamcommunity gets the web cookies
 * (its own `request`, pointed at the face's proxy and trusting its CA).
 */
export async function signInBot(
  world: SteamFaceWorld,
  account: SteamCredentials,
): Promise<{ community: SteamCommunity; cookies: string[] }> {
  const session = new LoginSession(EAuthTokenPlatformType.WebBrowser, { agent: world.agent });
  const authenticated = new Promise<void>((resolve, reject) => {
    session.once("authenticated", () => resolve());
    session.once("error", reject);
  });
  await session.startWithCredentials({
    accountName: account.accountName,
    password: account.password,
    steamGuardCode: SteamTotp.generateAuthCode(account.sharedSecret),
  });
  await authenticated;
  const cookies = await session.getWebCookies();
  const community = new SteamCommunity({
    request: request.defaults({ proxy: world.proxyUrl, ca: world.authority.certPem }),
  });
  community.setCookies(cookies);
  return { community, cookies };
}

/** A bot's trade offer manager on its own session, without polling (a test asks when it wants). */
export async function signInTradeBot(
  world: SteamFaceWorld,
  account: SteamCredentials,
  options: { language?: string; useAccessToken?: boolean; domain?: string } = {},
): Promise<{ manager: TradeOfferManager; community: SteamCommunity; cookies: string[] }> {
  const { community, cookies } = await signInBot(world, account);
  const manager = new TradeOfferManager({ community, pollInterval: -1, ...options });
  await new Promise<void>((resolve, reject) =>
    manager.setCookies(cookies, (error) => (error ? reject(error) : resolve())),
  );
  return { manager, community, cookies };
}

type Offer = ReturnType<TradeOfferManager["createOffer"]>;

/** `offer.send` as a promise: the status Steam answered (`sent`, or `pending` a confirmation). */
export function sendOffer(offer: Offer): Promise<string> {
  return new Promise((resolve, reject) =>
    offer.send((error, status) => (error ? reject(error) : resolve(status))),
  );
}

/** `manager.getOffer` as a promise. */
export function readOffer(manager: TradeOfferManager, id: string): Promise<Offer> {
  return new Promise((resolve, reject) =>
    manager.getOffer(id, (error, offer) => (error ? reject(error) : resolve(offer))),
  );
}
