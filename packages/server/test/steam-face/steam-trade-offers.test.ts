import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import TradeOfferManager from "steam-tradeoffer-manager";
import type { DomainContext } from "../../src/domain/context.ts";
import { grantItems } from "../../src/platform/sandbox/grant-items.ts";
import { describePlatformAccount } from "../../src/platform/sandbox/platform-accounts.ts";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import { createOffer } from "../../src/platform/sandbox/trade-offers.ts";
import { newSteamAccount, readOffer, sendOffer, signInTradeBot } from "../support/steam-bot.ts";
import { confirmOffer } from "../support/steam-confirm.ts";
import { openSteamFaceWorld, type SteamFaceWorld } from "../support/steam-face-world.ts";

type Offer = ReturnType<TradeOfferManager["createOffer"]>;

/** A bot's trade offer manager on its own session, without polling (the test asks when it wants). */
async function managerOf(world: SteamFaceWorld, account: SteamCredentials): Promise<TradeOfferManager> {
  return (await signInTradeBot(world, account)).manager;
}

describe("trade offers through Steam's routes, with steam-tradeoffer-manager unchanged", () => {
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

  test("the seller's bot sends and confirms, the buyer's bot accepts, and both see Steam's states", async () => {
    const { manager: sellerBot, community: sellerCommunity } = await signInTradeBot(world, seller);
    const buyerBot = await managerOf(world, buyer);
    const offer = sellerBot.createOffer(buyerTradeUrl);
    offer.addMyItem({ appid: 730, contextid: 2, assetid: assetids[0] ?? "" });
    offer.setMessage("your purchase");
    // An offer that gives items waits for the sender's mobile confirmation, as on Steam.
    assert.equal(await sendOffer(offer), "pending");
    assert.ok(offer.id);
    await confirmOffer(sellerCommunity, seller, offer.id);

    const received = await readOffer(buyerBot, offer.id);
    assert.equal(received.state, TradeOfferManager.ETradeOfferState.Active);
    assert.equal(received.isOurOffer, false);
    assert.equal(received.message, "your purchase");
    assert.deepEqual(
      received.itemsToReceive.map((item) => item.assetid),
      [assetids[0]],
    );
    const status = await new Promise<string>((resolve, reject) =>
      received.accept((error, answer) => (error ? reject(error) : resolve(answer))),
    );
    assert.equal(status, "accepted");

    await new Promise<void>((resolve, reject) =>
      offer.update((error) => (error ? reject(error) : resolve())),
    );
    assert.equal(offer.state, TradeOfferManager.ETradeOfferState.Accepted);
    const sent = await new Promise<Offer[]>((resolve, reject) =>
      sellerBot.getOffers(TradeOfferManager.EOfferFilter.All, (error, offers) =>
        error ? reject(error) : resolve(offers),
      ),
    );
    assert.deepEqual(
      sent.map((each) => [each.id, each.state]),
      [[offer.id, TradeOfferManager.ETradeOfferState.Accepted]],
    );
  });

  test("the sender cancels (6) and the receiver declines (7)", async () => {
    const sellerBot = await managerOf(world, seller);
    const buyerBot = await managerOf(world, buyer);
    const { community: sellerCommunity } = await signInTradeBot(world, seller);
    const cancelled = sellerBot.createOffer(buyerTradeUrl);
    cancelled.addMyItem({ appid: 730, contextid: 2, assetid: assetids[1] ?? "" });
    await sendOffer(cancelled);
    await new Promise<void>((resolve, reject) =>
      cancelled.cancel((error) => (error ? reject(error) : resolve())),
    );
    assert.equal(
      (await readOffer(sellerBot, cancelled.id ?? "")).state,
      TradeOfferManager.ETradeOfferState.Canceled,
    );

    const declined = sellerBot.createOffer(buyerTradeUrl);
    declined.addMyItem({ appid: 730, contextid: 2, assetid: assetids[2] ?? "" });
    await sendOffer(declined);
    await confirmOffer(sellerCommunity, seller, declined.id ?? "");
    const received = await readOffer(buyerBot, declined.id ?? "");
    await new Promise<void>((resolve, reject) =>
      received.decline((error) => (error ? reject(error) : resolve())),
    );
    assert.equal(
      (await readOffer(sellerBot, declined.id ?? "")).state,
      TradeOfferManager.ETradeOfferState.Declined,
    );
  });

  test("an item the sender does not hold is refused with Steam's strError and an EResult", async () => {
    const sellerBot = await managerOf(world, seller);
    const offer = sellerBot.createOffer(buyerTradeUrl);
    offer.addMyItem({ appid: 730, contextid: 2, assetid: "99999999999" });
    await assert.rejects(sendOffer(offer), (error: Error & { eresult?: number }) => error.eresult === 11);
  });

  test("a token that is not a live session is Access is denied on IEconService", async () => {
    const sellerBot = await managerOf(world, seller);
    // The token's claims kept, its secret part changed: a token the platform never issued.
    const bot = sellerBot as unknown as { accessToken: string };
    bot.accessToken = `${bot.accessToken.split(".").slice(0, 2).join(".")}.forged`;
    await assert.rejects(
      new Promise((resolve, reject) =>
        sellerBot.getOffers(TradeOfferManager.EOfferFilter.ActiveOnly, (error, offers) =>
          error ? reject(error) : resolve(offers),
        ),
      ),
      /HTTP error 403/,
    );
  });
  test("GetTradeOffers pages by cursor: steam-tradeoffer-manager reads every one of an account's 130 offers", async () => {
    const other = await newSteamAccount(admin);
    const view = await describePlatformAccount(admin, other.platformid);
    assert.ok(view.ok);
    const granted = await grantItems(admin, {
      platformid: seller.platformid,
      marketHashName: "Sticker | Crown (Foil)",
      count: 130,
    });
    assert.ok(granted.ok);
    for (const asset of granted.value.assets) {
      const sent = await createOffer(admin, {
        sender: seller.platformid,
        tradeUrl: view.value.tradeUrl,
        assetids: [asset.assetid],
      });
      assert.ok(sent.ok);
    }
    const receiverBot = await managerOf(world, other);
    const pages: string[] = [];
    receiverBot.on("debug", (message: string) => {
      if (message.startsWith("GetTradeOffers with cursor")) pages.push(message);
    });
    const received = await new Promise<Offer[]>((resolve, reject) =>
      receiverBot.getOffers(TradeOfferManager.EOfferFilter.ActiveOnly, (error, _sent, incoming) =>
        error ? reject(error) : resolve(incoming),
      ),
    );
    assert.equal(received.length, 130);
    assert.equal(new Set(received.map((offer) => offer.id)).size, 130);
    assert.deepEqual(pages, ["GetTradeOffers with cursor 100"], "a second page, asked by its cursor");
  });
});
