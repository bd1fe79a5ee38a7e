import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import request from "request";
import TradeOfferManager from "steam-tradeoffer-manager";
import type { DomainContext } from "../../src/domain/context.ts";
import { grantItems } from "../../src/platform/sandbox/grant-items.ts";
import { describePlatformAccount } from "../../src/platform/sandbox/platform-accounts.ts";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import { newSteamAccount, readOffer, sendOffer, signInTradeBot } from "../support/steam-bot.ts";
import { confirmOffer, listConfirmations } from "../support/steam-confirm.ts";
import { openSteamFaceWorld, type SteamFaceWorld } from "../support/steam-face-world.ts";

const { ETradeOfferState } = TradeOfferManager;
/** EConfirmationType 2: a trade offer, whether sent or accepted. */
const TRADE_CONFIRMATION = 2;

describe("counter-offers and the trade protection acknowledgement, with the libraries unchanged", () => {
  let world: SteamFaceWorld;
  let admin: DomainContext;
  let seller: SteamCredentials;
  let buyer: SteamCredentials;
  let buyerTradeUrl: string;
  let assetids: string[];
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
      count: 3,
    });
    assert.ok(granted.ok);
    assetids = granted.value.assets.map((asset) => asset.assetid);
  });
  after(() => world.close());

  /** Who holds the item now: it moves under a new assetid, so follow it to its last one. */
  async function holderOf(assetid: string): Promise<string> {
    let row = await world.ctx.db
      .selectFrom("sandbox_assets")
      .select(["platformid", "traded_to_assetid"])
      .where("assetid", "=", Number(assetid))
      .executeTakeFirstOrThrow();
    while (row.traded_to_assetid !== null)
      row = await world.ctx.db
        .selectFrom("sandbox_assets")
        .select(["platformid", "traded_to_assetid"])
        .where("assetid", "=", row.traded_to_assetid)
        .executeTakeFirstOrThrow();
    return row.platformid;
  }

  test("offer.counter() ends the received offer Countered (4) and its partner answers the new one", async () => {
    const { manager: sellerBot, community: sellerCommunity } = await signInTradeBot(world, seller);
    const { manager: buyerBot } = await signInTradeBot(world, buyer);
    const offer = sellerBot.createOffer(buyerTradeUrl);
    offer.addMyItem({ appid: 730, contextid: 2, assetid: assetids[0] ?? "" });
    offer.addMyItem({ appid: 730, contextid: 2, assetid: assetids[1] ?? "" });
    await sendOffer(offer);
    await confirmOffer(sellerCommunity, seller, offer.id ?? "");

    // The buyer wants only one of the two: the counter asks the seller for it, without a token.
    const received = await readOffer(buyerBot, offer.id ?? "");
    const counter = received.counter();
    counter.itemsToReceive = counter.itemsToReceive.filter((item) => item.assetid === assetids[1]);
    assert.equal(await sendOffer(counter), "sent");
    assert.ok(counter.id && counter.id !== offer.id);

    assert.equal((await readOffer(sellerBot, offer.id ?? "")).state, ETradeOfferState.Countered);
    assert.equal((await readOffer(buyerBot, offer.id ?? "")).state, ETradeOfferState.Countered);
    const answer = await readOffer(sellerBot, counter.id);
    assert.equal(answer.state, ETradeOfferState.Active);
    assert.equal(answer.isOurOffer, false);
    assert.deepEqual(
      answer.itemsToGive.map((item) => item.assetid),
      [assetids[1]],
    );
    const row = await world.ctx.db
      .selectFrom("sandbox_trade_offers")
      .select(["state", "countered_by"])
      .where("tradeofferid", "=", Number(offer.id))
      .executeTakeFirstOrThrow();
    // For the marketplace, a countered offer is one its receiver did not accept.
    assert.deepEqual(row, { state: "declined", countered_by: Number(counter.id) });

    // The seller now gives an item by accepting: as on Steam, the acceptance waits for the
    // seller's mobile confirmation, and nothing moves until then.
    const status = await new Promise<string>((resolve, reject) =>
      answer.accept((error, accepted) => (error ? reject(error) : resolve(accepted))),
    );
    assert.equal(status, "pending");
    assert.equal(answer.state, ETradeOfferState.Active);
    assert.equal(answer.confirmationMethod, TradeOfferManager.EConfirmationMethod.MobileApp);
    const waiting = await readOffer(buyerBot, counter.id);
    assert.equal(waiting.state, ETradeOfferState.Active);
    assert.equal(waiting.confirmationMethod, TradeOfferManager.EConfirmationMethod.None);
    assert.equal(await holderOf(assetids[1] ?? ""), seller.platformid);
    const [confirmation] = await listConfirmations(sellerCommunity, seller);
    assert.equal(confirmation?.creator, counter.id);
    assert.equal(confirmation?.type, TRADE_CONFIRMATION);

    await confirmOffer(sellerCommunity, seller, counter.id);
    assert.equal((await readOffer(buyerBot, counter.id)).state, ETradeOfferState.Accepted);
    assert.equal((await readOffer(sellerBot, counter.id)).state, ETradeOfferState.Accepted);
    assert.equal(await holderOf(assetids[1] ?? ""), buyer.platformid);
    assert.deepEqual(await listConfirmations(sellerCommunity, seller), []);
  });

  test("only an active offer received from that partner can be countered; a refusal changes nothing", async () => {
    const { manager: sellerBot, community: sellerCommunity } = await signInTradeBot(world, seller);
    const { manager: buyerBot } = await signInTradeBot(world, buyer);
    const offer = sellerBot.createOffer(buyerTradeUrl);
    offer.addMyItem({ appid: 730, contextid: 2, assetid: assetids[2] ?? "" });
    await sendOffer(offer);
    await confirmOffer(sellerCommunity, seller, offer.id ?? "");

    // The sender cannot counter its own offer: to it, the offer is not a received one (9).
    const own = await readOffer(sellerBot, offer.id ?? "");
    await assert.rejects(
      sendOffer(own.counter()),
      (error: Error & { eresult?: number }) => error.eresult === 9,
    );
    // A counter the item server refuses (an item the seller does not hold) leaves the original active.
    const received = await readOffer(buyerBot, offer.id ?? "");
    const counter = received.counter();
    counter.itemsToReceive = [{ appid: 730, contextid: "2", assetid: "99999999999" }];
    await assert.rejects(sendOffer(counter), (error: Error & { eresult?: number }) => error.eresult === 11);
    assert.equal((await readOffer(buyerBot, offer.id ?? "")).state, ETradeOfferState.Active);
  });

  test("/trade/new/acknowledge answers a signed-in bot (steamcommunity's double slash too) and refuses a signed-out one", async () => {
    const { community } = await signInTradeBot(world, seller);
    await new Promise<void>((resolve, reject) =>
      community.acknowledgeTradeProtection((error) => (error ? reject(error) : resolve())),
    );
    const post = (jar: request.CookieJar) =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) =>
        request.post(
          {
            url: "https://steamcommunity.com//trade/new/acknowledge",
            form: { sessionid: "0123456789abcdef01234567", message: 1 },
            json: true,
            jar,
            proxy: world.proxyUrl,
            ca: world.authority.certPem,
          },
          (error, response, body) =>
            error ? reject(error) : resolve({ status: response.statusCode, body: body as unknown }),
        ),
      );
    const signedIn = request.jar();
    const cookies = (community as unknown as { _jar: request.CookieJar })._jar.getCookieString(
      "https://steamcommunity.com",
    );
    for (const cookie of cookies.split("; ")) signedIn.setCookie(cookie, "https://steamcommunity.com");
    assert.deepEqual(await post(signedIn), { status: 200, body: { success: true } });
    assert.deepEqual(await post(request.jar()), { status: 401, body: { success: false } });
  });
});
