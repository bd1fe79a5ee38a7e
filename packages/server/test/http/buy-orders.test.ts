import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import {
  createReadyTrader,
  goodsIdOf,
  grant,
  grantOne,
  type PlatformFixture,
} from "../support/platform-world.ts";
import { sql } from "kysely";
import { PHASE_OFFSETS, phaseTagsOf } from "../../src/domain/catalog/phases.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { usingPostgres } from "../support/test-database.ts";
import { describeOrSkip } from "../support/describe-or-skip.ts";

const STICKER = "Sticker | Crown (Foil)";
const REDLINE = "AK-47 | Redline (Field-Tested)";
const FADE = "★ Karambit | Fade (Factory New)";
const DOPPLER = "★ Karambit | Doppler (Factory New)";

/** Buy orders: creation, crossing both ways, fills, supply, cancel; ledger checked after each step. */
describe("buy orders", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let rival: PlatformFixture;
  let stickerId: number;
  let redlineId: number;

  const api = (token: string, method: "GET" | "POST" | "PUT" | "DELETE", path: string, body?: unknown) =>
    t.as(token, method, `/api/market/developer/${path}`, body);
  const order = async (trader: PlatformFixture, body: Record<string, unknown>) => {
    const response = await api(trader.token, "POST", "buy_order", { game: "cs2", num: 1, ...body });
    await t.assertLedger();
    return response;
  };
  const list = async (trader: PlatformFixture, goods: string, prices: number[], extra = {}) => {
    const assetids = await grant(t, trader.platformid, {
      market_hash_name: goods,
      count: prices.length,
      ...extra,
    });
    const response = await api(trader.token, "POST", "sell_order/items", {
      game: "cs2",
      assets: assetids.map((assetid, index) => ({ assetid, price: prices[index] })),
    });
    assert.equal(response.statusCode, 200, response.body);
    await t.assertLedger();
    return assetids;
  };
  const ordersOf = async (trader: PlatformFixture, query = "") =>
    (await api(trader.token, "GET", `buy_order?game=cs2${query}`)).json().items as Array<
      Record<string, unknown>
    >;
  const sales = async (trader: PlatformFixture) =>
    (await api(trader.token, "POST", "sell_order/history", { game: "cs2" })).json().items as Array<
      Record<string, string>
    >;
  const balances = async (trader: PlatformFixture) =>
    (await t.admin("GET", `/sandbox/users/${trader.userId}/balances`)).json();
  before(async () => {
    t = await createTestApp({ catalog: true });
    stickerId = await goodsIdOf(t, STICKER);
    redlineId = await goodsIdOf(t, REDLINE);
  });
  // Every test starts from an empty world with three fresh traders.
  beforeEach(async () => {
    const reset = await t.admin("POST", "/sandbox/reset");
    assert.equal(reset.statusCode, 200, reset.body);
    seller = await createReadyTrader(t, "bo-seller");
    buyer = await createReadyTrader(t, "bo-buyer");
    rival = await createReadyTrader(t, "bo-rival");
  });
  after(() => t.close());

  test("happy: an order with nothing to buy waits; a listing below it fills it at the order's price", async () => {
    await t.fund(buyer.userId, "balance", 20);
    const created = await order(buyer, { goods_id: stickerId, price: "8.00", num: 2 });
    assert.equal(created.statusCode, 200, created.body);
    const record = created.json();
    assert.equal(record.game, "csgo", "records carry csgo (reference convention 6)");
    assert.equal(record.state, "progressing");
    assert.equal(record.price, "8.00");
    assert.equal(record.frozen_num, 0);
    assert.equal(record.buy_order_num, 2);
    assert.equal(record.buy_max_price, "8.00");
    assert.equal(record.expire_time, null);
    assert.equal(record.platformid_text, buyer.platformid);
    assert.equal((await balances(buyer)).balance, "20.00", "nothing is reserved");

    await list(seller, STICKER, [6]);
    const [mine] = await ordersOf(buyer);
    assert.equal(mine!.game, "csgo");
    assert.equal(mine!.frozen_num, 1);
    assert.equal((await balances(buyer)).escrow, "8.00", "the fill pays the order's price");
    const sale = (await sales(seller))[0]!;
    assert.equal(sale.price, "8.00");
    assert.equal(sale.state, "SELLER_TO_SEND_OFFER");
    assert.equal(sale.type, 2);
    const [purchase] = (await api(buyer.token, "POST", "purchase/orders/list", { game: "cs2" })).json().items;
    assert.equal(purchase.buy_order_id, record.id);

    const sent = await api(seller.token, "POST", "sell_order/send_offer", { order_id: sale.id });
    assert.equal(sent.statusCode, 200, sent.body);
    const trading = (await sales(seller)).find((row) => row.id === sale.id)!;
    await t.admin("POST", `/sandbox/platform/offers/${trading.tradeofferid}/accept`);
    await t.admin("POST", "/sandbox/jobs/run");
    await t.assertLedger();
    const [after] = await ordersOf(buyer);
    assert.equal(after!.real_num, 1);
    assert.equal(after!.frozen_num, 0);
    assert.equal(after!.state, "progressing");
  });

  test("crossing: a new order buys listings at or below its price, cheapest first, at their prices", async () => {
    await list(seller, STICKER, [5, 6, 7]);
    await t.fund(buyer.userId, "balance", 30);
    const before = Number((await balances(buyer)).balance);
    const created = (await order(buyer, { goods_id: stickerId, price: 6.5, num: 3 })).json();
    assert.equal(created.frozen_num, 2);
    assert.equal(created.state, "progressing");
    assert.equal(Number((await balances(buyer)).balance), before - 11);
    const remaining = await api(seller.token, "GET", "sell_order/on_sale?game=cs2&goods_id=" + stickerId);
    assert.deepEqual(
      remaining.json().data.items.map((item: { price: string }) => item.price),
      ["7.00"],
    );
  });

  test("price-time priority: the highest order fills first, the older of equal ones before the newer", async () => {
    await t.fund(buyer.userId, "balance", 50);
    await t.fund(rival.userId, "balance", 50);
    const first = (await order(buyer, { goods_id: redlineId, price: 10 })).json();
    const second = (await order(rival, { goods_id: redlineId, price: 10 })).json();
    const higher = (await order(rival, { goods_id: redlineId, price: 11 })).json();
    await list(seller, REDLINE, [9]);
    const frozen = async (trader: PlatformFixture, id: string) =>
      (await ordersOf(trader)).find((row) => row.id === id)!.frozen_num;
    assert.equal(await frozen(rival, higher.id), 1);
    await list(seller, REDLINE, [9]);
    assert.equal(await frozen(buyer, first.id), 1);
    assert.equal(await frozen(rival, second.id), 0);
  });

  test("self-trade is prevented and offline orders neither fill nor show; coming online crosses", async () => {
    await t.fund(seller.userId, "balance", 20);
    const own = (await order(seller, { goods_id: stickerId, price: 9 })).json();
    await list(seller, STICKER, [4]);
    assert.equal((await ordersOf(seller)).find((row) => row.id === own.id)!.frozen_num, 0);

    await t.fund(buyer.userId, "balance", 20);
    await api(buyer.token, "PUT", "buy_order/status", { buy_order_status: "offline" });
    const hidden = (await order(buyer, { goods_id: redlineId, price: 12 })).json();
    assert.equal(hidden.frozen_num, 0);
    assert.equal(hidden.buy_max_price, "0.00", "an offline buyer's orders are not in the public book");
    await list(seller, REDLINE, [8]);
    assert.equal((await ordersOf(buyer)).find((row) => row.id === hidden.id)!.frozen_num, 0);
    await api(buyer.token, "PUT", "buy_order/status", { buy_order_status: "online" });
    assert.equal((await ordersOf(buyer)).find((row) => row.id === hidden.id)!.frozen_num, 1);
    await t.assertLedger();
  });

  test("automatic offline turns the status offline after a fill", async () => {
    await t.fund(buyer.userId, "balance", 20);
    await api(buyer.token, "PUT", "buy_order/status", {
      buy_order_status: "online",
      buy_order_auto_offline: true,
    });
    const created = (await order(buyer, { goods_id: stickerId, price: 5, num: 2 })).json();
    await list(seller, STICKER, [4, 4]);
    assert.equal((await ordersOf(buyer)).find((row) => row.id === created.id)!.frozen_num, 1);
    const status = (await api(buyer.token, "GET", "buy_order/status")).json();
    assert.equal(status.buy_order_status, "offline");
    await api(buyer.token, "PUT", "buy_order/status", {
      buy_order_status: "online",
      buy_order_auto_offline: false,
    });
  });

  test("specific: paintwear and paint seed constraints decide which items fill", async () => {
    await t.fund(buyer.userId, "balance", 100);
    const wear = (
      await order(buyer, {
        goods_id: redlineId,
        price: 20,
        specific: [{ type: "paintwear", values: ["0.15", "0.2"] }],
      })
    ).json();
    await list(seller, REDLINE, [10], { paintwear: "0.25" });
    assert.equal((await ordersOf(buyer)).find((row) => row.id === wear.id)!.frozen_num, 0);
    await list(seller, REDLINE, [10], { paintwear: "0.17" });
    assert.equal((await ordersOf(buyer)).find((row) => row.id === wear.id)!.frozen_num, 1);
    assert.deepEqual(wear.specific, [{ type: "paintwear", values: ["0.15", "0.2"] }]);

    const seed = (
      await order(buyer, {
        goods_id: redlineId,
        price: 20,
        specific: [{ type: "paintseed", values: ["661"] }],
      })
    ).json();
    await list(seller, REDLINE, [10], { paintseed: 100 });
    assert.equal((await ordersOf(buyer)).find((row) => row.id === seed.id)!.frozen_num, 0);
    await list(seller, REDLINE, [10], { paintseed: 661 });
    assert.equal((await ordersOf(buyer)).find((row) => row.id === seed.id)!.frozen_num, 1);
  });

  test("specific: a fade range accepts only the paint seeds that give it", async () => {
    const fadeId = await goodsIdOf(t, FADE);
    await t.fund(buyer.userId, "balance", 2000);
    const created = (
      await order(buyer, {
        goods_id: fadeId,
        price: 900,
        specific: [{ type: "fade", values: ["99", "100"] }],
      })
    ).json();
    assert.equal(created.state, "progressing", JSON.stringify(created));
    // A Karambit with paint seed 12 is an 83% fade, outside the range; seed 16 is a 99.8% fade.
    await list(seller, FADE, [800], { paintseed: 12 });
    assert.equal((await ordersOf(buyer)).find((row) => row.id === created.id)!.frozen_num, 0);
    await list(seller, FADE, [800], { paintseed: 16 });
    assert.equal((await ordersOf(buyer)).find((row) => row.id === created.id)!.frozen_num, 1);
  });

  test("specific: a phase accepts only items of that phase", async () => {
    const doppler = await t.database.db
      .selectFrom("goods")
      .select(["goods_id", "paint_index", "tags"])
      .where("market_hash_name", "=", DOPPLER)
      .executeTakeFirstOrThrow();
    const granted = await t.admin("POST", `/sandbox/platform/accounts/${seller.platformid}/items`, {
      goods_id: doppler.goods_id,
      count: 12,
      random_extras: false,
    });
    const assets = granted.json().assets as Array<{ assetid: string; info: { paintindex: number } }>;
    const phaseOf = (paintindex: number) =>
      Object.entries(PHASE_OFFSETS).find(
        ([name, offset]) =>
          doppler.paint_index! + offset === paintindex &&
          phaseTagsOf(doppler).some((tag) => tag.internal_name === name),
      )![0];
    const wanted = assets[0]!;
    const other = assets.find((asset) => asset.info.paintindex !== wanted.info.paintindex);
    assert.ok(other, "twelve Dopplers of one phase");
    await t.fund(buyer.userId, "balance", 5000);
    const created = (
      await order(buyer, {
        goods_id: doppler.goods_id,
        price: 2000,
        specific: [{ type: "phase", values: [phaseOf(wanted.info.paintindex)] }],
      })
    ).json();
    assert.equal(created.specific[0].values[0], phaseOf(wanted.info.paintindex));
    const sell = (assetid: string) =>
      api(seller.token, "POST", "sell_order/items", { game: "cs2", assets: [{ assetid, price: 1500 }] });
    await sell(other!.assetid);
    assert.equal((await ordersOf(buyer)).find((row) => row.id === created.id)!.frozen_num, 0);
    await sell(wanted.assetid);
    assert.equal((await ordersOf(buyer)).find((row) => row.id === created.id)!.frozen_num, 1);
    await t.assertLedger();
  });

  test("cancel during an in-flight fill: the fill finishes and counts, the order takes no more", async () => {
    await t.fund(buyer.userId, "balance", 30);
    const created = (await order(buyer, { goods_id: stickerId, price: 10, num: 2 })).json();
    await list(seller, STICKER, [9]);
    const [sale] = await sales(seller);
    assert.deepEqual(
      (await api(buyer.token, "DELETE", "buy_order", { game: "cs2", buy_order_ids: [created.id] })).json(),
      { [created.id]: "OK" },
    );
    await list(seller, STICKER, [9]);
    assert.equal((await sales(seller)).length, 1, "a cancelled order fills no more");
    await api(seller.token, "POST", "sell_order/send_offer", { order_id: sale!.id });
    const trading = (await sales(seller))[0]!;
    await t.admin("POST", `/sandbox/platform/offers/${trading.tradeofferid}/accept`);
    await t.admin("POST", "/sandbox/jobs/run");
    const [after] = await ordersOf(buyer);
    assert.equal(after!.real_num, 1);
    assert.equal(after!.frozen_num, 0);
    assert.equal(after!.state, "failed");
    await t.assertLedger();
  });

  test("cooldown: pre-sell listings fill only orders that allow them, and wait for the cooldown", async () => {
    await t.fund(buyer.userId, "balance", 50);
    const strict = (await order(buyer, { goods_id: stickerId, price: 9 })).json();
    await list(seller, STICKER, [3], { cooldown_days: 2 });
    assert.equal((await ordersOf(buyer)).find((row) => row.id === strict.id)!.frozen_num, 0);
    const lenient = (
      await order(buyer, { goods_id: stickerId, price: 9, allow_tradable_cooldown: true })
    ).json();
    assert.equal(lenient.frozen_num, 1);
    const sale = (await sales(seller))[0]!;
    const early = await api(seller.token, "POST", "sell_order/send_offer", { order_id: sale.id });
    assert.notEqual(early.statusCode, 200, "the item cannot be delivered during its cooldown");
    await t.assertLedger();
  });

  test("a buyer who cannot pay loses the order, and the next order fills", async () => {
    await t.fund(rival.userId, "balance", 10);
    await t.fund(buyer.userId, "balance", 10);
    const broke = (await order(rival, { goods_id: redlineId, price: 10 })).json();
    await t.admin("POST", `/sandbox/users/${rival.userId}/withdrawals`, {
      account: "balance",
      amount: "10",
    });
    const next = (await order(buyer, { goods_id: redlineId, price: 9 })).json();
    await list(seller, REDLINE, [8]);
    const failed = (await ordersOf(rival)).find((row) => row.id === broke.id)!;
    assert.equal(failed.state, "failed");
    assert.equal((await ordersOf(buyer)).find((row) => row.id === next.id)!.frozen_num, 1);
    await t.assertLedger();
  });

  test("supply: a seller fills a chosen order; a failed trade gives the unit back", async () => {
    await t.fund(buyer.userId, "balance", 40);
    const created = (await order(buyer, { goods_id: redlineId, price: 15, num: 2 })).json();
    const [good, wrong] = [
      await grantOne(t, seller.platformid, { market_hash_name: REDLINE }),
      await grantOne(t, seller.platformid, { market_hash_name: STICKER }),
    ];
    const supplied = await api(seller.token, "POST", "buy_order/supply", {
      game: "cs2",
      buy_order_id: created.id,
      assets: [good, wrong, "99999"],
    });
    assert.equal(supplied.statusCode, 200, supplied.body);
    const body = supplied.json();
    assert.equal(body[good], "OK");
    assert.equal(body[wrong], "not the goods the buy order wants");
    assert.equal(body["99999"], "not in the inventory of a platform account bound to you");
    const tradeId = body.bill_orders[good].bill_order_id;
    assert.match(tradeId, /^\d+$/);
    await t.assertLedger();

    await api(seller.token, "POST", "sell_order/send_offer", { order_id: tradeId });
    const trading = (await sales(seller)).find((row) => row.id === tradeId)!;
    await t.admin("POST", `/sandbox/platform/offers/${trading.tradeofferid}/decline`);
    await t.admin("POST", "/sandbox/jobs/run");
    await t.assertLedger();
    const back = (await ordersOf(buyer)).find((row) => row.id === created.id)!;
    assert.equal(back.frozen_num, 0);
    assert.equal(back.real_num, 0);
    assert.equal((await balances(buyer)).balance, "40.00", "the failed fill is refunded");

    const own = await api(buyer.token, "POST", "buy_order/supply", {
      game: "cs2",
      buy_order_id: created.id,
      assets: [good],
    });
    assert.equal(own.statusCode, 400);
    assert.match(own.json().msg, /^buy_order_id: /);
  });

  test("cancel: OK for one's own order, another user's id answers like an unknown one", async () => {
    await t.fund(buyer.userId, "balance", 10);
    const created = (await order(buyer, { goods_id: stickerId, price: 2 })).json();
    const byRival = await api(rival.token, "DELETE", "buy_order", {
      game: "cs2",
      buy_order_ids: [created.id],
    });
    assert.deepEqual(byRival.json(), { [created.id]: "no buy order of yours with this id" });
    const cancelled = await api(buyer.token, "DELETE", "buy_order", {
      game: "cs2",
      buy_order_ids: [created.id, "999999999"],
    });
    assert.deepEqual(cancelled.json(), {
      [created.id]: "OK",
      "999999999": "no buy order of yours with this id",
    });
    const again = await api(buyer.token, "DELETE", "buy_order", { game: "cs2", buy_order_ids: [created.id] });
    assert.deepEqual(again.json(), { [created.id]: "the buy order is already cancelled" });
    assert.equal(
      (await ordersOf(buyer, "&order_state=failed")).some((row) => row.id === created.id),
      true,
    );
    await list(seller, STICKER, [1]);
    await t.assertLedger();
  });

  test("errors: bad input names the field; creation needs the funds to cover price × num", async () => {
    await t.fund(rival.userId, "balance", 5);
    const cases: Array<[Record<string, unknown>, number, RegExp]> = [
      [{ goods_id: stickerId, price: 0 }, 400, /^price: /],
      [{ goods_id: stickerId, price: "1.234" }, 400, /^price: /],
      [{ goods_id: 999999999, price: 1 }, 400, /^goods_id: /],
      [
        { goods_id: stickerId, price: 1, specific: [{ type: "paintseed", values: ["1"] }] },
        400,
        /^specific\.0\.type: /,
      ],
      [
        { goods_id: redlineId, price: 1, specific: [{ type: "paintwear", values: ["0.5", "0.4"] }] },
        400,
        /^specific\.0\.values: /,
      ],
      [
        { goods_id: redlineId, price: 1, specific: [{ type: "paintseed", values: ["1001"] }] },
        400,
        /^specific\.0\.values: /,
      ],
      [{ goods_id: stickerId, price: 1, num: 0 }, 400, /num/],
      [{ goods_id: stickerId, price: 3, num: 2 }, 409, /needs 6\.00/],
      [{ goods_id: stickerId, price: 1, pay_method: "wallet" }, 400, /pay_method/],
    ];
    for (const [body, status, message] of cases) {
      const response = await order(rival, body);
      assert.equal(response.statusCode, status, `${JSON.stringify(body)}: ${response.body}`);
      assert.match(response.json().msg, message);
    }
    const page = await api(rival.token, "GET", "buy_order?game=cs2&page_size=501");
    assert.equal(page.statusCode, 400);
    assert.equal((await ordersOf(rival)).length, 0, "no refused order was written");
  });

  test("list: filters by state, creation time and delivery account, pages up to 500", async () => {
    await t.fund(rival.userId, "balance", 100);
    for (let index = 0; index < 3; index++) await order(rival, { goods_id: stickerId, price: 1 });
    const page = (
      await api(rival.token, "GET", "buy_order?game=cs2&page_size=2&order_state=progressing")
    ).json();
    assert.equal(page.items.length, 2);
    assert.equal(page.total_count, 3);
    assert.equal(page.total_page, 2);
    const now = Math.floor(t.clock.now().getTime() / 1000);
    assert.equal((await ordersOf(rival, `&start_time=${now + 60}`)).length, 0);
    assert.equal(
      (await ordersOf(rival, `&platformid=${rival.platformid}&order_state=progressing`)).length,
      3,
    );
    assert.equal((await ordersOf(rival, `&platformid=${buyer.platformid}`)).length, 0);
    const reversed = await api(
      rival.token,
      "GET",
      `buy_order?game=cs2&start_time=${now}&end_time=${now - 1}`,
    );
    assert.equal(reversed.statusCode, 400);
  });

  test("buy-order funds expire after 150 days, oldest first, cancelling orders they no longer cover", async () => {
    const days = (count: number) => t.admin("POST", "/sandbox/clock/advance", { seconds: count * 86_400 });
    await t.fund(buyer.userId, "margin", 100);
    await days(10);
    // The 30 spent come from the oldest deposit: 70 of it remain to expire.
    await list(seller, STICKER, [30]);
    const bought = await api(buyer.token, "POST", "purchase/orders", {
      game: "cs2",
      pay_method: "margin",
      items: [{ goods_id: stickerId, max_price: 30, quantity: 1 }],
    });
    const [tradeId] = bought.json().result[String(stickerId)].bill_order_ids;
    await api(seller.token, "POST", "sell_order/send_offer", { order_id: tradeId });
    const offer = (await sales(seller)).find((row) => row.id === tradeId)!;
    await t.admin("POST", `/sandbox/platform/offers/${offer.tradeofferid}/accept`);
    await t.admin("POST", "/sandbox/jobs/run");
    await days(90);
    await t.fund(buyer.userId, "margin", 50);
    const covered = (
      await order(buyer, { goods_id: redlineId, price: 10, num: 5, pay_method: "margin" })
    ).json();
    const uncovered = (await order(buyer, { goods_id: redlineId, price: 20, num: 5 })).json();
    await t.admin("POST", "/sandbox/jobs/run");
    assert.equal((await balances(buyer)).margin, "120.00", "nothing expires before 150 days");
    await days(51);
    const run = (await t.admin("POST", "/sandbox/jobs/run")).json();
    assert.deepEqual(
      run.jobs.find((job: { name: string }) => job.name === "expire-margin"),
      { name: "expire-margin", processed: 1 },
    );
    assert.equal((await balances(buyer)).margin, "50.00");
    await t.assertLedger();
    const states = Object.fromEntries(
      (await ordersOf(buyer)).map((row) => [row.id as string, row.state as string]),
    );
    assert.equal(states[covered.id], "progressing");
    assert.equal(states[uncovered.id], "failed");
    const again = (await t.admin("POST", "/sandbox/jobs/run")).json();
    assert.equal(again.jobs.find((job: { name: string }) => job.name === "expire-margin").processed, 0);
    await days(100);
    await t.admin("POST", "/sandbox/jobs/run");
    assert.equal((await balances(buyer)).margin, "0.00");
    assert.equal(
      (await ordersOf(buyer)).find((row) => row.id === covered.id)!.state,
      "failed",
      "an order with no funds left is cancelled",
    );
    await t.assertLedger();
  });

  test("the public book: anyone may read it, best price first, offline buyers hidden", async () => {
    await t.fund(buyer.userId, "margin", 100);
    await t.fund(rival.userId, "balance", 100);
    const low = (await order(buyer, { goods_id: redlineId, price: 5, num: 2, pay_method: "margin" })).json();
    const high = (
      await order(rival, {
        goods_id: redlineId,
        price: 7,
        specific: [{ type: "paintwear", values: ["0.15", "0.2"] }],
      })
    ).json();
    const book = await t.app.inject({
      method: "GET",
      url: `/api/market/goods/buy_order?game=csgo&goods_id=${redlineId}`,
    });
    assert.equal(book.statusCode, 200, book.body);
    const { code, data, msg } = book.json();
    assert.equal(code, "OK");
    assert.equal(msg, null);
    assert.deepEqual(
      data.items.map((item: { id: string }) => item.id),
      [high.id, low.id],
    );
    const [first, second] = data.items;
    assert.equal(first.price, "7.00");
    assert.equal(first.fee, "0.18");
    assert.deepEqual(first.specific, [
      {
        color: "#4A90E2",
        simple_text: "0.15-0.2",
        text: "磨损 0.15-0.2",
        type: "paintwear",
        values: ["0.15", "0.2"],
      },
    ]);
    assert.equal(first.pay_method, 3, "every order pays its seller into the balance (code 3)");
    assert.equal(second.pay_method, 3);
    assert.equal(second.pay_method_text, "保证金");
    assert.deepEqual(second.supported_pay_channels, ["margin"]);
    assert.equal(data.total_count, 2);
    assert.equal(data.user_infos[rival.userId].nickname, "bo-rival");

    await api(rival.token, "PUT", "buy_order/status", { buy_order_status: "offline" });
    const hidden = await t.app.inject({
      method: "GET",
      url: `/api/market/goods/buy_order?game=csgo&goods_id=${redlineId}`,
    });
    assert.deepEqual(
      hidden.json().data.items.map((item: { id: string }) => item.id),
      [low.id],
    );
    const unknown = await t.app.inject({
      method: "GET",
      url: "/api/market/goods/buy_order?game=csgo&goods_id=999999999",
    });
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(Object.keys(unknown.json()).sort(), ["code", "error", "extra"]);
    const wrongGame = await t.app.inject({
      method: "GET",
      url: `/api/market/goods/buy_order?game=dota2&goods_id=${redlineId}`,
    });
    assert.equal(wrongGame.statusCode, 400);
    assert.match(wrongGame.json().error, /^game: must be one of cs2, csgo/);
  });

  test("sandbox: create, list and cancel buy orders for any user", async () => {
    await t.fund(rival.userId, "balance", 10);
    const created = await t.admin("POST", `/sandbox/users/${rival.userId}/buy_orders`, {
      goods_id: stickerId,
      price: 2,
      num: 1,
    });
    assert.equal(created.statusCode, 200, created.body);
    const listed = await t.admin("GET", `/sandbox/users/${rival.userId}/buy_orders?order_state=progressing`);
    assert.equal(listed.json().items[0].id, created.json().id);
    const cancelled = await t.admin("DELETE", `/sandbox/users/${rival.userId}/buy_orders`, {
      buy_order_ids: [created.json().id],
    });
    assert.deepEqual(cancelled.json(), { [created.json().id]: "OK" });
    const unknown = await t.admin("GET", "/sandbox/users/999999/buy_orders");
    assert.equal(unknown.statusCode, 404);
    const noAdmin = await t.as(rival.token, "GET", `/sandbox/users/${rival.userId}/buy_orders`);
    assert.notEqual(noAdmin.statusCode, 200);
  });
});

