import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { recordSteamMarketPrices } from "../../src/platform/sandbox/steam-market.ts";
import {
  createTraderWithAccount,
  goodsIdOf,
  grant,
  grantOne,
  uploadCookies,
  type PlatformFixture,
} from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const PATH = "/api/market/developer/platform/inventory";

interface Item {
  assetid: string;
  goods_id: number;
  market_hash_name: string;
  tradable: boolean;
  tradable_time: number | null;
  state: number;
  state_text: string;
  asset_info: { paintwear: string; info: { fraudwarnings: string | null } };
}

describe("GET /api/market/developer/platform/inventory", () => {
  let t: TestApp;
  let trader: PlatformFixture;
  const ids: Record<string, string> = {};

  const inventory = (query: string, token = trader.token) =>
    t.as(token, "GET", `${PATH}?game=cs2&platformid=${trader.platformid}${query}`);
  const items = async (query: string) => {
    const response = await inventory(query);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ items: Item[]; total_count: number }>();
  };

  before(async () => {
    t = await createTestApp({ catalog: true });
    trader = await createTraderWithAccount(t, "inventory-owner");
    ids.worn = await grantOne(t, trader.platformid, {
      market_hash_name: "AK-47 | Redline (Field-Tested)",
      paintwear: "0.35",
      nametag: null,
    });
    ids.fresh = await grantOne(t, trader.platformid, {
      market_hash_name: "AK-47 | Redline (Field-Tested)",
      paintwear: "0.16",
      nametag: null,
    });
    ids.named = await grantOne(t, trader.platformid, {
      market_hash_name: "AK-47 | Redline (Field-Tested)",
      paintwear: "0.25",
      nametag: "Bob",
    });
    ids.knife = await grantOne(t, trader.platformid, {
      market_hash_name: "★ Karambit | Doppler (Factory New)",
      paintwear: "0.01",
    });
    ids.sticker = await grantOne(t, trader.platformid, { market_hash_name: "Sticker | Crown (Foil)" });
    ids.locked = await grantOne(t, trader.platformid, {
      market_hash_name: "AK-47 | Redline (Field-Tested)",
      paintwear: "0.2",
      nametag: null,
      cooldown_days: 7,
    });
    assert.equal((await uploadCookies(t, trader)).json().cookie_state, "valid");
    assert.equal((await inventory("&force=1")).statusCode, 200);
  });
  after(() => t.close());

  test("happy: platform_price and steam_price are the goods' price on the sandbox's Steam market", async () => {
    const goodsId = await goodsIdOf(t, "Sticker | Crown (Foil)");
    await recordSteamMarketPrices(t.ctx, [{ goodsId, price: 730, volume: 40 }]);
    try {
      const sticker = (await inventory("")).json().items.find((item: Item) => item.assetid === ids.sticker);
      assert.equal(sticker.platform_price, "7.30");
      assert.equal(sticker.steam_price, "7.30");
      assert.equal(sticker.sell_min_price, "0.00", "our own market has no listing of it");
    } finally {
      await t.ctx.db.deleteFrom("sandbox_steam_market_history").execute();
      await t.ctx.db.deleteFrom("sandbox_steam_market_prices").execute();
    }
  });

  test("happy: records are the reference's inventory item record, without total_page", async () => {
    const response = await inventory("");
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), ["items", "page_num", "page_size", "total_count"]);
    assert.equal(body.total_count, 6);
    assert.equal(body.page_num, 1);
    assert.equal(body.page_size, 20);
    const named = body.items.find((item: Item) => item.assetid === ids.named);
    assert.deepEqual(Object.keys(named).sort(), [
      "appid",
      "asset_info",
      "assetid",
      "buy_max_price",
      "game",
      "goods_id",
      "market_hash_name",
      "platform_price",
      "sell_min_price",
      "state",
      "state_text",
      "steam_price",
      "tradable",
      "tradable_time",
    ]);
    assert.equal(named.appid, 730);
    assert.equal(named.game, "csgo");
    assert.equal(named.market_hash_name, "AK-47 | Redline (Field-Tested)");
    assert.equal(named.platform_price, "0.00", "no price on the sandbox's Steam market yet");
    assert.equal(named.steam_price, named.platform_price, "the real service's name for the same price");
    assert.equal(named.sell_min_price, "0.00");
    assert.equal(named.buy_max_price, "0.00");
    assert.equal(named.tradable, true);
    assert.equal(named.tradable_time, null);
    assert.equal(named.state, 0);
    assert.equal(named.asset_info.assetid, ids.named);
    assert.equal(named.asset_info.contextid, 2);
    assert.equal(named.asset_info.paintwear, "0.25");
    assert.equal(named.asset_info.info.fraudwarnings, "Name Tag: ''Bob''");
    assert.match(named.asset_info.info.icon_url, /^https:\/\//);
    assert.match(named.asset_info.info.inspect_info.inspect_url, /^steam:\/\/rungame\/730\//);
    const sticker = body.items.find((item: Item) => item.assetid === ids.sticker);
    assert.equal(sticker.asset_info.paintwear, "");
    assert.deepEqual(sticker.asset_info.info.inspect_info, {});
  });

  test("happy: an item in trade cooldown is not tradable, with its tradable time and state 1", async () => {
    const locked = (await items("")).items.find((item) => item.assetid === ids.locked)!;
    assert.equal(locked.tradable, false);
    assert.equal(locked.state, 1);
    assert.equal(typeof locked.tradable_time, "number");
    assert.ok(locked.tradable_time! > Date.now() / 1000 + 6 * 86_400);
    assert.notEqual(
      locked.state_text,
      (await items("")).items.find((item) => item.assetid === ids.named)!.state_text,
    );
  });

  test("filters: search by English or Chinese name, case-insensitive", async () => {
    assert.deepEqual(
      (await items("&search=REDLINE")).items.map((item) => item.assetid).sort(),
      [ids.worn, ids.fresh, ids.named, ids.locked].sort(),
    );
    assert.deepEqual(
      (await items(`&search=${encodeURIComponent("多普勒")}`)).items.map((item) => item.assetid),
      [ids.knife],
    );
    assert.equal((await items("&search=nothing-like-this")).total_count, 0);
  });

  test("filters: paintwear range, name tag, state", async () => {
    const worn = await items("&min_paintwear=0.2&max_paintwear=0.3");
    assert.deepEqual(worn.items.map((item) => item.assetid).sort(), [ids.named, ids.locked].sort());
    assert.deepEqual(
      (await items("&nametag=1")).items.map((item) => item.assetid),
      [ids.named],
    );
    assert.equal((await items("&nametag=0")).total_count, 6);
    assert.equal((await items("&state=tradable")).total_count, 5);
    assert.equal((await items("&state=cansell")).total_count, 6);
    assert.equal((await items("&state=onsale")).total_count, 0);
    assert.equal((await items("&state=all")).total_count, 6);
  });

  test("filters: prices come from the live market, which has no listings yet", async () => {
    assert.equal((await items("&min_price=0.01")).total_count, 0);
    assert.equal((await items("&max_price=0")).total_count, 6);
    assert.equal((await items("&min_price=0&max_price=100.5")).total_count, 6);
  });

  test("sorts: all eight orders", async () => {
    const order = async (sort: string) => (await items(`&sort_by=${sort}`)).items.map((item) => item.assetid);
    const byTime = [ids.worn, ids.fresh, ids.named, ids.knife, ids.sticker, ids.locked];
    assert.deepEqual(await order("time.asc"), byTime);
    assert.deepEqual(await order("time.desc"), [...byTime].reverse());
    assert.deepEqual(
      (await items("")).items.map((item) => item.assetid),
      [...byTime].reverse(),
      "default: newest first",
    );
    const byWear = [ids.knife, ids.fresh, ids.locked, ids.named, ids.worn];
    for (const field of ["paintwear", "float"]) {
      assert.deepEqual(await order(`${field}.asc`), [...byWear, ids.sticker], `${field}.asc; no wear last`);
      assert.deepEqual(
        await order(`${field}.desc`),
        [...[...byWear].reverse(), ids.sticker],
        `${field}.desc`,
      );
    }
    assert.deepEqual(
      await order("price.asc"),
      [...byTime].sort((a, b) => Number(a) - Number(b)),
      "equal prices keep assetid order",
    );
    assert.deepEqual(
      await order("price.desc"),
      [...byTime].sort((a, b) => Number(b) - Number(a)),
    );
  });

  test("pagination: pages of page_size, an empty page past the end", async () => {
    const first = await items("&page_size=4&sort_by=time.asc");
    const second = await items("&page_size=4&page_num=2&sort_by=time.asc");
    const third = await items("&page_size=4&page_num=3&sort_by=time.asc");
    assert.equal(first.items.length, 4);
    assert.equal(second.items.length, 2);
    assert.equal(third.items.length, 0);
    assert.equal(third.total_count, 6);
    assert.equal((await items("&page_size=1")).items.length, 1);
    assert.equal((await items("&page_size=100")).items.length, 6);
  });

  test("error: bad parameters are Invalid Argument naming the field", async () => {
    const cases: Array<[string, RegExp]> = [
      ["&page_size=0", /^page_size:/],
      ["&page_size=101", /^page_size:/],
      ["&page_num=0", /^page_num:/],
      ["&force=2", /^force: must be one of 0, 1$/],
      ["&nametag=yes", /^nametag:/],
      ["&sort_by=name.asc", /^sort_by: must be one of time.asc/],
      ["&state=sold", /^state: must be one of all, tradable, cansell, onsale$/],
      ["&min_paintwear=1.5", /^min_paintwear:/],
      ["&min_paintwear=0.5&max_paintwear=0.1", /^min_paintwear: must not be greater than max_paintwear$/],
      ["&min_price=1.234", /^min_price: must be an amount in yuan with at most 2 decimals$/],
      ["&min_price=-1", /^min_price:/],
      ["&min_price=5&max_price=1", /^min_price: must not be greater than max_price$/],
    ];
    for (const [query, message] of cases) {
      const response = await inventory(query);
      assert.equal(response.statusCode, 400, query);
      assert.equal(response.json().code, "Invalid Argument", query);
      assert.match(response.json().msg, message, query);
    }
    const wrongGame = await t.as(trader.token, "GET", `${PATH}?game=dota2&platformid=${trader.platformid}`);
    assert.equal(wrongGame.json().msg, "game: must be one of cs2, csgo");
    const noPlatform = await t.as(trader.token, "GET", `${PATH}?game=cs2`);
    assert.equal(noPlatform.json().msg, "platformid: required");
    const badPlatform = await t.as(trader.token, "GET", `${PATH}?game=cs2&platformid=12345`);
    assert.match(badPlatform.json().msg, /^platformid: must be a 17-digit platform account id/);
  });

  test("security: another user's platform account answers like an unknown one", async () => {
    const stranger = await t.createUser();
    const theirs = await t.as(stranger.token, "GET", `${PATH}?game=cs2&platformid=${trader.platformid}`);
    const unknown = await t.as(stranger.token, "GET", `${PATH}?game=cs2&platformid=76561199999999999`);
    for (const response of [theirs, unknown]) {
      assert.equal(response.statusCode, 404);
      assert.equal(response.json().code, "Not Found");
      assert.match(response.json().msg, /^platformid: \d+ is not a platform account bound to you$/);
    }
  });

  test("security: a revoked token is Unauthorized", async () => {
    const other = await t.createUser();
    await t.admin("DELETE", `/sandbox/tokens/${other.tokenId}`);
    const response = await inventory("", other.token);
    assert.equal(response.statusCode, 401);
  });
});

