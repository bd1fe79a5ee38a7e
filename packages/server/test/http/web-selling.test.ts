import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { goodsIdOf, grant, grantOne } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { createWebTrader, type WebTrader } from "../support/web-trader.ts";

const INVENTORY = "/api/market/steam_inventory";
const BACKPACK = "/api/market/backpack";
const ON_SALE = "/api/market/sell_order/on_sale";
const CREATE = "/api/market/sell_order/create/manual_plus";
const CHANGE = "/api/market/sell_order/change";
const CANCEL = "/api/market/sell_order/cancel";
const HISTORY = "/api/market/sell_order/history";
const REDLINE = "AK-47 | Redline (Field-Tested)";
const STICKER = "Sticker | Crown (Foil)";

interface InventoryItem {
  assetid: string;
  goods_id: number;
  state: number;
  state_text: string;
  progress: number;
  progress_text: string;
  state_toast: string | null;
  sell_order_id: string | null;
  sell_order_price: string;
  asset_info: { assetid: string; classid: string; contextid: number; appid: number };
}

interface OnSaleItem {
  id: string;
  price: string;
  income: string;
  description: string;
  goods_id: number;
  user_steamid: string;
  asset_info: { assetid: string };
}

/** The website's selling routes with a signed-in session, on the official selling verbs. */
describe("website selling: inventory, on sale, manual_plus, change, cancel, history", () => {
  let t: TestApp;
  let seller: WebTrader;
  let buyer: WebTrader;
  let stranger: WebTrader;

  const get = async <Data>(trader: WebTrader, url: string) => {
    const response = await t.web(trader.session, "GET", url);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json<{ code: string; data: Data; msg: null }>();
    assert.equal(body.code, "OK");
    return body.data;
  };
  const write = async (trader: WebTrader, url: string, body: unknown) => {
    const response = await t.web(trader.session, "POST", url, body);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ code: string; data: Record<string, string> }>().data;
  };
  const onSale = (trader: WebTrader, query = "") =>
    get<{
      items: OnSaleItem[];
      total_count: number;
      goods_infos: Record<string, { market_hash_name: string }>;
    }>(trader, `${ON_SALE}?game=csgo&page_num=1&page_size=1000${query}`);
  const inventory = (trader: WebTrader, query = "") =>
    get<{
      items: InventoryItem[];
      total_count: number;
      total_page: number;
      goods_infos: Record<string, unknown>;
    }>(trader, `${INVENTORY}?game=csgo&page_num=1&page_size=300${query}`);
  const listOne = async (trader: WebTrader, price: number | string, goods = REDLINE) => {
    const assetid = await grantOne(t, trader.platformid, { market_hash_name: goods });
    const data = await write(trader, CREATE, { game: "csgo", assets: [{ assetid, price }] });
    assert.equal(data[assetid], "OK");
    const listing = (await onSale(trader)).items.find((item) => item.asset_info.assetid === assetid);
    assert.ok(listing);
    return { assetid, id: listing.id };
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createWebTrader(t, "webseller");
    buyer = await createWebTrader(t, "webbuyer");
    stranger = await createWebTrader(t, "webstranger");
  });
  after(() => t.close());

  test("happy: the inventory shows the bound account's items with their goods; a listed item shows its listing", async () => {
    const [idle, listed] = await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 2 });
    const goodsId = await goodsIdOf(t, REDLINE);
    const data = await write(seller, CREATE, { game: "csgo", assets: [{ assetid: listed, price: "20.00" }] });
    assert.deepEqual(data, { [listed!]: "OK" });
    await t.assertLedger();
    const all = await inventory(seller);
    const byId = new Map(all.items.map((item) => [item.assetid, item]));
    const idleItem = byId.get(idle!)!;
    const listedItem = byId.get(listed!)!;
    assert.deepEqual(
      [idleItem.state, idleItem.state_text, idleItem.progress, idleItem.progress_text, idleItem.state_toast],
      [3, "Tradable", 0, "Idle", null],
    );
    assert.equal(idleItem.sell_order_id, null);
    assert.equal(idleItem.asset_info.appid, 730);
    assert.equal(idleItem.asset_info.contextid, 2);
    assert.deepEqual(
      [listedItem.progress, listedItem.progress_text, listedItem.state_toast, listedItem.sell_order_price],
      [1, "On sale", "This item is on sale", "20.00"],
    );
    assert.match(listedItem.sell_order_id!, /^\d+$/);
    assert.ok(all.goods_infos[String(goodsId)]);
    assert.equal(all.total_page, 1);
    const sellable = await inventory(seller, "&state=cansell");
    assert.ok(sellable.items.some((item) => item.assetid === idle));
    assert.ok(!sellable.items.some((item) => item.assetid === listed));
  });

  test("happy: manual_plus takes the tools' whole body, reads float noise as whole fen, and answers each item on its own", async () => {
    const [first, second] = await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 2 });
    const goodsId = await goodsIdOf(t, REDLINE);
    const data = await write(seller, CREATE, {
      appid: "730",
      game: "csgo",
      assets: [
        {
          appid: "730",
          assetid: first,
          classid: "310776668",
          instanceid: "302028390",
          contextid: 2,
          market_hash_name: REDLINE,
          // A price computed in floating point, one binary step from 12.33.
          price: 12.329999999999998,
          income: 12.02,
          desc: "from a tool",
          has_market_min_price: false,
          game: "csgo",
          goods_id: goodsId,
        },
        { assetid: second, price: 1.005 },
        { assetid: "999999999999", price: 3 },
      ],
    });
    assert.equal(data[first!], "OK");
    assert.match(data[second!]!, /price/);
    assert.match(data["999999999999"]!, /not in the inventory/);
    await t.assertLedger();
    const listing = (await onSale(seller)).items.find((item) => item.asset_info.assetid === first)!;
    assert.deepEqual([listing.price, listing.income, listing.description], ["12.33", "12.02", "from a tool"]);
  });

  test("happy: on_sale lists the user's listings, every mode and fold alike, up to 1000 a page", async () => {
    const { id, assetid } = await listOne(seller, 7);
    const page = await get<{ items: OnSaleItem[]; total_count: number; total_page: number }>(
      seller,
      `${ON_SALE}?page_num=1&page_size=1000&mode=2,5&fold=0&game=csgo&appid=730`,
    );
    const listing = page.items.find((item) => item.id === id)!;
    assert.equal(listing.asset_info.assetid, assetid);
    assert.equal(listing.user_steamid, seller.platformid);
    assert.equal(page.total_page, 1);
    const cheap = await onSale(seller, "&max_price=7&sort_by=updated.asc");
    assert.ok(cheap.items.every((item) => Number(item.price) <= 7));
  });

  test("happy: change reprices each listing on its own; an unknown id does not undo the others", async () => {
    const { id } = await listOne(seller, 9);
    const data = await write(seller, CHANGE, {
      appid: "730",
      sell_orders: [
        { sell_order_id: id, price: 8.5, income: 8.29, desc: "" },
        { sell_order_id: "999999999", price: 1, income: 0.97, desc: "" },
      ],
    });
    assert.equal(data[id], "OK");
    assert.match(data["999999999"]!, /no listing of yours/);
    await t.assertLedger();
    assert.equal((await onSale(seller)).items.find((item) => item.id === id)!.price, "8.50");
  });

  test("happy: cancel takes listings off sale, leaving those in exclude_sell_orders", async () => {
    const kept = await listOne(seller, 4);
    const cancelled = await listOne(seller, 5);
    const data = await write(seller, CANCEL, {
      game: "csgo",
      sell_orders: [kept.id, cancelled.id],
      exclude_sell_orders: [kept.id],
    });
    assert.deepEqual(data, { [cancelled.id]: "OK" });
    await t.assertLedger();
    const ids = (await onSale(seller)).items.map((item) => item.id);
    assert.ok(ids.includes(kept.id));
    assert.ok(!ids.includes(cancelled.id));
    const again = await write(seller, CANCEL, { game: "csgo", sell_orders: [cancelled.id] });
    assert.match(again[cancelled.id]!, /no listing of yours/);
  });

  test("happy: history shows a sale from payment to completion, with its goods and completion time", async () => {
    const { id } = await listOne(seller, 5, STICKER);
    const stickerId = await goodsIdOf(t, STICKER);
    await t.fund(buyer.userId, "balance", 5);
    const bought = await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [{ goods_id: stickerId, max_price: 5, quantity: 1 }],
    });
    assert.equal(bought.json().result[String(stickerId)].success_num, 1, bought.body);
    await t.assertLedger();
    type History = {
      items: Array<{ id: string; sell_order_id: string; state: string; transact_time: number | null }>;
      goods_infos: Record<string, { name: string }>;
    };
    const pending = (await get<History>(seller, `${HISTORY}?page_num=1&page_size=100&game=csgo`)).items.find(
      (item) => item.sell_order_id === id,
    )!;
    assert.deepEqual([pending.state, pending.transact_time], ["SELLER_TO_SEND_OFFER", null]);
    const sent = await t.as(seller.token, "POST", "/api/market/developer/sell_order/send_offer", {
      order_id: pending.id,
    });
    assert.equal(sent.statusCode, 200, sent.body);
    const trading = (
      await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders/list", {
        game: "cs2",
        state: "PAYING",
      })
    ).json<{ items: Array<{ tradeofferid?: string }> }>().items;
    const offer = trading.find((item) => item.tradeofferid !== undefined)!;
    const accepted = await t.admin("POST", `/sandbox/platform/offers/${offer.tradeofferid}/accept`);
    assert.equal(accepted.statusCode, 200, accepted.body);
    await t.admin("POST", "/sandbox/jobs/run");
    await t.assertLedger();
    const done = await get<History>(seller, `${HISTORY}?page_num=1&page_size=100&game=csgo&state=SUCCESS`);
    const sale = done.items.find((item) => item.sell_order_id === id)!;
    assert.equal(typeof sale.transact_time, "number");
    assert.equal(done.goods_infos[String(stickerId)]!.name.length > 0, true);
  });

  test("happy: the backpack is empty: items stay on the platform", async () => {
    const data = await get<{ items: unknown[]; backpack_count: number; total_page: number }>(
      seller,
      `${BACKPACK}?game=csgo&page_num=1`,
    );
    assert.deepEqual([data.items, data.backpack_count, data.total_page], [[], 0, 0]);
  });

  test("errors: bad input is refused naming the field", async () => {
    const refused = async (method: "GET" | "POST", url: string, field: RegExp, body?: unknown) => {
      const response = await t.web(seller.session, method, url, body);
      assert.equal(response.statusCode, 400, response.body);
      assert.match(response.json<{ error: string }>().error, field);
    };
    await refused("GET", `${ON_SALE}?page_size=1001`, /page_size/);
    await refused("GET", `${ON_SALE}?appid=570`, /appid/);
    await refused("GET", `${INVENTORY}?state=cangku`, /state/);
    await refused("GET", `${HISTORY}?state=DONE`, /state/);
    await refused("POST", CREATE, /assets/, { game: "csgo", assets: [] });
    await refused("POST", CREATE, /flavour/, {
      game: "csgo",
      assets: [{ assetid: "1", price: 1, flavour: 1 }],
    });
    await refused("POST", CHANGE, /sell_order_id/, { sell_orders: [{ sell_order_id: "x", price: 1 }] });
    await refused("POST", CANCEL, /sell_orders/, {
      game: "csgo",
      sell_orders: ["1"].concat(Array(50).fill("2")),
    });
  });

  test("errors: a user without a bound platform account has no inventory to show", async () => {
    const user = await t.createUser({ nickname: "unbound", password: "unbound password" });
    const session = await t.signIn(user.nickname, "unbound password");
    const response = await t.web(session, "GET", `${INVENTORY}?game=csgo`);
    assert.equal(response.statusCode, 409, response.body);
    assert.equal(response.json().code, "Invalid State");
  });

  test("security: every route answers Login Required without a session", async () => {
    for (const [method, url, body] of [
      ["GET", `${INVENTORY}?game=csgo`],
      ["GET", `${BACKPACK}?game=csgo`],
      ["GET", `${ON_SALE}?game=csgo`],
      ["GET", `${HISTORY}?game=csgo`],
      ["POST", CREATE, { game: "csgo", assets: [{ assetid: "1", price: 1 }] }],
      ["POST", CHANGE, { sell_orders: [{ sell_order_id: "1", price: 1 }] }],
      ["POST", CANCEL, { game: "csgo", sell_orders: ["1"] }],
    ] as const) {
      const response = await t.app.inject({ method, url, ...(body ? { payload: body } : {}) });
      assert.equal(response.statusCode, 401, `${method} ${url}`);
      assert.equal(response.json().code, "Login Required");
    }
  });

  test("security: nobody lists, reprices, cancels or sees another user's items and listings", async () => {
    const { id, assetid } = await listOne(seller, 6);
    const idle = await grantOne(t, seller.platformid, { market_hash_name: REDLINE });
    const listed = await write(stranger, CREATE, { game: "csgo", assets: [{ assetid: idle, price: 1 }] });
    assert.match(listed[idle]!, /not in the inventory of a platform account bound to you/);
    const changed = await write(stranger, CHANGE, { sell_orders: [{ sell_order_id: id, price: 1 }] });
    assert.match(changed[id]!, /no listing of yours/);
    const cancelled = await write(stranger, CANCEL, { game: "csgo", sell_orders: [id] });
    assert.match(cancelled[id]!, /no listing of yours/);
    await t.assertLedger();
    const own = (await onSale(seller)).items.find((item) => item.id === id)!;
    assert.equal(own.price, "6.00");
    assert.ok(!(await onSale(stranger)).items.some((item) => item.id === id));
    assert.ok(
      !(await inventory(stranger)).items.some((item) => item.assetid === assetid || item.assetid === idle),
    );
  });
});
