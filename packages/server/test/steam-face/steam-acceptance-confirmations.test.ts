import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { SandboxClient, WebClient } from "@skinmarket/client";
import SteamTotp from "steam-totp";
import TradeOfferManager from "steam-tradeoffer-manager";
import { readOffer, signInTradeBot } from "../support/steam-bot.ts";
import { confirmationKey, confirmOffer, listConfirmations } from "../support/steam-confirm.ts";
import { openSteamFaceWorld, runWithSteamEnv, type SteamFaceWorld } from "../support/steam-face-world.ts";
import { sellOneSticker, steamTrader } from "../support/steam-traders.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../support/test-app.ts";

const { ETradeOfferState, EConfirmationMethod, EOfferFilter } = TradeOfferManager;
type Offer = ReturnType<TradeOfferManager["createOffer"]>;

/**
 * The mobile confirmation of an acceptance that gives items (docs/design/steam-face.md#confirmations):
 * a buyer's offer asks the seller's account for the item it bought (the marketplace sends it for
 * the buyer: it waits for no confirmation); the seller's bot accepts it through Steam's routes with
 * steam-tradeoffer-manager, and the acceptance waits for the seller's authenticator, as on Steam.
 * Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
describe("an acceptance that gives items waits for the acceptor's mobile confirmation", () => {
  let t: TestApp;
  let world: SteamFaceWorld;
  let baseUrl: string;
  let sandbox: SandboxClient;
  before(async () => {
    t = await createTestApp({ catalog: true });
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    sandbox = new SandboxClient({ baseUrl, token: ADMIN_TOKEN });
    world = await openSteamFaceWorld({ on: { ctx: t.ctx, database: t.database } });
  });
  after(async () => {
    await world.close();
    await t.close();
  });

  /** A sale whose buyer takes the offer on and sends it; the seller's bot finds it among its received offers. */
  async function buyerSendsOffer(name: string) {
    const seller = await steamTrader(sandbox, baseUrl, `${name}-seller`);
    const buyer = await steamTrader(sandbox, baseUrl, `${name}-buyer`);
    const { asset, orderId } = await sellOneSticker(sandbox, seller, buyer);
    const web = new WebClient({ baseUrl });
    await web.login(buyer.user.nickname, buyer.user.password);
    await web.notifyBuyerToSendOffer(orderId);
    await web.buyerSendOffer([orderId]);
    await t.assertLedger();

    const sellerBot = await signInTradeBot(world, seller.steam);
    const received = await new Promise<Offer[]>((resolve, reject) =>
      sellerBot.manager.getOffers(EOfferFilter.ActiveOnly, (error, _sent, incoming) =>
        error ? reject(error) : resolve(incoming),
      ),
    );
    const [offer] = received;
    assert.equal(received.length, 1);
    assert.ok(offer?.id);
    assert.deepEqual(
      offer.itemsToGive.map((item) => item.assetid),
      [asset.assetid],
    );
    return { seller, buyer, asset, orderId, sellerBot, offer, offerId: offer.id };
  }

  const accept = (offer: Offer) =>
    new Promise<string>((resolve, reject) =>
      offer.accept((error, status) => (error ? reject(error) : resolve(status))),
    );
  const orderState = async (trader: Awaited<ReturnType<typeof steamTrader>>, orderId: string) =>
    (await trader.market.sellOrderHistory({})).items.find((order) => order.id === orderId)?.state;
  /** The goods of the items an account holds now, on the platform. */
  const inventoryOf = async (platformid: string) =>
    (
      await t.ctx.db
        .selectFrom("sandbox_assets")
        .select("goods_id")
        .where("platformid", "=", platformid)
        .where("traded_to_assetid", "is", null)
        .execute()
    ).map((row) => row.goods_id);

  test("accept answers pending and moves nothing; acceptConfirmationForObject (unchanged, in a bot's own process) completes the trade", async () => {
    const { seller, buyer, asset, orderId, sellerBot, offer, offerId } = await buyerSendsOffer("confirmed");
    assert.equal(await accept(offer), "pending");
    assert.equal(offer.state, ETradeOfferState.Active);
    assert.equal(offer.confirmationMethod, EConfirmationMethod.MobileApp);
    await sandbox.runJobs();
    await t.assertLedger();
    assert.equal(await orderState(seller, orderId), "TRADING");
    assert.deepEqual(await inventoryOf(seller.account.platformid), [asset.goods_id]);
    const [confirmation] = await listConfirmations(sellerBot.community, seller.steam);
    assert.equal(confirmation?.creator, offerId);
    assert.equal(confirmation?.type, 2);

    // The bot's confirmation, as bots make it: its own process, QueryTime through the proxy.
    const run = await runWithSteamEnv(
      world,
      `import SteamCommunity from "steamcommunity";
       const community = new SteamCommunity();
       community.setCookies(${JSON.stringify(sellerBot.cookies)});
       community.acceptConfirmationForObject(${JSON.stringify(seller.steam.identitySecret)}, ${JSON.stringify(offerId)}, (error) => {
         if (error) { console.error(error.message); process.exit(1); }
       });`,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal((await readOffer(sellerBot.manager, offerId)).state, ETradeOfferState.Accepted);
    await sandbox.runJobs();
    await t.assertLedger();
    assert.equal(await orderState(seller, orderId), "SUCCESS");
    assert.deepEqual(await inventoryOf(seller.account.platformid), []);
    assert.deepEqual(await inventoryOf(buyer.account.platformid), [asset.goods_id]);
  });

  test("cancelled on the authenticator: Steam's CanceledBySecondFactor (10) for both sides, the trade fails and the buyer is refunded", async () => {
    const { seller, buyer, asset, orderId, sellerBot, offer, offerId } = await buyerSendsOffer("cancelled");
    assert.equal(await accept(offer), "pending");
    await confirmOffer(sellerBot.community, seller.steam, offerId, false);
    const buyerBot = await signInTradeBot(world, buyer.steam);
    for (const bot of [sellerBot, buyerBot])
      assert.equal((await readOffer(bot.manager, offerId)).state, ETradeOfferState.CanceledBySecondFactor);
    await sandbox.runJobs();
    await t.assertLedger();
    assert.equal(await orderState(seller, orderId), "FAIL");
    assert.equal((await buyer.market.getBalance()).market_balance, "20.00");
    assert.deepEqual(await inventoryOf(seller.account.platformid), [asset.goods_id]);
  });

  test("a bad key, another account's authenticator and a second acceptance change nothing; declining while it waits is a decline (7)", async () => {
    const { seller, buyer, asset, orderId, sellerBot, offer, offerId } = await buyerSendsOffer("refused");
    assert.equal(await accept(offer), "pending");
    // Accepting again waits for the same confirmation.
    assert.equal(await accept(await readOffer(sellerBot.manager, offerId)), "pending");
    const [confirmation] = await listConfirmations(sellerBot.community, seller.steam);
    assert.ok(confirmation);
    assert.equal((await listConfirmations(sellerBot.community, seller.steam)).length, 1);

    const wrongSecret = Buffer.alloc(20, 7).toString("base64");
    const respond = (
      community: typeof sellerBot.community,
      key: { time: number; key: { tag: string; key: string } },
    ) =>
      new Promise<void>((resolve, reject) =>
        community.respondToConfirmation(
          confirmation.id,
          confirmation.key,
          key.time,
          key.key,
          true,
          (error) => (error ? reject(error) : resolve()),
        ),
      );
    await assert.rejects(
      respond(
        sellerBot.community,
        confirmationKey({ ...seller.steam, identitySecret: wrongSecret }, "accept"),
      ),
      /Invalid authenticator/,
    );
    // A key more than five minutes away from the authenticator's time is refused too.
    await assert.rejects(
      respond(sellerBot.community, confirmationKey(seller.steam, "accept", SteamTotp.time(0) - 3600)),
      /Invalid authenticator/,
    );
    // The buyer's own authenticator cannot confirm the seller's acceptance.
    const buyerBot = await signInTradeBot(world, buyer.steam);
    await assert.rejects(respond(buyerBot.community, confirmationKey(buyer.steam, "accept")), /not waiting/);
    const waiting = await readOffer(sellerBot.manager, offerId);
    assert.equal(waiting.state, ETradeOfferState.Active);
    assert.deepEqual(await inventoryOf(seller.account.platformid), [asset.goods_id]);

    await new Promise<void>((resolve, reject) =>
      waiting.decline((error) => (error ? reject(error) : resolve())),
    );
    assert.equal((await readOffer(buyerBot.manager, offerId)).state, ETradeOfferState.Declined);
    assert.deepEqual(await listConfirmations(sellerBot.community, seller.steam), []);
    await sandbox.runJobs();
    await t.assertLedger();
    assert.equal(await orderState(seller, orderId), "FAIL");
  });
});