describe("inventory freshness and cookies", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ catalog: true });
  });
  after(() => t.close());

  test("a private inventory that was never read asks for setup or cookies; public reads work without cookies", async () => {
    const trader = await createTraderWithAccount(t);
    await grant(t, trader.platformid, { market_hash_name: "Sticker | Crown (Foil)" });
    const path = `${PATH}?game=cs2&platformid=${trader.platformid}`;
    const refused = await t.as(trader.token, "GET", path);
    assert.equal(refused.statusCode, 409);
    assert.match(refused.json().msg, /inventory is private.*platform\/setup.*force=1/);
    await t.admin("PUT", `/sandbox/platform/accounts/${trader.platformid}/settings`, {
      inventory_public: true,
    });
    const read = await t.as(trader.token, "GET", path);
    assert.equal(read.statusCode, 200);
    assert.equal(read.json().total_count, 1);
  });

  test("the copy is served for five minutes; force=1 or an older copy shows new items", async () => {
    const trader = await createTraderWithAccount(t);
    await t.admin("PUT", `/sandbox/platform/accounts/${trader.platformid}/settings`, {
      inventory_public: true,
    });
    const path = `${PATH}?game=cs2&platformid=${trader.platformid}`;
    assert.equal((await t.as(trader.token, "GET", path)).json().total_count, 0);
    await grant(t, trader.platformid, { market_hash_name: "Sticker | Crown (Foil)", count: 2 });
    assert.equal((await t.as(trader.token, "GET", path)).json().total_count, 0, "still the copy");
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 301 });
    assert.equal((await t.as(trader.token, "GET", path)).json().total_count, 2, "copy refreshed");
    await grant(t, trader.platformid, { market_hash_name: "Sticker | Crown (Foil)" });
    await uploadCookies(t, trader);
    assert.equal((await t.as(trader.token, "GET", `${path}&force=1`)).json().total_count, 3, "forced");
  });

  test("force=1 needs stored cookies that are still valid, and says how to fix it", async () => {
    const trader = await createTraderWithAccount(t);
    const path = `${PATH}?game=cs2&platformid=${trader.platformid}&force=1`;
    const none = await t.as(trader.token, "GET", path);
    assert.equal(none.statusCode, 409);
    assert.match(
      none.json().msg,
      /there are none; upload fresh cookies with POST \/api\/market\/developer\/platform\/cookie/,
    );
    await uploadCookies(t, trader);
    assert.equal((await t.as(trader.token, "GET", path)).statusCode, 200);
    await t.admin("POST", `/sandbox/platform/accounts/${trader.platformid}/cookies/expire`);
    const expired = await t.as(trader.token, "GET", path);
    assert.equal(expired.statusCode, 409);
    assert.match(expired.json().msg, /cookies are expired; upload fresh cookies/);
  });

  test("an unbound account's inventory is gone for its former user", async () => {
    const trader = await createTraderWithAccount(t);
    await t.admin("POST", `/sandbox/platform/accounts/${trader.platformid}/unbind`);
    const response = await t.as(trader.token, "GET", `${PATH}?game=cs2&platformid=${trader.platformid}`);
    assert.equal(response.statusCode, 404);
  });
});
