import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { steamOffersOf } from "../../src/platform/sandbox/steam-trade-offers.ts";
import { findOffer } from "../../src/platform/sandbox/read-offers.ts";
import { createReadyTrader, goodsIdOf, grantOne, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

interface Balances {
  balance: string;
  margin: string;
  wallet: string;
  escrow: string;
}

/**
 * Steam's trade protection (docs/design/trade-protection.md#who-is-credited-when): a delivered
 * trade's income waits frozen in the seller's escrow until the platform's window ends; a reversal
 * inside the window refunds the buyer from it. The ledger invariants are checked after every step.
 */
describe("trade protection: the seller is credited when the platform's window ends", () => {
  const WINDOW_HOURS = 168;
  const api = "/api/market/developer";
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let goodsId = 0;

  const balances = async (userId: string) =>
    (await t.admin("GET", `/sandbox/users/${userId}/balances`)).json<Balances>();
  const fen = (money: string) => Math.round(Number(money) * 100);

  /** A listing at `price` bought by the buyer, its offer sent, accepted and settled. */
  async function deliveredTrade(price: number): Promise<{ tradeId: string; tradeofferid: string }> {
    const assetid = await grantOne(t, seller.platformid, { goods_id: goodsId });
    const listed = await t.as(seller.token, "POST", `${api}/sell_order/items`, {
      game: "cs2",
      assets: [{ assetid, price }],
    });
    assert.equal(listed.statusCode, 200, listed.body);
    await t.fund(buyer.userId, "balance", price);
    const bought = await t.as(buyer.token, "POST", `${api}/purchase/orders`, {
      game: "cs2",
      items: [{ goods_id: goodsId, max_price: price, quantity: 1 }],
    });
    assert.equal(bought.statusCode, 200, bought.body);
    const tradeId = bought.json().result[String(goodsId)].bill_order_ids[0] as string;
    const sent = await t.as(seller.token, "POST", `${api}/sell_order/send_offer`, { order_id: tradeId });
    assert.equal(sent.statusCode, 200, sent.body);
    const offers = (await t.admin("GET", `/sandbox/platform/offers?platformid=${buyer.platformid}`)).json()
      .items;
    const offer = offers.find((item: { state: string }) => item.state === "active");
    const accepted = await t.admin("POST", `/sandbox/platform/offers/${offer.tradeofferid}/accept`);
    assert.equal(accepted.statusCode, 200, accepted.body);
    await t.admin("POST", "/sandbox/jobs/run");
    await t.assertLedger();
    return { tradeId, tradeofferid: offer.tradeofferid as string };
  }

  const advanceHours = async (hours: number) => {
    const moved = await t.admin("POST", "/sandbox/clock/advance", { seconds: hours * 3600 });
    assert.equal(moved.statusCode, 200, moved.body);
  };

  /** Each test trades between accounts of its own, whose cookies are fresh on the moved clock. */
  const newTraders = async (name: string) => {
    seller = await createReadyTrader(t, `${name}-seller`);
    buyer = await createReadyTrader(t, `${name}-buyer`);
  };

  before(async () => {
    t = await createTestApp({ catalog: true, tradeProtectionHours: WINDOW_HOURS });
    goodsId = await goodsIdOf(t, "Sticker | Crown (Foil)");
  });
  after(() => t.close());

  test("happy: the income stays frozen in the seller's escrow until the window ends, then is released", async () => {
    await newTraders("released");
    const before = await balances(seller.userId);
    const { tradeId, tradeofferid } = await deliveredTrade(20);
    const offer = (await t.admin("GET", `/sandbox/platform/offers?platformid=${buyer.platformid}`))
      .json()
      .items.find((item: { tradeofferid: string }) => item.tradeofferid === tradeofferid);
    assert.equal(offer.state, "accepted");
    assert.equal(offer.reversible_until - offer.updated_at, WINDOW_HOURS * 3600);

    const held = await balances(seller.userId);
    assert.equal(fen(held.balance), fen(before.balance), "nothing spendable before the window ends");
    assert.equal(fen(held.escrow) - fen(before.escrow), 2000 - 50, "the price less the fee is frozen");
    const sale = (await t.as(seller.token, "POST", `${api}/sell_order/history`, { game: "cs2" }))
      .json()
      .items.find((item: { id: string }) => item.id === tradeId);
    assert.equal(sale.state, "SUCCESS");

    await advanceHours(WINDOW_HOURS - 1);
    await t.admin("POST", "/sandbox/jobs/run");
    await t.assertLedger();
    assert.equal(
      fen((await balances(seller.userId)).balance),
      fen(before.balance),
      "still frozen an hour before",
    );

    await advanceHours(1);
    const ran = (await t.admin("POST", "/sandbox/jobs/run")).json();
    assert.equal(
      ran.jobs.find((job: { name: string }) => job.name === "release-protected-trades").processed,
      1,
    );
    await t.assertLedger();
    const released = await balances(seller.userId);
    assert.equal(fen(released.balance) - fen(before.balance), 1950);
    assert.equal(fen(released.escrow), fen(before.escrow));

    const events = await t.as(seller.token, "GET", `${api}/events?after=0&types=trade.released`);
    assert.equal(events.statusCode, 200, events.body);
    const releasedEvents = events.json().items as { type: string; data: { id: string; state: string } }[];
    assert.deepEqual(
      releasedEvents.map((event) => [event.type, event.data.id, event.data.state]),
      [["trade.released", tradeId, "SUCCESS"]],
    );

    // The window is over: the platform no longer reverses the trade, and nothing moves.
    const late = await t.admin("POST", `/sandbox/trades/${tradeId}/rollback`);
    assert.equal(late.statusCode, 409, late.body);
    assert.match(late.json().msg, /protection window ended at .*; the platform no longer reverses it/);
    await t.assertLedger();
    assert.deepEqual(await balances(seller.userId), released);
  });

  test("happy: a reversal inside the window refunds the buyer from the frozen income; Steam shows state 12", async () => {
    await newTraders("reversed");
    const sellerBefore = await balances(seller.userId);
    const buyerBefore = await balances(buyer.userId);
    const { tradeId, tradeofferid } = await deliveredTrade(30);
    await advanceHours(24);
    const reversed = await t.admin("POST", `/sandbox/trades/${tradeId}/rollback`);
    assert.equal(reversed.statusCode, 200, reversed.body);
    assert.equal(reversed.json().taken_from_seller, "29.25");
    await t.assertLedger();
    const sellerAfter = await balances(seller.userId);
    assert.deepEqual(sellerAfter, sellerBefore, "the frozen income went back; the balance never had it");
    const buyerAfter = await balances(buyer.userId);
    assert.equal(fen(buyerAfter.balance) - fen(buyerBefore.balance), 3000, "funded 30, paid 30, refunded 30");
    assert.equal(fen(buyerAfter.escrow), fen(buyerBefore.escrow));

    const offer = await findOffer(t.ctx, tradeofferid);
    assert.ok(offer.ok);
    assert.equal(offer.value.state, "reverted");
    const [steam] = await steamOffersOf(t.ctx, seller.platformid, [offer.value]);
    assert.equal(steam!.trade_offer_state, 12);
    assert.equal(steam!.tradeid, tradeofferid);

    // The window's end later releases nothing of a reversed trade.
    await advanceHours(WINDOW_HOURS);
    const ran = (await t.admin("POST", "/sandbox/jobs/run")).json();
    assert.equal(
      ran.jobs.find((job: { name: string }) => job.name === "release-protected-trades").processed,
      0,
    );
    await t.assertLedger();
    assert.deepEqual(await balances(seller.userId), sellerBefore);
  });

  test("race: a reversal and the release at the window's end: exactly one applies", async () => {
    for (let round = 0; round < 4; round += 1) {
      await newTraders(`race-${round}`);
      const { tradeId } = await deliveredTrade(10);
      const trade = await t.ctx.db
        .selectFrom("trades")
        .select("protected_until")
        .where("trade_id", "=", Number(tradeId))
        .executeTakeFirstOrThrow();
      // Put the clock a few milliseconds before the end, so the two start on either side of it.
      const untilEnd = trade.protected_until!.getTime() - t.clock.now().getTime();
      t.clock.setOffset(t.clock.offsetMs + untilEnd - round * 2);
      const [reversal] = await Promise.all([
        t.admin("POST", `/sandbox/trades/${tradeId}/rollback`),
        t.admin("POST", "/sandbox/jobs/run"),
      ]);
      await t.assertLedger();
      const after = await t.ctx.db
        .selectFrom("trades")
        .select(["state", "released_at"])
        .where("trade_id", "=", Number(tradeId))
        .executeTakeFirstOrThrow();
      if (reversal.statusCode === 200) {
        assert.equal(after.state, "FAIL");
        assert.equal(after.released_at, null, "a reversed trade is never released");
      } else {
        assert.equal(reversal.statusCode, 409, reversal.body);
        assert.equal(after.state, "SUCCESS");
        // The job may have run just before the end; the next round releases it.
        await t.admin("POST", "/sandbox/jobs/run");
        const settled = await t.ctx.db
          .selectFrom("trades")
          .select("released_at")
          .where("trade_id", "=", Number(tradeId))
          .executeTakeFirstOrThrow();
        assert.notEqual(settled.released_at, null);
      }
      await t.assertLedger();
    }
  });
});
