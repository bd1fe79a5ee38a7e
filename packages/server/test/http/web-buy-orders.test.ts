import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MarketApiError, WebClient } from "@skinmarket/client";
import { goodsIdOf } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { createWebTrader, listNew, type WebTrader } from "../support/web-trader.ts";

const CREATE = "/api/market/buy_order/create";
const WAIT_SUPPLY = "/api/market/buy_order/wait_supply";
const CANCEL = "/api/market/buy_order/cancel";
const REDLINE = "AK-47 | Redline (Field-Tested)";

interface OwnOrder {
  id: string;
  goods_id: number;
  price: string;
  num: number;
  real_num: number;
  state: string;
  specific: Array<{ type: string; values: string[] }>;
}

/** The website's buy-order routes with a signed-in session, on the official buy-order verbs. */
describe("website buy orders: buy_order/create, wait_supply, cancel", () => {
  let t: TestApp;
  let baseUrl: string;
  let bidder: WebTrader;
  let seller: WebTrader;
  let stranger: WebTrader;
  let redlineId: number;

  const write = async (trader: WebTrader, url: string, body: unknown) => {
    const response = await t.web(trader.session, "POST", url, body);
    return {
      status: response.statusCode,
      body: response.json<{ code: string; data: unknown; error?: string }>(),
    };
  };
  const waiting = async (trader: WebTrader) => {
    const response = await t.web(trader.session, "GET", `${WAIT_SUPPLY}?game=csgo&page_num=1&page_size=100`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{
      code: string;
      data: {
        items: OwnOrder[];
        total_count: number;
        goods_infos: Record<string, { market_hash_name: string }>;
      };
    }>().data;
  };
  const ordersInDatabase = async (userId: string) =>
    t.database.db
      .selectFrom("buy_orders")
      .select(["buy_order_id", "state"])
      .where("user_id", "=", Number(userId))
      .execute();

  before(async () => {
    t = await createTestApp({ catalog: true });
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    bidder = await createWebTrader(t, "web-bidder");
    seller = await createWebTrader(t, "web-bid-seller");
    stranger = await createWebTrader(t, "web-bid-stranger");
    redlineId = await goodsIdOf(t, REDLINE);
    await t.fund(bidder.userId, "balance", 100);
    await t.fund(stranger.userId, "balance", 100);
  });
  after(() => t.close());

  test("happy: a buy order placed as the tools send it waits for supply, and is cancelled", async () => {
    const created = await write(bidder, CREATE, {
      game: "csgo",
      goods_id: String(redlineId),
      price: 8.5,
      num: "2",
      pay_method: "3",
      allow_tradable_cooldown: 0,
      specific: [{ type: "paintwear", values: ["0.15", "0.25"] }],
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.code, "OK");
    const order = created.body.data as OwnOrder;
    assert.equal(order.price, "8.50");
    assert.equal(order.num, 2);
    assert.equal(order.state, "progressing");
    assert.deepEqual(order.specific, [{ type: "paintwear", values: ["0.15", "0.25"] }]);
    await t.assertLedger();

    const listed = await waiting(bidder);
    assert.deepEqual(
      listed.items.map((item) => item.id),
      [order.id],
    );
    const official = await t.as(bidder.token, "GET", "/api/market/developer/buy_order?game=cs2");
    assert.deepEqual(official.json().items[0], listed.items[0], "the official operation's record");
    // The goods the orders name, so that the website shows names rather than ids.
    assert.deepEqual(Object.keys(listed.goods_infos), [String(order.goods_id)]);
    assert.match(listed.goods_infos[String(order.goods_id)]!.market_hash_name, /\S/);

    const cancelled = await write(bidder, CANCEL, { game: "csgo", buy_orders: [order.id] });
    assert.equal(cancelled.status, 200);
    assert.deepEqual(cancelled.body, { code: "OK", data: { [order.id]: "OK" }, msg: null });
    assert.equal((await waiting(bidder)).total_count, 0);
    await t.assertLedger();
  });

  test("happy: a buy order at or above a listing's price buys it at once, as the official one does", async () => {
    await listNew(t, seller, { market_hash_name: REDLINE }, [7]);
    const created = await write(bidder, CREATE, { game: "csgo", goods_id: redlineId, price: "7.00", num: 1 });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const order = created.body.data as OwnOrder;
    assert.equal(
      order.real_num + (created.body.data as { frozen_num: number }).frozen_num,
      1,
      "filled at once",
    );
    const shown = (await waiting(bidder)).items.find((item) => item.id === order.id);
    assert.equal(
      (shown as { frozen_num?: number } | undefined)?.frozen_num,
      1,
      "its unit's trade is under way",
    );
    await t.assertLedger();
  });

  test("happy: the WebClient places, lists and cancels over HTTP with the session it keeps", async () => {
    const web = new WebClient({ baseUrl });
    await assert.rejects(
      web.listWebBuyOrders(),
      (error: unknown) => error instanceof MarketApiError && error.code === "Login Required",
    );
    await web.login(bidder.nickname, bidder.password);
    const placed = await web.createWebBuyOrder({ goods_id: redlineId, price: "3.00", num: 1 });
    assert.equal(placed.data.state, "progressing");
    const ids = async () => (await web.listWebBuyOrders()).data.items.map((item) => item.id);
    assert.equal((await ids())[0], placed.data.id, "newest first");
    assert.deepEqual((await web.cancelWebBuyOrders([placed.data.id])).data, { [placed.data.id]: "OK" });
    assert.equal((await ids()).includes(placed.data.id), false);
  });

  test("error: bad fields are refused naming the field, and nothing is written", async () => {
    const before = (await ordersInDatabase(bidder.userId)).length;
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ price: "abc" }, "Invalid Argument", /price/],
      [{ price: "0.001" }, "Invalid Argument", /price/],
      [{ pay_method: 102 }, "Invalid Argument", /pay_method/],
      [{ pay_method: 1 }, "Invalid Argument", /pay_method/],
      [{ goods_id: 999999999 }, "Invalid Argument", /goods_id/],
      [{ num: 0 }, "Invalid Argument", /num/],
      [{ specific: [{ type: "colour", values: ["red"] }] }, "Invalid Argument", /specific/],
      [{ price: "1000", num: 10 }, "Insufficient Balance", /needs/],
    ];
    for (const [fields, code, message] of cases) {
      const body = { game: "csgo", goods_id: redlineId, price: "2.00", num: 1, ...fields };
      const answer = await write(bidder, CREATE, body);
      assert.notEqual(answer.status, 200, JSON.stringify(fields));
      assert.notEqual(answer.status, 500, JSON.stringify(fields));
      assert.equal(answer.body.code, code, JSON.stringify(fields));
      assert.match(JSON.stringify(answer.body), message, JSON.stringify(fields));
    }
    assert.equal((await ordersInDatabase(bidder.userId)).length, before, "no order written");
    const empty = await write(bidder, CANCEL, { game: "csgo", buy_orders: [] });
    assert.equal(empty.status, 400);
    assert.match(JSON.stringify(empty.body), /buy_orders/);
  });

  test("error: one bound per field whatever its wire type: digits are judged as the number they write", async () => {
    const before = (await ordersInDatabase(bidder.userId)).length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ num: 0 }, "num: must be >= 1"],
      [{ num: 1001 }, "num: must be <= 1000"],
      [{ num: "0" }, "num: must be >= 1"],
      [{ num: "1001" }, "num: must be <= 1000"],
      [{ num: "-1" }, "num: must be >= 1"],
      [{ num: "abc" }, "num: must be an integer from 1 to 1000, as a number or its decimal digits"],
      [{ num: "1.5" }, "num: must be an integer from 1 to 1000, as a number or its decimal digits"],
      [{ num: 1.5 }, "num: must be integer or string"],
      [{ num: "1".repeat(16) }, "num: must be an integer from 1 to 1000, as a number or its decimal digits"],
      [{ goods_id: "0" }, "goods_id: must be >= 1"],
      [{ goods_id: "3000000000" }, "goods_id: must be <= 2147483647"],
      [{ pay_method: "1001" }, "pay_method: must be <= 1000"],
    ];
    for (const [fields, message] of cases) {
      const body = { game: "csgo", goods_id: redlineId, price: "2.00", num: 1, ...fields };
      const answer = await write(bidder, CREATE, body);
      assert.equal(answer.status, 400, `${JSON.stringify(fields)}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.code, "Invalid Argument");
      assert.equal(answer.body.error, message, JSON.stringify(fields));
    }
    assert.equal((await ordersInDatabase(bidder.userId)).length, before, "no order written");
    await t.fund(bidder.userId, "balance", 50);
    const inBounds = await write(bidder, CREATE, {
      game: "csgo",
      goods_id: String(redlineId),
      price: "0.05",
      num: "1000",
    });
    assert.equal(inBounds.status, 200, JSON.stringify(inBounds.body));
    const placed = inBounds.body.data as OwnOrder;
    assert.equal(placed.num, 1000, "the bound itself is taken, as text too");
    assert.equal((await write(bidder, CANCEL, { game: "csgo", buy_orders: [placed.id] })).status, 200);
  });

  test("happy: an Idempotency-Key is honoured as on the official writes: one order, the answer replayed", async () => {
    const keyed = (trader: WebTrader, key: string, body: Record<string, unknown>) =>
      t.app.inject({
        method: "POST",
        url: CREATE,
        headers: {
          cookie: trader.session.cookie,
          "x-csrftoken": trader.session.csrfToken,
          "idempotency-key": key,
        },
        payload: body,
      });
    const body = { game: "csgo", goods_id: redlineId, price: "0.05", num: "2" };
    const before = (await ordersInDatabase(bidder.userId)).length;
    const first = await keyed(bidder, "web-order-1", body);
    assert.equal(first.statusCode, 200, first.body);
    const again = await keyed(bidder, "web-order-1", { ...body, num: 2 });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.headers["idempotent-replayed"], "true");
    assert.equal(again.body, first.body, "the first answer, replayed");
    assert.equal((await ordersInDatabase(bidder.userId)).length, before + 1, "one order");

    const reused = await keyed(bidder, "web-order-1", { ...body, num: 3 });
    assert.equal(reused.statusCode, 422, reused.body);
    assert.deepEqual(Object.keys(reused.json()).sort(), ["code", "error", "extra"], "the website's envelope");
    assert.equal(reused.json().code, "Idempotency Key Reused");

    const strangers = await keyed(stranger, "web-order-1", body);
    assert.equal(strangers.statusCode, 200, strangers.body);
    assert.equal(strangers.headers["idempotent-replayed"], undefined, "another user's key is their own");
    assert.notEqual(strangers.json().data.id, first.json().data.id);

    const malformed = await keyed(bidder, "has space", body);
    assert.equal(malformed.statusCode, 400);
    assert.match(malformed.json().error, /^Idempotency-Key: /);
    for (const [trader, order] of [
      [bidder, first],
      [stranger, strangers],
    ] as const)
      await write(trader, CANCEL, { game: "csgo", buy_orders: [order.json().data.id] });
  });

  test("error: a body over 1 MiB is Payload Too Large in the website's envelope", async () => {
    const answer = await write(bidder, CREATE, { game: "csgo", padding: "x".repeat(1024 * 1024) });
    assert.equal(answer.status, 413);
    assert.deepEqual(Object.keys(answer.body).sort(), ["code", "error", "extra"]);
    assert.equal(answer.body.code, "Payload Too Large");
  });

  test("error: a write without a user to keep the key for (sign-in) refuses an Idempotency-Key, never ignores it", async () => {
    const answer = await t.app.inject({
      method: "POST",
      url: "/account/api/login",
      headers: { "idempotency-key": "sign-in-1" },
      payload: { nickname: "nobody-here", password: "whatever" },
    });
    assert.equal(answer.statusCode, 400, answer.body);
    assert.equal(answer.json().code, "Invalid Argument");
    assert.match(answer.json().error, /^Idempotency-Key: /);
  });

  test("security: another user's buy order is not cancelled, and not listed", async () => {
    const theirs = (
      await write(stranger, CREATE, { game: "csgo", goods_id: redlineId, price: "2.00", num: 1 })
    ).body.data as OwnOrder;
    const answer = await write(bidder, CANCEL, { game: "csgo", buy_orders: [theirs.id] });
    assert.equal(answer.status, 200);
    assert.notEqual((answer.body.data as Record<string, string>)[theirs.id], "OK");
    assert.deepEqual(
      (await waiting(stranger)).items.map((item) => item.id),
      [theirs.id],
      "still waiting",
    );
    assert.equal(
      (await waiting(bidder)).items.some((item) => item.id === theirs.id),
      false,
    );
  });

  test("security: without a session every route is Login Required; a write without the CSRF token is refused", async () => {
    for (const [method, url] of [
      ["POST", CREATE],
      ["GET", `${WAIT_SUPPLY}?game=csgo`],
      ["POST", CANCEL],
    ] as const) {
      const response = await t.app.inject({
        method,
        url,
        ...(method === "POST"
          ? { payload: { game: "csgo", goods_id: redlineId, price: 2, num: 1, buy_orders: ["1"] } }
          : {}),
      });
      assert.equal(response.statusCode, 401, `${method} ${url}`);
      assert.equal(response.json().code, "Login Required");
    }
    const before = (await ordersInDatabase(bidder.userId)).length;
    for (const url of [CREATE, CANCEL]) {
      const forged = await t.app.inject({
        method: "POST",
        url,
        headers: { cookie: bidder.session.cookie },
        payload:
          url === CREATE
            ? { game: "csgo", goods_id: redlineId, price: "2.00", num: 1 }
            : { game: "csgo", buy_orders: ["1"] },
      });
      assert.equal(forged.statusCode, 403, url);
      assert.equal(forged.json().code, "Access Denied");
      assert.match(forged.json().error, /x-csrftoken/);
    }
    assert.equal((await ordersInDatabase(bidder.userId)).length, before, "nothing was written");
    const withToken = await t.as(bidder.token, "GET", `${WAIT_SUPPLY}?game=csgo`);
    assert.equal(withToken.statusCode, 401, "a website route takes the session, not an API token");
  });
});
