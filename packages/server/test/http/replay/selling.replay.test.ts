import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { grant } from "../../support/platform-world.ts";
import { assertShape, type Shape } from "../../support/replay-shape.ts";
import { createTestApp, type TestApp } from "../../support/test-app.ts";
import { createWebTrader, type WebTrader } from "../../support/web-trader.ts";

/**
 * The website's selling routes as real tools call them: each test sends the request a tool sends
 * (method, path, query or body as written in its code) and checks every field the tool reads.
 * Tools: jiajiaxd/Steamauto (BuffApi/__init__.py, plugins/BuffAutoOnSale.py,
 * plugins/BuffProfitReport.py, plugins/BuffAutoComment.py, plugins/ECOsteam.py) and
 * Mypepsi/Seller_bots (bots_libraries/buff_seller/items.py, class BuffItems) and
 * hldh214/buff2steam (buff2steam/provider/buff.py, Buff.withdraw).
 */

const REDLINE = "AK-47 | Redline (Field-Tested)";
/** Standard goods: bought directly, so a sale reaches the history through the official purchase. */
const STICKER = "Sticker | Crown (Foil)";

/** An answer of the website: the tools check `code` before reading `data`. */
const OK_ENVELOPE: Shape = { code: "string", data: "object" };

describe("replay: the website's selling routes as the real tools call them", () => {
  let t: TestApp;
  let seller: WebTrader;
  let buyer: WebTrader;

  const get = async (url: string) => {
    const response = await t.web(seller.session, "GET", url);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json<{ code: string; data: Record<string, unknown> }>();
    assertShape(body, OK_ENVELOPE);
    assert.equal(body.code, "OK");
    return body.data;
  };
  const post = async (url: string, payload: unknown) => {
    const response = await t.web(seller.session, "POST", url, payload);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json<{ code: string; data: Record<string, string> }>();
    assertShape(body, OK_ENVELOPE);
    assert.equal(body.code, "OK");
    return body.data;
  };
  const nonEmpty = <Item>(items: unknown): Item[] => {
    assert.ok(Array.isArray(items) && items.length > 0, "the answer lists something to read");
    return items as Item[];
  };
  /**
   * Reads the platform again with the stored cookies, as the website's refresh button does: the
   * marketplace's copy of an inventory is otherwise served for five minutes.
   */
  const refreshInventory = () => get("/api/market/steam_inventory?game=csgo&force=1");
  /** Lists fresh items through the website and answers their ids, as the tools find them on sale. */
  const listFresh = async (count: number, price = 9, goods = REDLINE) => {
    const assetids = await grant(t, seller.platformid, { market_hash_name: goods, count });
    const data = await post("/api/market/sell_order/create/manual_plus", {
      game: "csgo",
      assets: assetids.map((assetid) => ({ assetid, price })),
    });
    assert.ok(assetids.every((assetid) => data[assetid] === "OK"));
    const onSale = await get("/api/market/sell_order/on_sale?game=csgo&page_size=1000");
    return nonEmpty<{ id: string; asset_info: { assetid: string } }>(onSale.items)
      .filter((item) => assetids.includes(item.asset_info.assetid))
      .map((item) => item.id);
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createWebTrader(t, "replayseller");
    buyer = await createWebTrader(t, "replaybuyer");
    await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 2 });
  });
  after(() => t.close());

  test("Steamauto BuffAutoOnSale.get_buff_inventory, then put_item_on_sale", async () => {
    const data = await get(
      "/api/market/steam_inventory?page_num=1&page_size=60&sort_by=price.desc&state=cansell&force=0&force_wear=0&game=csgo&appid=730",
    );
    // It lists each item's asset_info, with market_hash_name added, as the asset to sell.
    const items = nonEmpty<{ market_hash_name: string; asset_info: Record<string, unknown> }>(data.items);
    assertShape(data, {
      items: [
        {
          market_hash_name: "string",
          asset_info: {
            assetid: "string",
            classid: "string",
            instanceid: "string",
            contextid: "integer",
            goods_id: "integer",
            paintwear: "string",
          },
        },
      ],
    });
    const item = items[0]!;
    const listed = await post("/api/market/sell_order/create/manual_plus", {
      appid: "730",
      game: "csgo",
      assets: [
        {
          appid: "730",
          assetid: item.asset_info.assetid,
          classid: item.asset_info.classid,
          instanceid: item.asset_info.instanceid,
          contextid: item.asset_info.contextid,
          market_hash_name: item.market_hash_name,
          // `lowest - 0.01` in floating point.
          price: 12.329999999999998,
          income: 12.329999999999998,
          desc: "",
        },
      ],
    });
    // It sorts the keys of `data` into listed ("OK") and refused.
    assert.deepEqual(listed, { [String(item.asset_info.assetid)]: "OK" });
    await t.assertLedger();
  });

  test("Steamauto BuffProfitReport.get_all_buff_inventory and BuffAutoComment.get_all_buff_inventory", async () => {
    const data = await get(
      "/api/market/steam_inventory?page_num=1&page_size=300&sort_by=time.desc&state=all&force=0&force_wear=0&game=csgo",
    );
    nonEmpty(data.items);
    assertShape(data, {
      items: [
        {
          name: "string",
          sell_min_price: "string",
          asset_info: { appid: "integer", assetid: "string", classid: "string", contextid: "integer" },
        },
      ],
    });
  });

  test("Seller_bots BuffItems.add_to_sale_inventory and change_price", async () => {
    await listFresh(1);
    const data = await get(
      `/api/market/steam_inventory?game=csgo&force=0&page_num=1&page_size=500&search=&state=tradable&sort_by=price.desc&_=${Date.now()}`,
    );
    nonEmpty(data.items);
    assertShape(data, {
      total_page: "integer",
      items: [
        {
          state_toast: ["null", "string"],
          progress_text: "string",
          state_text: "string",
          market_hash_name: "string",
          classid: "string",
          instanceid: "string",
          goods_id: "integer",
          sell_order_id: ["null", "string"],
          sell_order_price: "string",
          asset_info: { assetid: "string", paintwear: "string" },
        },
      ],
    });
    // It picks idle items by these texts, and listed ones by the "on sale" texts.
    const items = data.items as Array<Record<string, unknown>>;
    assert.ok(items.some((item) => item.state_toast === null && item.progress_text === "Idle"));
    const listed = items.find((item) => item.progress_text === "On sale")!;
    assert.equal(listed.state_toast, "This item is on sale");
    assert.equal(listed.state_text, "Tradable");
  });

  test("Seller_bots BuffItems.add_to_sale and process_items (change, cancel)", async () => {
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 1 });
    await refreshInventory();
    const inventory = await get("/api/market/steam_inventory?game=csgo&force=0&page_num=1&page_size=500");
    const item = (inventory.items as Array<Record<string, string | number>>).find(
      (entry) => entry.assetid === assetid,
    )!;
    const price = 21;
    const listed = await post("/api/market/sell_order/create/manual_plus", {
      assets: [
        {
          game: "csgo",
          market_hash_name: item.market_hash_name,
          contextid: 2,
          assetid,
          classid: item.classid,
          instanceid: item.instanceid,
          goods_id: item.goods_id,
          price,
          // A Python tuple: `math.floor(price * 0.975 * 100) / 100,`.
          income: [20.47],
          has_market_min_price: false,
          reward_points: 21,
          cdkey_id: "",
        },
      ],
      game: "csgo",
    });
    assert.equal(listed[assetid!], "OK");
    const onSale = (
      await get("/api/market/steam_inventory?game=csgo&force=0&page_num=1&page_size=500&state=tradable")
    ).items as Array<Record<string, string>>;
    const own = onSale.find((entry) => entry.assetid === assetid)!;
    const changed = await post("/api/market/sell_order/change", {
      game: "csgo",
      sell_orders: [
        {
          cdkey_id: "",
          desc: "",
          goods_id: item.goods_id,
          has_market_min_price: false,
          income: 19.5,
          origin_price: own.sell_order_price,
          paintwear: (own as unknown as { asset_info: { paintwear: string } }).asset_info.paintwear,
          price: 20,
          reward_points: 0,
          sell_order_id: own.sell_order_id,
        },
      ],
    });
    assert.equal(changed[own.sell_order_id!], "OK");
    const cancelled = await post("/api/market/sell_order/cancel", {
      game: "csgo",
      sell_orders: [own.sell_order_id],
    });
    assert.equal(cancelled[own.sell_order_id!], "OK");
    await t.assertLedger();
  });

  test("Steamauto BuffAccount.get_on_sale (as ECOsteam reads it)", async () => {
    await listFresh(1);
    const data = await get(
      "/api/market/sell_order/on_sale?page_num=1&page_size=1000&mode=2,5&fold=0&game=csgo&appid=730",
    );
    const items = nonEmpty<{ goods_id: number; price: string }>(data.items);
    assertShape(data, {
      items: [{ id: "string", price: "string", goods_id: "integer", asset_info: { assetid: "string" } }],
      goods_infos: "object",
    });
    assert.ok(Number.isFinite(Number(items[0]!.price)), "float(item['price'])");
    for (const item of items)
      assertShape((data.goods_infos as Record<string, unknown>)[String(item.goods_id)], {
        market_hash_name: "string",
      });
  });

  test("Steamauto BuffAccount.on_sale, change_price and cancel_sale (as ECOsteam sends them)", async () => {
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 1 });
    await refreshInventory();
    const inventory = await get("/api/market/steam_inventory?game=csgo&page_num=1&page_size=500");
    const item = (inventory.items as Array<{ assetid: string; classid: string; instanceid: string }>).find(
      (entry) => entry.assetid === assetid,
    )!;
    // The assets come from the platform's own inventory: appid a number, contextid a text.
    const listed = await post("/api/market/sell_order/create/manual_plus", {
      appid: "730",
      game: "csgo",
      assets: [
        {
          appid: 730,
          assetid,
          classid: item.classid,
          instanceid: item.instanceid,
          contextid: "2",
          market_hash_name: REDLINE,
          price: 15.5,
          income: 15.5,
          desc: "",
        },
      ],
    });
    assert.deepEqual(listed, { [assetid!]: "OK" });
    const onSale = await get(
      "/api/market/sell_order/on_sale?page_num=1&page_size=1000&mode=2,5&fold=0&game=csgo&appid=730",
    );
    const own = (onSale.items as Array<{ id: string; asset_info: { assetid: string } }>).find(
      (entry) => entry.asset_info.assetid === assetid,
    )!;
    const changed = await post("/api/market/sell_order/change", {
      appid: "730",
      sell_orders: [{ sell_order_id: own.id, price: 14.99, income: 14.99, desc: "" }],
    });
    assert.deepEqual(changed, { [own.id]: "OK" });
    const cancelled = await post("/api/market/sell_order/cancel", {
      game: "csgo",
      sell_orders: [own.id],
      exclude_sell_orders: [],
    });
    assert.deepEqual(cancelled, { [own.id]: "OK" });
    await t.assertLedger();
  });

  test("Steamauto BuffAccount.on_sale with the BuffOnSaleAsset model (numbers for classid and instanceid)", async () => {
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 1 });
    const listed = await post("/api/market/sell_order/create/manual_plus", {
      appid: "730",
      game: "csgo",
      assets: [
        {
          assetid,
          appid: 730,
          classid: 310776668,
          instanceid: 302028390,
          contextid: 2,
          market_hash_name: REDLINE,
          orderNo: "A-1",
          price: 16,
          income: 15.6,
          desc: "",
        },
      ],
    });
    assert.deepEqual(listed, { [assetid!]: "OK" });
    await t.assertLedger();
  });

  test("Steamauto BuffProfitReport.get_sell_history", async () => {
    const [id] = await listFresh(1, 30, STICKER);
    await t.fund(buyer.userId, "balance", 30);
    const bought = await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [{ market_hash_name: STICKER, max_price: 30, quantity: 1 }],
    });
    assert.equal(bought.statusCode, 200, bought.body);
    await t.assertLedger();
    const data = await get("/api/market/sell_order/history?page_num=1&page_size=100&game=csgo");
    const items = nonEmpty<{ goods_id: number; sell_order_id: string }>(data.items);
    assert.ok(items.some((item) => item.sell_order_id === id));
    assertShape(data, {
      items: [
        {
          id: "string",
          state: "string",
          goods_id: "integer",
          price: "string",
          sell_min_price: "string",
          transact_time: ["integer", "null"],
          asset_info: { assetid: "string", classid: "string", contextid: "integer" },
        },
      ],
    });
    for (const item of items)
      assertShape((data.goods_infos as Record<string, unknown>)[String(item.goods_id)], { name: "string" });
  });

  test("buff2steam Buff.withdraw reads the backpack", async () => {
    // It asks for its own game (dota2 by default); CS2 is the only game here.
    const data = await get("/api/market/backpack?game=csgo");
    // An empty backpack: it stops at backpack_count 0 before reading items[*].id.
    assert.equal(data.backpack_count, 0);
    assertShape(data, {
      backpack_count: "integer",
      items: "array",
      goods_infos: "object",
      total_page: "integer",
    });
  });
});
