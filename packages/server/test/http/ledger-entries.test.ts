import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
const PATH = "/api/market/developer/balance/entries";

interface Entry {
  id: string;
  kind: string;
  created_at: number;
  sell_order_id?: string;
  trade_id?: string;
  buy_order_id?: string;
  lines: { account: string; amount: string; balance_after: string }[];
}

/**
 * GET /api/market/developer/balance/entries: every movement of the caller's money, newest first,
 * with the lines on their own accounts and each balance after (docs/design/website-buying-routes.md#the-accounts-own-data-for-the-website-without-an-api-token). The
 * ledger invariants are checked after every step that moves money.
 */
describe("GET /api/market/developer/balance/entries", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let stickerId: number;
  const entriesOf = async (token: string, query = "") => {
    const response = await t.as(token, "GET", `${PATH}${query}`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ items: Entry[]; has_more: boolean; total_count: number }>();
  };
  const post = (token: string, path: string, body: unknown) =>
    t.as(token, "POST", `/api/market/developer/${path}`, body);

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createReadyTrader(t, "ledger-seller");
    buyer = await createReadyTrader(t, "ledger-buyer");
    stickerId = await goodsIdOf(t, STICKER);
  });
  after(() => t.close());

  test("happy: a new account has no movement", async () => {
    const user = await t.createUser();
    assert.deepEqual(await entriesOf(user.token), { items: [], has_more: false, total_count: 0 });
  });

  test("happy: a deposit, a purchase and its delivery, as each side sees them, with the balances after", async () => {
    await t.fund(buyer.userId, "balance", 10);
    await t.assertLedger();
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 1 });
    const listed = await post(seller.token, "sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price: 4 }],
    });
    const listingId = listed.json().sell_orders[assetid!].sell_order_id as string;
    const bought = await post(buyer.token, "purchase/orders", {
      game: "cs2",
      items: [{ goods_id: stickerId, max_price: 4, quantity: 1 }],
    });
    assert.equal(bought.statusCode, 200, bought.body);
    await t.assertLedger();
    const tradeId = bought.json().result[String(stickerId)].bill_order_ids[0] as string;
    assert.equal((await post(seller.token, "sell_order/send_offer", { order_id: tradeId })).statusCode, 200);
    const offer = (await post(buyer.token, "purchase/orders/list", { game: "cs2" }))
      .json()
      .items.find((item: { id: string }) => item.id === tradeId);
    await t.admin("POST", `/sandbox/platform/offers/${offer.tradeofferid}/accept`);
    await t.admin("POST", "/sandbox/jobs/run");
    await t.assertLedger();

    const bought_ = await entriesOf(buyer.token);
    assert.deepEqual(
      bought_.items.map((entry) => [entry.kind, entry.lines]),
      [
        // Delivered: the frozen price leaves the buyer (to the seller and the fee account).
        ["trade_payout", [{ account: "frozen_amount", amount: "-4.00", balance_after: "0.00" }]],
        [
          "purchase_payment",
          [
            { account: "market_balance", amount: "-4.00", balance_after: "6.00" },
            { account: "frozen_amount", amount: "4.00", balance_after: "4.00" },
          ],
        ],
        ["deposit", [{ account: "market_balance", amount: "10.00", balance_after: "10.00" }]],
      ],
    );
    assert.equal(bought_.items[0]!.trade_id, tradeId);
    assert.equal(bought_.items[1]!.sell_order_id, listingId);
    assert.equal(bought_.has_more, false);
    const ids = bought_.items.map((entry) => BigInt(entry.id));
    assert.deepEqual(
      [...ids].sort((a, b) => (a > b ? -1 : 1)),
      ids,
      "newest first",
    );
    assert.ok(bought_.items.every((entry) => entry.created_at > 1_600_000_000));

    const sold = await entriesOf(seller.token);
    assert.equal(sold.items.length, 1);
    assert.equal(sold.items[0]!.kind, "trade_payout");
    assert.equal(sold.items[0]!.trade_id, tradeId);
    const [income] = sold.items[0]!.lines;
    assert.equal(income!.account, "market_balance");
    const balance = (await t.as(seller.token, "GET", "/api/market/developer/balance")).json();
    assert.equal(
      income!.balance_after,
      balance.market_balance,
      "the balance after the last entry is the balance",
    );
    assert.ok(Number(income!.amount) > 0 && Number(income!.amount) < 4, "the price less the fee");
  });

  test("happy: pages go back in time with `before`; `account` keeps the entries that moved it", async () => {
    const user = await t.createUser();
    for (const amount of [1, 2, 3, 4, 5]) await t.fund(user.userId, "balance", amount);
    await t.fund(user.userId, "margin", 7);
    await t.assertLedger();
    const first = await entriesOf(user.token, "?limit=4");
    assert.equal(first.has_more, true);
    assert.deepEqual(
      first.items.map((entry) => entry.lines[0]!.amount),
      ["7.00", "5.00", "4.00", "3.00"],
    );
    const second = await entriesOf(user.token, `?limit=4&before=${first.items.at(-1)!.id}`);
    assert.equal(second.has_more, false);
    assert.deepEqual([first.total_count, second.total_count], [6, 6], "the total counts every page");
    assert.deepEqual(
      second.items.map((entry) => [entry.lines[0]!.amount, entry.lines[0]!.balance_after]),
      [
        ["2.00", "3.00"],
        ["1.00", "1.00"],
      ],
    );
    const margin = await entriesOf(user.token, "?account=margin_balance");
    assert.deepEqual(
      margin.items.map((entry) => entry.lines),
      [[{ account: "margin_balance", amount: "7.00", balance_after: "7.00" }]],
    );
    assert.equal(margin.total_count, 1, "the total of one account counts that account's entries");
  });

  test("happy: the website's signed-in session reads it too, without a token", async () => {
    const user = await t.createUser();
    await t.fund(user.userId, "balance", 3);
    const session = await t.signIn(user.nickname, user.password);
    const response = await t.web(session, "GET", PATH);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(
      response.json().items.map((entry: Entry) => entry.lines),
      [[{ account: "market_balance", amount: "3.00", balance_after: "3.00" }]],
    );
  });

  test("error: bad query values are refused naming the field", async () => {
    const user = await t.createUser();
    for (const [query, field] of [
      ["?limit=0", "limit"],
      ["?limit=101", "limit"],
      ["?before=abc", "before"],
      ["?account=escrow", "account"],
    ] as const) {
      const response = await t.as(user.token, "GET", `${PATH}${query}`);
      assert.equal(response.statusCode, 400, query);
      assert.match(response.json().msg, new RegExp(field), query);
    }
  });

  test("security: anonymous callers are refused; each caller sees only their own lines", async () => {
    assert.equal((await t.app.inject({ method: "GET", url: PATH })).statusCode, 401);
    const stranger = await t.createUser();
    assert.deepEqual((await entriesOf(stranger.token)).items, []);
    // The seller's entry moved the fee account and the buyer's frozen funds: the seller sees
    // only their own line.
    const sold = await entriesOf(seller.token);
    assert.ok(sold.items.every((entry) => entry.lines.every((line) => line.account === "market_balance")));
    // A session from another site's page is refused.
    const user = await t.createUser();
    const session = await t.signIn(user.nickname, user.password);
    const foreign = await t.app.inject({
      method: "GET",
      url: PATH,
      headers: { cookie: session.cookie, origin: "https://evil.example" },
    });
    assert.equal(foreign.statusCode, 403, foreign.body);
  });
});
