import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import TradeOfferManager from "steam-tradeoffer-manager";
import type { OffsetClock } from "../../src/domain/clock.ts";
import type { DomainContext } from "../../src/domain/context.ts";
import { grantItems } from "../../src/platform/sandbox/grant-items.ts";
import { describePlatformAccount } from "../../src/platform/sandbox/platform-accounts.ts";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import { listOffers } from "../../src/platform/sandbox/read-offers.ts";
import { createOffer } from "../../src/platform/sandbox/trade-offers.ts";
import { newSteamAccount, readOffer, sendOffer, signInTradeBot } from "../support/steam-bot.ts";
import { confirmationKey, confirmOffer, listConfirmations } from "../support/steam-confirm.ts";
import { openSteamFaceWorld, type SteamFaceWorld } from "../support/steam-face-world.ts";

type Bot = Awaited<ReturnType<typeof signInTradeBot>>;

describe("mobile confirmations through Steam's routes, with steamcommunity and steam-totp unchanged", () => {
  let world: SteamFaceWorld;
  let admin: DomainContext;
  let seller: SteamCredentials;
  let buyer: SteamCredentials;
  let buyerTradeUrl: string;
  let assetids: string[];
  let sellerBot: Bot;
  let buyerBot: Bot;
  const sendItem = async (index: number) => {
    const offer = sellerBot.manager.createOffer(buyerTradeUrl);
    offer.addMyItem({ appid: 730, contextid: 2, assetid: assetids[index] ?? "" });
    assert.equal(await sendOffer(offer), "pending");
    assert.ok(offer.id);
    return offer.id;
  };
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
      count: 5,
    });
    assert.ok(granted.ok);
    assetids = granted.value.assets.map((asset) => asset.assetid);
    sellerBot = await signInTradeBot(world, seller);
    buyerBot = await signInTradeBot(world, buyer);
  });
  after(() => world.close());

  test("a sent offer waits for confirmation (9) and the receiver does not see it until confirmed", async () => {
    const id = await sendItem(0);
    assert.equal(
      (await readOffer(sellerBot.manager, id)).state,
      TradeOfferManager.ETradeOfferState.CreatedNeedsConfirmation,
    );
    await assert.rejects(readOffer(buyerBot.manager, id));
    assert.ok(!(await listOffers(world.ctx, buyer.platformid)).some((offer) => offer.tradeofferid === id));

    const [confirmation] = await listConfirmations(sellerBot.community, seller);
    assert.equal(confirmation?.creator, id);
    const { time, key } = confirmationKey(seller, "details");
    const offerId = await new Promise<string | null>((resolve, reject) =>
      sellerBot.community.getConfirmationOfferID(confirmation?.id ?? "", time, key.key, (error, found) =>
        error ? reject(error) : resolve(found),
      ),
    );
    assert.equal(offerId, id);

    await confirmOffer(sellerBot.community, seller, id);
    const received = await readOffer(buyerBot.manager, id);
    assert.equal(received.state, TradeOfferManager.ETradeOfferState.Active);
    assert.deepEqual(await listConfirmations(sellerBot.community, seller), []);
  });

  test("a key not made from identity_secret, or for another time, is Steam's Invalid authenticator", async () => {
    await sendItem(1);
    const forged = { tag: "list", key: Buffer.alloc(20).toString("base64") };
    const stale = confirmationKey(seller, "list", Math.floor(Date.now() / 1000) - 3600);
    for (const [time, key] of [
      [Math.floor(Date.now() / 1000), forged],
      [stale.time, stale.key],
      // The buyer's secret signs the buyer's confirmations, not the seller's.
      [confirmationKey(buyer, "list").time, confirmationKey(buyer, "list").key],
    ] as const) {
      await assert.rejects(
        new Promise((resolve, reject) =>
          sellerBot.community.getConfirmations(time, key, (error, list) =>
            error ? reject(error) : resolve(list),
          ),
        ),
        /Invalid authenticator/,
      );
    }
  });

  test("once the sandbox clock is moved, keys for the bot's own clock and for the sandbox's are both good", async () => {
    const clock = world.ctx.clock as OffsetClock;
    const before = clock.offsetMs;
    // Two hours: far outside a key's five minutes, within the web session's day.
    clock.setOffset(before + 2 * 3600 * 1000);
    try {
      const sandboxTime = Math.floor(clock.now().getTime() / 1000);
      for (const time of [Math.floor(Date.now() / 1000), sandboxTime]) {
        const { key } = confirmationKey(seller, "list", time);
        const list = await new Promise<unknown[]>((resolve, reject) =>
          sellerBot.community.getConfirmations(time, key, (error, found) =>
            error ? reject(error) : resolve(found),
          ),
        );
        assert.ok(Array.isArray(list));
      }
    } finally {
      clock.setOffset(before);
    }
  });

  test("cancelling the confirmation cancels the offer (6) and frees its item", async () => {
    const pending = (await listConfirmations(sellerBot.community, seller)).map((each) => each.creator);
    for (const id of pending) await confirmOffer(sellerBot.community, seller, id, false);
    for (const id of pending)
      assert.equal(
        (await readOffer(sellerBot.manager, id)).state,
        TradeOfferManager.ETradeOfferState.Canceled,
      );
    assert.equal(await sendItem(1).then(() => "sent again"), "sent again");
  });

  test("multiajaxop confirms several at once, all or none; a wrong nonce is refused", async () => {
    const first = await sendItem(2);
    const second = await sendItem(3);
    const list = await listConfirmations(sellerBot.community, seller);
    const respond = (nonces: string[]) => {
      const { time, key } = confirmationKey(seller, "accept");
      return new Promise<void>((resolve, reject) =>
        sellerBot.community.respondToConfirmation(
          list.map((each) => each.id),
          nonces,
          time,
          key,
          true,
          (error) => (error ? reject(error) : resolve()),
        ),
      );
    };
    await assert.rejects(
      respond(list.map((each, index) => (index === 0 ? "1" : each.key))),
      /not waiting for this account/,
    );
    assert.equal((await listConfirmations(sellerBot.community, seller)).length, list.length);
    await respond(list.map((each) => each.key));
    for (const id of [first, second])
      assert.equal((await readOffer(buyerBot.manager, id)).state, TradeOfferManager.ETradeOfferState.Active);
  });

  test("the marketplace's own offers (the platform port, the sandbox API) need no confirmation", async () => {
    const made = await createOffer(world.ctx, {
      sender: seller.platformid,
      tradeUrl: buyerTradeUrl,
      assetids: [assetids[4] ?? ""],
    });
    assert.ok(made.ok);
    assert.equal(
      (await readOffer(buyerBot.manager, made.value.tradeofferid)).state,
      TradeOfferManager.ETradeOfferState.Active,
    );
  });
});
