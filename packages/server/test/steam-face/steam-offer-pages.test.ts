import assert from "node:assert/strict";
import { get } from "node:https";
import { after, before, describe, test } from "node:test";
import type TradeOfferManager from "steam-tradeoffer-manager";
import type { OffsetClock } from "../../src/domain/clock.ts";
import type { DomainContext } from "../../src/domain/context.ts";
import { grantItems } from "../../src/platform/sandbox/grant-items.ts";
import { describePlatformAccount } from "../../src/platform/sandbox/platform-accounts.ts";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import { INVENTORY_READS_PER_MINUTE } from "../../src/steam-face/inventory-read-limit.ts";
import { newSteamAccount, signInTradeBot } from "../support/steam-bot.ts";
import { confirmOffer } from "../support/steam-confirm.ts";
import { openSteamFaceWorld, type SteamFaceWorld } from "../support/steam-face-world.ts";

type Offer = ReturnType<TradeOfferManager["createOffer"]>;
type Bot = Awaited<ReturnType<typeof signInTradeBot>>;
type UserDetails = Parameters<Parameters<Offer["getUserDetails"]>[0]>[1];
type ExchangedItem = Parameters<Parameters<Offer["getExchangeDetails"]>[0]>[4][number];

function steamGet(
  world: SteamFaceWorld,
  url: string,
  cookie = "",
): Promise<{ status: number; body: string; location?: string }> {
  return new Promise((resolve, reject) => {
    get(url, { agent: world.agent, headers: { cookie } }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          body,
          ...(response.headers.location ? { location: response.headers.location } : {}),
        }),
      );
    }).on("error", reject);
  });
}

function promised<Value>(call: (done: (error: Error | null, value: Value) => void) => void): Promise<Value> {
  return new Promise((resolve, reject) => call((error, value) => (error ? reject(error) : resolve(value))));
}

