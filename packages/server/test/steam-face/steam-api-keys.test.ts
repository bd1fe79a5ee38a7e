import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import request from "request";
import type SteamCommunity from "steamcommunity";
import TradeOfferManager from "steam-tradeoffer-manager";
import type { DomainContext } from "../../src/domain/context.ts";
import { grantItems } from "../../src/platform/sandbox/grant-items.ts";
import { describePlatformAccount } from "../../src/platform/sandbox/platform-accounts.ts";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import { createOffer } from "../../src/platform/sandbox/trade-offers.ts";
import { newSteamAccount, signInBot, signInTradeBot } from "../support/steam-bot.ts";
import { openSteamFaceWorld, type SteamFaceWorld } from "../support/steam-face-world.ts";

function getWebApiKey(community: SteamCommunity): Promise<string> {
  return new Promise((resolve, reject) =>
    community.getWebApiKey("localhost", (error, key) => (error ? reject(error) : resolve(key))),
  );
}

function createWebApiKey(community: SteamCommunity, domain: string) {
  return new Promise<{ confirmationRequired: boolean; apiKey?: string }>((resolve, reject) =>
    community.createWebApiKey({ domain }, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

/** A GET as a bot makes it through the face's proxy, without following redirects. */
function get(world: SteamFaceWorld, url: string, qs: Record<string, string> = {}) {
  return new Promise<{ status: number; location?: string; body: string }>((resolve, reject) =>
    request.get(
      { url, qs, proxy: world.proxyUrl, ca: world.authority.certPem, followRedirect: false },
      (error, response, body) =>
        error
          ? reject(error)
          : resolve({ status: response.statusCode, location: response.headers.location, body: String(body) }),
    ),
  );
}

describe("Web API keys: the key page, registering one, and IEconService with key=", () => {
  let world: SteamFaceWorld;
  let admin: DomainContext;
  let bot: SteamCredentials;
  let sender: SteamCredentials;
  before(async () => {
    world = await openSteamFaceWorld({ catalog: true });
    admin = { ...world.ctx, actor: { kind: "admin" } };
    bot = await newSteamAccount(admin);
    sender = await newSteamAccount(admin);
  });
  after(() => world.close());

  test("getWebApiKey finds none, createWebApiKey registers one, and the key page shows it after", async () => {
    const { community } = await signInBot(world, bot);
    await assert.rejects(getWebApiKey(community), /No API key created for this account/);
    const created = await createWebApiKey(community, "bot.example");
    assert.equal(created.confirmationRequired, false);
    assert.match(created.apiKey ?? "", /^[0-9A-F]{32}$/);
    assert.equal(await getWebApiKey(community), created.apiKey);
    // One key per account: asking again answers the same key.
    assert.equal((await createWebApiKey(community, "other.example")).apiKey, created.apiKey);
  });

  test("steam-tradeoffer-manager with useAccessToken: false reads the key and polls IEconService with key=", async () => {
    const view = await describePlatformAccount(admin, bot.platformid);
    assert.ok(view.ok);
    const granted = await grantItems(admin, {
      platformid: sender.platformid,
      marketHashName: "AK-47 | Redline (Field-Tested)",
      count: 1,
    });
    assert.ok(granted.ok);
    const sent = await createOffer(world.ctx, {
      sender: sender.platformid,
      tradeUrl: view.value.tradeUrl,
      assetids: granted.value.assets.map((asset) => asset.assetid),
    });
    assert.ok(sent.ok);

    const { manager } = await signInTradeBot(world, bot, { useAccessToken: false, domain: "bot.example" });
    assert.match(manager.apiKey ?? "", /^[0-9A-F]{32}$/);
    const received = await new Promise<string[]>((resolve, reject) =>
      manager.getOffers(TradeOfferManager.EOfferFilter.ActiveOnly, (error, _sent, offers) =>
        error ? reject(error) : resolve(offers.map((offer) => offer.id ?? "")),
      ),
    );
    assert.deepEqual(received, [sent.value.tradeofferid]);
    // The key alone is the credential: the same call with it and no session answers too.
    const keyed = await get(world, "https://api.steampowered.com/IEconService/GetTradeOffersSummary/v1/", {
      key: manager.apiKey ?? "",
    });
    assert.equal(keyed.status, 200);
    assert.equal(
      (JSON.parse(keyed.body) as { response: { pending_received_count: number } }).response
        .pending_received_count,
      1,
    );
  });

  test("a wrong or revoked key is Steam's 403 Access is denied", async () => {
    const wrong = await get(world, "https://api.steampowered.com/IEconService/GetTradeOffers/v1/", {
      key: "0123456789ABCDEF0123456789ABCDEF",
      get_received_offers: "1",
    });
    assert.equal(wrong.status, 403);
    assert.match(wrong.body, /Access is denied/);

    const { community, cookies } = await signInBot(world, bot);
    const key = await getWebApiKey(community);
    const jar = request.jar();
    // The community's cookies only (the login host's are refused by the jar, as a browser would).
    for (const cookie of cookies) jar.setCookie(cookie, "https://steamcommunity.com", { ignoreError: true });
    const revoked = await new Promise<number>((resolve, reject) =>
      request.post(
        {
          url: "https://steamcommunity.com/dev/revokekey",
          jar,
          proxy: world.proxyUrl,
          ca: world.authority.certPem,
        },
        (error, response) => (error ? reject(error) : resolve(response.statusCode)),
      ),
    );
    assert.equal(revoked, 302);
    await assert.rejects(getWebApiKey(community), /No API key created for this account/);
    const refused = await get(world, "https://api.steampowered.com/ISteamEconomy/GetAssetClassInfo/v1/", {
      key,
      appid: "730",
      class_count: "0",
    });
    assert.equal(refused.status, 403);
  });

  test("the key page's own form, /dev/registerkey, registers a key and returns to the page", async () => {
    const owner = await newSteamAccount(admin);
    const { community, cookies } = await signInBot(world, owner);
    const jar = request.jar();
    for (const cookie of cookies) jar.setCookie(cookie, "https://steamcommunity.com", { ignoreError: true });
    const post = (form: Record<string, string>) =>
      new Promise<{ status: number; location?: string }>((resolve, reject) =>
        request.post(
          {
            url: "https://steamcommunity.com/dev/registerkey",
            form,
            jar,
            proxy: world.proxyUrl,
            ca: world.authority.certPem,
          },
          (error, response) =>
            error
              ? reject(error)
              : resolve({ status: response.statusCode, location: response.headers.location }),
        ),
      );
    assert.equal((await post({ domain: "bot.example" })).status, 400);
    assert.deepEqual(await post({ domain: "bot.example", agreeToTerms: "agreed", Submit: "Register" }), {
      status: 302,
      location: "https://steamcommunity.com/dev/apikey",
    });
    assert.match(await getWebApiKey(community), /^[0-9A-F]{32}$/);
  });

  test("a limited account is denied a key, and the key page sends a signed-out visitor to the login", async () => {
    const limited = await newSteamAccount(admin);
    await world.ctx.db
      .updateTable("sandbox_platform_accounts")
      .set({ limited: true })
      .where("platformid", "=", limited.platformid)
      .execute();
    const { community } = await signInBot(world, limited);
    await assert.rejects(getWebApiKey(community), /Access Denied/);
    await assert.rejects(createWebApiKey(community, "bot.example"), /AccessDenied/);
    const signedOut = await get(world, "https://steamcommunity.com/dev/apikey", { l: "english" });
    assert.equal(signedOut.status, 302);
    assert.match(signedOut.location ?? "", /\/login\/home\/\?goto=/);
  });
});
