import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { SandboxClient, WebClient } from "@skinmarket/client";
import TradeOfferManager from "steam-tradeoffer-manager";
import { signInTradeBot } from "../support/steam-bot.ts";
import { confirmOffer } from "../support/steam-confirm.ts";
import { openSteamFaceWorld, type SteamFaceWorld } from "../support/steam-face-world.ts";
import { sellOneSticker, steamTrader } from "../support/steam-traders.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../support/test-app.ts";

type Offer = ReturnType<TradeOfferManager["createOffer"]>;

function promised<Value>(call: (done: (error: Error | null, value: Value) => void) => void): Promise<Value> {
  return new Promise((resolve, reject) => call((error, value) => (error ? reject(error) : resolve(value))));
}

/**
 * A whole bot through HTTP only: its marketplace half on skinmarket's API and website routes, its
 * Steam half on Steam's own routes with steam-tradeoffer-manager, steamcommunity and steam-totp
 * unchanged, in one world. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */
const PROTECTION_HOURS = 168;

describe("a whole bot: list, sell, deliver through Steam's routes, confirm, and be paid when trade protection ends", () => {
  let t: TestApp;
  let world: SteamFaceWorld;
  let baseUrl: string;
  let sandbox: SandboxClient;
  before(async () => {
    // Steam's 2025 trade protection at its default seven days: the seller is paid when it ends.
    t = await createTestApp({ catalog: true, tradeProtectionHours: PROTECTION_HOURS });
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    sandbox = new SandboxClient({ baseUrl, token: ADMIN_TOKEN });
    world = await openSteamFaceWorld({ on: { ctx: t.ctx, database: t.database } });
  });
  after(async () => {
    await world.close();
    await t.close();
  });

  const trader = (nickname: string) => steamTrader(sandbox, baseUrl, nickname);

  test("the seller is credited when trade protection ends, after the buyer's bot accepts the offer the seller's bot sent and confirmed", async () => {
    const seller = await trader("whole-bot-seller");
    const buyer = await trader("whole-bot-buyer");
    const granted = await sandbox.grantItems(seller.account.platformid, {
      market_hash_name: "Sticker | Crown (Foil)",
      count: 1,
    });
    const [asset] = granted.assets;
    assert.ok(asset);

    // The marketplace half: the seller lists with its API token, the buyer buys.
    await seller.market.listItems([{ assetid: asset.assetid, price: "20.00" }]);
    await t.assertLedger();
    await sandbox.fundAccount(buyer.user.user_id, { account: "balance", amount: "25" });
    const bought = await buyer.market.purchase({
      items: [{ goods_id: asset.goods_id, max_price: 20, quantity: 1 }],
    });
    const orderId = bought.result[String(asset.goods_id)]?.bill_order_ids[0];
    assert.ok(orderId, JSON.stringify(bought));
    await t.assertLedger();

    // The seller's bot sees the sale to deliver, as auto-delivery bots read it.
    const web = new WebClient({ baseUrl });
    await web.login(seller.user.nickname, seller.user.password);
    const toDeliver = (await web.getSalesToDeliver()).data.items;
    assert.equal(toDeliver.length, 1);
    const [sale] = toDeliver;
    assert.deepEqual(
      sale?.items_to_trade.map((item) => item.assetid),
      [asset.assetid],
    );

    // Its Steam half sends the offer through Steam's routes and confirms it on the authenticator.
    const sellerBot = await signInTradeBot(world, seller.steam);
    const offer = sellerBot.manager.createOffer(sale?.buyer_trade_url ?? "");
    offer.addMyItem({ appid: 730, contextid: 2, assetid: asset.assetid });
    offer.setMessage(`skinmarket order ${orderId}`);
    assert.equal(await promised<string>((done) => offer.send(done)), "pending");
    await confirmOffer(sellerBot.community, seller.steam, offer.id ?? "");
    await sandbox.runJobs();
    await t.assertLedger();
    const [trading] = (await seller.market.sellOrderHistory({ state: "TRADING" })).items;
    assert.equal(trading?.tradeofferid, offer.id);

    // The buyer's bot finds the offer among its received ones and accepts it through Steam's routes.
    const buyerBot = await signInTradeBot(world, buyer.steam);
    const received = await promised<Offer[]>((done) =>
      buyerBot.manager.getOffers(TradeOfferManager.EOfferFilter.ActiveOnly, (error, _sent, incoming) =>
        done(error, incoming),
      ),
    );
    const incoming = received.find((each) => each.id === offer.id);
    assert.ok(incoming);
    assert.equal(await promised<string>((done) => incoming.accept(done)), "accepted");

    // The marketplace completes the trade with its watchers; the seller's income waits out the
    // window frozen, and is released to the balance when it ends.
    await sandbox.runJobs();
    await t.assertLedger();
    const [done] = (await seller.market.sellOrderHistory({ state: "SUCCESS" })).items;
    assert.equal(done?.id, orderId);
    const [purchase] = (await buyer.market.listPurchaseOrders()).items;
    assert.equal(purchase?.state, "SUCCESS");
    const held = await seller.market.getBalance();
    assert.equal(held.market_balance, "0.00");
    assert.equal(held.frozen_amount, "19.50");
    await sandbox.advanceClock(PROTECTION_HOURS * 3600 - 60);
    await sandbox.runJobs();
    assert.equal((await seller.market.getBalance()).market_balance, "0.00", "still held a minute before");
    await sandbox.advanceClock(60);
    await sandbox.runJobs();
    await t.assertLedger();
    const paid = await seller.market.getBalance();
    assert.equal(paid.market_balance, "19.50");
    assert.equal(paid.frozen_amount, "0.00");
  });
  test("a trade reversed inside the window: both bots see it reverted through Steam's routes, the buyer is refunded, the seller never paid", async () => {
    const seller = await trader("reversed-seller");
    const buyer = await trader("reversed-buyer");
    const { asset, orderId } = await sellOneSticker(sandbox, seller, buyer);
    const sellerBot = await signInTradeBot(world, seller.steam);
    const offer = sellerBot.manager.createOffer(buyer.account.trade_url);
    offer.addMyItem({ appid: 730, contextid: 2, assetid: asset.assetid });
    assert.equal(await promised<string>((done) => offer.send(done)), "pending");
    await confirmOffer(sellerBot.community, seller.steam, offer.id ?? "");
    await sandbox.runJobs();
    const buyerBot = await signInTradeBot(world, buyer.steam);
    const incoming = await promised<Offer>((done) => buyerBot.manager.getOffer(offer.id ?? "", done));
    assert.equal(await promised<string>((done) => incoming.accept(done)), "accepted");
    await sandbox.runJobs();
    await t.assertLedger();

    // Two hours later (within the bots' web sessions) the platform reverses it: the item goes back,
    // and so does the buyer's money.
    await sandbox.advanceClock(2 * 3600);
    await sandbox.rollbackTrade(orderId);
    await t.assertLedger();
    for (const bot of [sellerBot, buyerBot]) {
      const seen = await promised<Offer>((done) => bot.manager.getOffer(offer.id ?? "", done));
      assert.equal(seen.state, 12, "Steam's offer state for a trade reversed under trade protection");
      const [status] = await new Promise<[number]>((resolve, reject) =>
        seen.getExchangeDetails(true, (error, tradeStatus) =>
          error ? reject(error) : resolve([tradeStatus]),
        ),
      );
      assert.equal(status, 12);
    }
    assert.equal((await buyer.market.getBalance()).market_balance, "20.00");
    const sellerBalance = await seller.market.getBalance();
    assert.equal(sellerBalance.market_balance, "0.00");
    assert.equal(sellerBalance.frozen_amount, "0.00");
    // The window's end pays nothing for it.
    await sandbox.advanceClock(PROTECTION_HOURS * 3600);
    await sandbox.runJobs();
    assert.equal((await seller.market.getBalance()).market_balance, "0.00");
    await t.assertLedger();
  });
});