describe("the offer pages, the trade status and the other calls bots make, answered as Steam does", () => {
  let world: SteamFaceWorld;
  let admin: DomainContext;
  let seller: SteamCredentials;
  let buyer: SteamCredentials;
  let buyerTradeUrl: string;
  let assetids: string[];
  let sellerBot: Bot;
  let buyerBot: Bot;
  let sellerCookies: string;
  before(async () => {
    world = await openSteamFaceWorld({ catalog: true });
    admin = { ...world.ctx, actor: { kind: "admin" } };
    seller = await newSteamAccount(admin);
    buyer = await newSteamAccount(admin);
    const view = await describePlatformAccount(admin, buyer.platformid);
    assert.ok(view.ok);
    buyerTradeUrl = view.value.tradeUrl;
    const granted = await grantItems(admin, {
      platformid: seller.platformid,
      marketHashName: "AK-47 | Redline (Field-Tested)",
      count: 2,
    });
    assert.ok(granted.ok);
    assetids = granted.value.assets.map((asset) => asset.assetid);
    sellerBot = await signInTradeBot(world, seller, { language: "en" });
    buyerBot = await signInTradeBot(world, buyer, { language: "en" });
    sellerCookies = (
      sellerBot.community as unknown as { _jar: { getCookieString(url: string): string } }
    )._jar.getCookieString("https://steamcommunity.com/");
  });
  after(() => world.close());

  test("getUserDetails reads the contexts and no escrow days from the new-offer and the offer pages", async () => {
    const draft = sellerBot.manager.createOffer(buyerTradeUrl);
    const [me, them] = await new Promise<[UserDetails, UserDetails]>((resolve, reject) =>
      draft.getUserDetails((error, mine, theirs) => (error ? reject(error) : resolve([mine, theirs]))),
    );
    assert.equal(me.escrowDays, 0);
    assert.equal(them.escrowDays, 0);
    assert.equal(me.contexts["730"]?.rgContexts["2"]?.asset_count, 2);
    assert.equal(them.contexts["730"]?.rgContexts["2"]?.asset_count, 0);

    draft.addMyItem({ appid: 730, contextid: 2, assetid: assetids[0] ?? "" });
    await promised<string>((done) => draft.send(done));
    await confirmOffer(sellerBot.community, seller, draft.id ?? "");
    const received = await promised<Offer>((done) => buyerBot.manager.getOffer(draft.id ?? "", done));
    const [, sender] = await new Promise<[unknown, UserDetails]>((resolve, reject) =>
      received.getUserDetails((error, mine, theirs) => (error ? reject(error) : resolve([mine, theirs]))),
    );
    assert.equal(sender.escrowDays, 0);
    const offerPage = await steamGet(
      world,
      `https://steamcommunity.com/tradeoffer/${draft.id}/`,
      sellerCookies,
    );
    assert.match(offerPage.body, new RegExp(`var g_ulTradePartnerSteamID = '${buyer.platformid}';`));
  });

  test("GetTradeStatus gives the completed trade with each item's new assetid, described by GetAssetClassInfo", async () => {
    const offer = sellerBot.manager.createOffer(buyerTradeUrl);
    offer.addMyItem({ appid: 730, contextid: 2, assetid: assetids[1] ?? "" });
    await promised<string>((done) => offer.send(done));
    await confirmOffer(sellerBot.community, seller, offer.id ?? "");
    const received = await promised<Offer>((done) => buyerBot.manager.getOffer(offer.id ?? "", done));
    await promised<string>((done) => received.accept(done));
    await promised<void>((done) => offer.update((error) => done(error, undefined)));
    const details = await new Promise<{ status: number; given: ExchangedItem[] }>((resolve, reject) =>
      offer.getExchangeDetails((error, status, _time, _received, given) =>
        error ? reject(error) : resolve({ status, given }),
      ),
    );
    assert.equal(details.status, 3);
    assert.equal(details.given.length, 1);
    assert.equal(details.given[0]?.assetid, assetids[1]);
    assert.match(details.given[0]?.new_assetid ?? "", /^\d+$/);
    assert.notEqual(details.given[0]?.new_assetid, assetids[1]);
    assert.equal(details.given[0]?.market_hash_name, "AK-47 | Redline (Field-Tested)");
  });

  test("the offers summary counts the pending and accepted offers", async () => {
    const token = decodeURIComponent(/steamLoginSecure=\d+%7C%7C([^;]+)/.exec(sellerCookies)?.[1] ?? "");
    const summary = await steamGet(
      world,
      `https://api.steampowered.com/IEconService/GetTradeOffersSummary/v1/?access_token=${token}`,
    );
    assert.equal(summary.status, 200);
    const counts = (JSON.parse(summary.body) as { response: Record<string, number> }).response;
    // The first test's offer is out, unanswered; the second's was accepted.
    assert.equal(counts.pending_sent_count, 1);
    assert.equal(counts.newly_accepted_sent_count, 1);
    assert.equal(counts.pending_received_count, 0);
  });

  test("GetTradeHoldDurations (ASF, steam.py) holds nothing with the partner's token, and answers empty without it", async () => {
    const token = decodeURIComponent(/steamLoginSecure=\d+%7C%7C([^;]+)/.exec(sellerCookies)?.[1] ?? "");
    const partnerToken = new URL(buyerTradeUrl).searchParams.get("token") ?? "";
    const holds = async (query: string) => {
      const answer = await steamGet(
        world,
        `https://api.steampowered.com/IEconService/GetTradeHoldDurations/v1/?access_token=${token}&${query}`,
      );
      return { status: answer.status, body: JSON.parse(answer.body) as unknown };
    };
    const none = { escrow_end_duration_seconds: 0 };
    assert.deepEqual(
      await holds(`steamid_target=${buyer.platformid}&trade_offer_access_token=${partnerToken}`),
      { status: 200, body: { response: { my_escrow: none, their_escrow: none, both_escrow: none } } },
    );
    for (const query of [
      `steamid_target=${buyer.platformid}`,
      `steamid_target=${buyer.platformid}&trade_offer_access_token=wrongtkn`,
    ])
      assert.deepEqual(await holds(query), { status: 200, body: { response: {} } });
    assert.deepEqual(await holds("steamid_target=bob"), { status: 200, body: { response: {} } });
    const signedOut = await steamGet(
      world,
      `https://api.steampowered.com/IEconService/GetTradeHoldDurations/v1/?steamid_target=${buyer.platformid}&trade_offer_access_token=${partnerToken}`,
    );
    assert.equal(signedOut.status, 403);
  });

  test("/login/home/?goto= sends a live session on (steampy's check) and shows the sign-in page otherwise", async () => {
    const signedIn = await steamGet(
      world,
      "https://steamcommunity.com/login/home/?goto=%2Fmy%2Fgoto",
      sellerCookies,
    );
    assert.equal(signedIn.status, 302);
    assert.equal(signedIn.location, "https://steamcommunity.com/my/goto");
    const signedOut = await steamGet(world, "https://steamcommunity.com/login/home/?goto=%2Fmy%2Fgoto");
    assert.equal(signedOut.status, 200);
  });

  test(`an inventory read more than ${INVENTORY_READS_PER_MINUTE} times a minute is 429 until the minute passes`, async () => {
    const read = () =>
      promised<unknown[]>((done) =>
        sellerBot.community.getUserInventoryContents(
          seller.platformid,
          730,
          2,
          false,
          "english",
          (error, items) => done(error, items),
        ),
      );
    let refused: Error | undefined;
    for (let index = 0; index <= INVENTORY_READS_PER_MINUTE && !refused; index += 1)
      await read().catch((error: Error) => (refused = error));
    assert.match(String(refused?.message), /429/);
    const clock = world.ctx.clock as OffsetClock;
    clock.setOffset(clock.offsetMs + 61_000);
    assert.ok(Array.isArray(await read()));
  });
});
