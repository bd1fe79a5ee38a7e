import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, grant, type PlatformFixture } from "../support/platform-world.ts";
import { staffOfEveryRole, type StaffSession } from "../support/staff-sessions.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

/** Refunds of completed trades (docs/design/back-office-money.md#refunds), the ledger checked after each. */
const STICKER = "Sticker | Crown (Foil)";

describe("refunds of completed trades", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let goodsId: number;
  const staff: Record<string, StaffSession> = {};
  const post = (token: string, path: string, body: unknown) =>
    t.as(token, "POST", `/api/market/developer/${path}`, body);
  const refund = (role: string, tradeId: string, body: object) =>
    t.app.inject({
      method: "POST",
      url: `/ops/api/trades/${tradeId}/refund`,
      headers: { cookie: staff[role]!.cookie, "x-csrftoken": staff[role]!.csrf },
      payload: body,
    });
  const balance = async (trader: PlatformFixture) =>
    (await t.admin("GET", `/sandbox/users/${trader.userId}/balances`)).json().balance;

  /** One sticker sold at `price` yuan and delivered: answers the trade's id. */
  async function completedTrade(price: number): Promise<string> {
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 1 });
    const listed = await post(seller.token, "sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price }],
    });
    assert.equal(listed.statusCode, 200, listed.body);
    await t.fund(buyer.userId, "balance", price);
    const bought = await post(buyer.token, "purchase/orders", {
      game: "cs2",
      items: [{ goods_id: goodsId, max_price: price, quantity: 1 }],
    });
    assert.equal(bought.statusCode, 200, bought.body);
    const tradeId = String(bought.json().result[String(goodsId)].bill_order_ids[0]);
    const sent = await post(seller.token, "sell_order/send_offer", { order_id: tradeId });
    assert.equal(sent.statusCode, 200, sent.body);
    const offer = await t.ctx.db
      .selectFrom("trades")
      .select("tradeofferid")
      .where("trade_id", "=", Number(tradeId))
      .executeTakeFirstOrThrow();
    await t.admin("POST", `/sandbox/platform/offers/${offer.tradeofferid}/accept`);
    await t.admin("POST", "/sandbox/jobs/run");
    const done = await t.ctx.db
      .selectFrom("trades")
      .select(["state", "released_at"])
      .where("trade_id", "=", Number(tradeId))
      .executeTakeFirstOrThrow();
    assert.equal(done.state, "SUCCESS");
    assert.notEqual(done.released_at, null);
    await t.assertLedger();
    return tradeId;
  }

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createReadyTrader(t, "refundseller");
    buyer = await createReadyTrader(t, "refundbuyer");
    goodsId = (
      await t.database.db
        .selectFrom("goods")
        .select("goods_id")
        .where("market_hash_name", "=", STICKER)
        .executeTakeFirstOrThrow()
    ).goods_id;
    Object.assign(staff, await staffOfEveryRole(t));
  });
  after(() => t.close());

  test("happy: a partial refund from the seller, then the rest: the seller pays what the sale brought", async () => {
    const tradeId = await completedTrade(100);
    const sellerBefore = Number(await balance(seller));
    const buyerBefore = Number(await balance(buyer));
    const part = await refund("finance", tradeId, {
      amount: "40",
      from: "seller",
      reason: "item not as described",
    });
    assert.equal(part.statusCode, 200, part.body);
    assert.deepEqual(
      { ...part.json().data, entry_id: undefined },
      {
        trade_id: tradeId,
        entry_id: undefined,
        amount: "40.00",
        from_seller: "40.00",
        from_house: "0.00",
        refunded: "40.00",
      },
    );
    await t.assertLedger();
    const rest = await refund("finance", tradeId, { from: "seller", reason: "the rest, same case" });
    assert.equal(rest.statusCode, 200, rest.body);
    // The sale brought the seller 97.50 (2.5 % fee): they pay 57.50 more, the house the fee.
    assert.equal(rest.json().data.amount, "60.00");
    assert.equal(rest.json().data.from_seller, "57.50");
    assert.equal(rest.json().data.from_house, "2.50");
    assert.equal(Number(await balance(seller)), sellerBefore - 97.5);
    assert.equal(Number(await balance(buyer)), buyerBefore + 100);
    await t.assertLedger();
    const again = await refund("admin", tradeId, { from: "house", reason: "once more" });
    assert.equal(again.statusCode, 409, again.body);
    assert.match(again.json().error, /refunded in full/);
    const audit = await t.app.inject({
      method: "GET",
      url: `/ops/api/audit?subject=trade:${tradeId}`,
      headers: { cookie: staff.admin!.cookie },
    });
    const items = audit.json().data.items;
    assert.deepEqual(
      items.map((item: { operation: string; reason: string }) => [item.operation, item.reason]),
      [
        ["trade.refund", "the rest, same case"],
        ["trade.refund", "item not as described"],
      ],
    );
    assert.deepEqual(items[0].before, { refunded: "40.00" });
  });

  test("happy: a refund from the house leaves the seller's balance as it was", async () => {
    const tradeId = await completedTrade(10);
    const sellerBefore = await balance(seller);
    const done = await refund("admin", tradeId, {
      amount: 4,
      from: "house",
      reason: "goodwill, late delivery",
    });
    assert.equal(done.statusCode, 200, done.body);
    assert.equal(done.json().data.from_house, "4.00");
    assert.equal(await balance(seller), sellerBefore);
    await t.assertLedger();
  });

  test("error: too much, a bad amount, no reason, an unknown trade; a seller who cannot pay", async () => {
    const tradeId = await completedTrade(20);
    for (const [body, status, message] of [
      [{ amount: "20.01", from: "house", reason: "too much" }, 400, /^amount: at most 20\.00/],
      [{ amount: "-1", from: "house", reason: "negative" }, 400, /^amount/],
      [{ from: "house", reason: "  " }, 400, /^reason/],
      [{ from: "nobody", reason: "which source" }, 400, /from/],
    ] as const) {
      const answer = await refund("finance", tradeId, body);
      assert.equal(answer.statusCode, status, answer.body);
      assert.match(answer.json().error, message);
    }
    assert.equal((await refund("finance", "999999", { from: "house", reason: "nobody" })).statusCode, 404);
    const sellerBalance = Number(await balance(seller));
    if (sellerBalance > 0)
      await t.admin("POST", `/sandbox/users/${seller.userId}/withdrawals`, {
        account: "balance",
        amount: sellerBalance,
      });
    const broke = await refund("finance", tradeId, { from: "seller", reason: "seller at fault" });
    assert.equal(broke.statusCode, 409, broke.body);
    assert.match(broke.json().error, /^from: the seller's balance/);
    const row = await t.ctx.db
      .selectFrom("trades")
      .select("refunded")
      .where("trade_id", "=", Number(tradeId))
      .executeTakeFirstOrThrow();
    assert.equal(Number(row.refunded), 0);
    await t.assertLedger();
  });

  test("security: support and risk may not refund, and a refund needs the CSRF token", async () => {
    const tradeId = await completedTrade(5);
    for (const role of ["support", "risk"]) {
      const answer = await refund(role, tradeId, { from: "house", reason: "not my job" });
      assert.equal(answer.statusCode, 403, answer.body);
      assert.match(answer.json().error, new RegExp(`the ${role} role may not trade\\.refund`));
    }
    const forged = await t.app.inject({
      method: "POST",
      url: `/ops/api/trades/${tradeId}/refund`,
      headers: { cookie: staff.finance!.cookie },
      payload: { from: "house", reason: "forged" },
    });
    assert.equal(forged.statusCode, 403);
    await t.assertLedger();
  });
});