describeOrSkip("buy orders under concurrency", { skip: !usingPostgres && "needs TEST_DATABASE_URL" }, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ catalog: true });
  });
  after(() => t.close());

  test("a buyer with automatic offline is filled once when two supplies race, 5 rounds", async () => {
    const [stickerId, redlineId] = [await goodsIdOf(t, STICKER), await goodsIdOf(t, REDLINE)];
    for (let round = 0; round < 5; round++) {
      const buyer = await createReadyTrader(t);
      await t.fund(buyer.userId, "balance", 100);
      const bid = async (goodsId: number) =>
        (
          await t.as(buyer.token, "POST", "/api/market/developer/buy_order", {
            game: "cs2",
            goods_id: goodsId,
            price: 5,
            num: 1,
          })
        ).json().id as string;
      const orders = [await bid(stickerId), await bid(redlineId)];
      await t.as(buyer.token, "PUT", "/api/market/developer/buy_order/status", {
        buy_order_auto_offline: true,
      });
      const sellers = await Promise.all([createReadyTrader(t), createReadyTrader(t)]);
      const assets = [
        await grantOne(t, sellers[0]!.platformid, { market_hash_name: STICKER }),
        await grantOne(t, sellers[1]!.platformid, { market_hash_name: REDLINE }),
      ];
      const answers = await Promise.all(
        sellers.map((seller, index) =>
          t.as(seller.token, "POST", "/api/market/developer/buy_order/supply", {
            game: "cs2",
            buy_order_id: orders[index],
            assets: [assets[index]],
          }),
        ),
      );
      const sold = answers.filter((answer, index) => answer.json()[assets[index]!] === "OK");
      assert.equal(sold.length, 1, `round ${round}: ${answers.map((answer) => answer.body).join(" | ")}`);
      await t.assertLedger();
    }
  });

  test("expiring buy-order funds and deposits of the same users never deadlock", async () => {
    const users = await Promise.all(Array.from({ length: 10 }, () => t.createUser()));
    for (const user of users) await t.fund(user.userId, "margin", 10);
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 151 * 86_400 });
    const [jobs, ...deposits] = await Promise.all([
      t.admin("POST", "/sandbox/jobs/run"),
      ...users.flatMap((user) =>
        [1, 2, 3].map(() =>
          t.admin("POST", `/sandbox/users/${user.userId}/funds`, { account: "balance", amount: "1" }),
        ),
      ),
    ]);
    assert.equal(jobs!.statusCode, 200, jobs!.body);
    assert.ok(deposits.every((deposit) => deposit.statusCode === 200));
    for (const user of users)
      assert.equal((await t.admin("GET", `/sandbox/users/${user.userId}/balances`)).json().margin, "0.00");
    const deadlocks = await t.database.db
      .selectFrom(sql<{ deadlocks: string }>`pg_stat_database`.as("stats"))
      .select("deadlocks")
      .where(sql`datname`, "=", sql`current_database()`)
      .executeTakeFirstOrThrow();
    assert.equal(Number(deadlocks.deadlocks), 0);
    await t.assertLedger();
  });

  test("20 listings crossing one order for one unit fill it exactly once, 10 rounds", async () => {
    const stickerId = await goodsIdOf(t, STICKER);
    const buyer = await createReadyTrader(t);
    const sellers = await Promise.all(Array.from({ length: 20 }, () => createReadyTrader(t)));
    const assets = await Promise.all(
      sellers.map((seller) => grant(t, seller.platformid, { market_hash_name: STICKER, count: 10 })),
    );
    await t.fund(buyer.userId, "balance", 1000);
    for (let round = 0; round < 10; round++) {
      const created = await t.as(buyer.token, "POST", "/api/market/developer/buy_order", {
        game: "cs2",
        goods_id: stickerId,
        price: 5,
        num: 1,
      });
      const id = created.json().id as string;
      await Promise.all(
        sellers.map((seller, index) =>
          t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
            game: "cs2",
            assets: [{ assetid: assets[index]![round], price: 4 }],
          }),
        ),
      );
      const orders = await t.as(buyer.token, "GET", "/api/market/developer/buy_order?game=cs2&page_size=1");
      const mine = orders.json().items.find((row: { id: string }) => row.id === id);
      assert.equal(mine.frozen_num, 1, `round ${round}`);
      await t.assertLedger();
      // The unsold listings go off sale before the next round.
      for (const seller of sellers) {
        const onSale = await t.as(seller.token, "GET", "/api/market/developer/sell_order/on_sale?game=cs2");
        const ids = onSale.json().data.items.map((item: { id: string }) => item.id);
        if (ids.length > 0)
          await t.as(seller.token, "DELETE", "/api/market/developer/sell_order/items", {
            game: "cs2",
            sell_orders: ids,
          });
      }
    }
  });

  test("concurrent fills of several orders of one buyer never spend more than the buyer has", async () => {
    const redlineId = await goodsIdOf(t, REDLINE);
    const buyer = await createReadyTrader(t);
    await t.fund(buyer.userId, "balance", 30);
    for (let index = 0; index < 5; index++) {
      const created = await t.as(buyer.token, "POST", "/api/market/developer/buy_order", {
        game: "cs2",
        goods_id: redlineId,
        price: 10,
        num: 3,
      });
      assert.equal(created.statusCode, 200, created.body);
    }
    const sellers = await Promise.all(Array.from({ length: 10 }, () => createReadyTrader(t)));
    await Promise.all(
      sellers.map(async (seller) => {
        const [assetid] = await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 1 });
        await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
          game: "cs2",
          assets: [{ assetid, price: 9 }],
        });
      }),
    );
    const balances = (await t.admin("GET", `/sandbox/users/${buyer.userId}/balances`)).json();
    assert.equal(balances.escrow, "30.00");
    assert.equal(balances.balance, "0.00");
    await t.assertLedger();
  });
});
