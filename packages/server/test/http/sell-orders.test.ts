import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  createTraderWithAccount,
  grantOne,
  uploadCookies,
  type PlatformFixture,
} from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { usingPostgres } from "../support/test-database.ts";

const ITEMS = "/api/market/developer/sell_order/items";
const ON_SALE = "/api/market/developer/sell_order/on_sale";
const REDLINE = "AK-47 | Redline (Field-Tested)";

describe("sell orders: list, delist, reprice, on sale", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let stranger: PlatformFixture;
  let strangerAsset: string;

  const list = (assets: unknown[], token = seller.token) =>
    t.as(token, "POST", ITEMS, { game: "cs2", assets });
  const onSale = async (query = "", token = seller.token) => {
    const response = await t.as(token, "GET", `${ON_SALE}?game=cs2${query}`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{
      code: number;
      data: {
        items: Array<{ id: string; price: string; asset_info: { assetid: string } }>;
        total_count: number;
        total_page: number;
      };
    }>();
  };
  const item = (paintwear: string, extra: Record<string, unknown> = {}) =>
    grantOne(t, seller.platformid, { market_hash_name: REDLINE, paintwear, nametag: null, ...extra });

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createTraderWithAccount(t, "seller");
    stranger = await createTraderWithAccount(t, "stranger");
    strangerAsset = await grantOne(t, stranger.platformid, { market_hash_name: REDLINE });
  });
  after(() => t.close());

  test("happy: each item answers OK with its sell order id; the fee is 2.5 % rounded up, at least 0.01", async () => {
    const cheap = await item("0.2");
    const dear = await item("0.3");
    const response = await list([
      { assetid: cheap, price: "10.01" },
      { assetid: dear, price: 250, description: "clean", allow_bargain: true },
    ]);
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.equal(body[cheap], "OK");
    assert.equal(body[dear], "OK");
    assert.match(body.sell_orders[cheap].sell_order_id, /^\d+$/);
    const rows = await t.database.db
      .selectFrom("listings")
      .select(["assetid", "price", "fee", "description", "allow_bargain", "allow_epay"])
      .orderBy("price")
      .execute();
    const [first, second] = rows.filter((row) => [cheap, dear].includes(String(row.assetid)));
    assert.deepEqual([first?.price, first?.fee], [1001, 26]);
    assert.deepEqual(
      [second?.price, second?.fee, second?.description, second?.allow_bargain, second?.allow_epay],
      [25000, 625, "clean", true, true],
    );
    // Each listing has its audit row, written by the same statement.
    for (const [assetid, price, fee] of [
      [cheap, 1001, 26],
      [dear, 25000, 625],
    ] as const) {
      const id = body.sell_orders[assetid].sell_order_id;
      const audit = await t.database.db
        .selectFrom("audit_events")
        .select(["actor", "details"])
        .where("action", "=", "listing.create")
        .where("subject", "=", `listing:${id}`)
        .execute();
      assert.equal(audit.length, 1, `one audit row for listing ${id}`);
      assert.deepEqual(audit[0]!.details, { assetid, price_fen: price, fee_fen: fee });
      assert.match(audit[0]!.actor, /^user:/);
    }
  });

  test("happy: the inventory shows listed items on sale at their price; the market price is the lowest tradable listing", async () => {
    const listed = await item("0.22");
    const locked = await item("0.23", { cooldown_days: 3 });
    const response = await list([
      { assetid: listed, price: "5.00" },
      { assetid: locked, price: "1.00" },
    ]);
    assert.equal(response.json()[locked], "OK", "an item in cooldown lists as a pre-sell listing");
    await uploadCookies(t, seller);
    const inventory = (
      await t.as(
        seller.token,
        "GET",
        `/api/market/developer/platform/inventory?game=cs2&platformid=${seller.platformid}&force=1&state=onsale`,
      )
    ).json<{ items: Array<{ assetid: string; state: number; sell_min_price: string }> }>();
    const shown = inventory.items.find((entry) => entry.assetid === listed);
    assert.equal(shown?.state, 2);
    assert.equal(shown?.sell_min_price, "5.00", "the pre-sell listing at 1.00 does not set the lowest price");
    assert.ok(inventory.items.some((entry) => entry.assetid === locked));
  });

  test("error: each refused item says why, and the others are still listed", async () => {
    const fine = await item("0.24");
    const alreadyListed = await item("0.25");
    await list([{ assetid: alreadyListed, price: 3 }]);
    const response = await list([
      { assetid: fine, price: "7.77" },
      { assetid: alreadyListed, price: 3 },
      { assetid: strangerAsset, price: 3 },
      { assetid: "999999999999", price: 3 },
      { assetid: fine, price: 8 },
    ]);
    assert.equal(response.statusCode, 200);
    const body = response.json();
    assert.equal(
      body[fine],
      "listed twice in this request",
      "the second mention wins the message; the first was listed",
    );
    assert.ok(body.sell_orders[fine]);
    assert.equal(body[alreadyListed], "already on sale");
    assert.equal(body[strangerAsset], "not in the inventory of a platform account bound to you");
    assert.equal(body["999999999999"], "not in the inventory of a platform account bound to you");
  });

  test("error: prices must be positive, with at most 2 decimals, within the maximum, above the fee", async () => {
    const assetid = await item("0.26");
    const cases: Array<[unknown, string]> = [
      [0, "price must be greater than 0"],
      ["1.234", "price must be an amount in yuan with at most 2 decimals"],
      ["-1", "price must not be negative"],
      [1_000_001, "price must not exceed 1000000.00"],
      ["0.01", "price too low to leave the seller anything after the fee"],
    ];
    for (const [price, message] of cases) {
      assert.equal((await list([{ assetid, price }])).json()[assetid], message, String(price));
    }
    assert.equal((await list([{ assetid, price: "0.02" }])).json()[assetid], "OK");
  });

  test("error: the batch limits and fields are checked as a whole", async () => {
    const tooMany = Array.from({ length: 201 }, (_, index) => ({ assetid: String(index + 1), price: 1 }));
    const response = await list(tooMany);
    assert.equal(response.statusCode, 400);
    assert.match(response.json().msg, /^assets: must NOT have more than 200 items$/);
    assert.equal((await list([])).statusCode, 400);
    assert.match(
      (await list([{ assetid: "1", price: 1, colour: "red" }])).json().msg,
      /^assets\.0\.colour: unknown field$/,
    );
    const wrongGame = await t.as(seller.token, "POST", ITEMS, {
      game: "dota2",
      assets: [{ assetid: "1", price: 1 }],
    });
    assert.equal(wrongGame.json().msg, "game: must be one of cs2, csgo");
    const delistTooMany = await t.as(seller.token, "DELETE", ITEMS, {
      game: "cs2",
      sell_orders: Array.from({ length: 51 }, (_, i) => String(i + 1)),
    });
    assert.match(delistTooMany.json().msg, /^sell_orders: must NOT have more than 50 items$/);
  });

  test("happy and error: delisting answers per id; only the caller's listings on sale", async () => {
    const assetid = await item("0.27");
    const id = (await list([{ assetid, price: 4 }])).json().sell_orders[assetid].sell_order_id;
    const theirs = (await list([{ assetid: strangerAsset, price: 4 }], stranger.token)).json().sell_orders[
      strangerAsset
    ].sell_order_id;
    const response = await t.as(seller.token, "DELETE", ITEMS, {
      game: "cs2",
      sell_orders: [id, theirs, "424242"],
    });
    assert.deepEqual(response.json(), {
      [id]: "OK",
      [theirs]: "no listing of yours on sale with this id",
      "424242": "no listing of yours on sale with this id",
    });
    const again = await t.as(seller.token, "DELETE", ITEMS, { game: "cs2", sell_orders: [id] });
    assert.equal(again.json()[id], "no listing of yours on sale with this id");
    assert.equal(
      (await list([{ assetid, price: 5 }])).json()[assetid],
      "OK",
      "a delisted item can be listed again",
    );
    assert.equal(
      (await t.as(stranger.token, "GET", `${ON_SALE}?game=cs2`)).json().data.total_count,
      1,
      "the stranger's listing stays",
    );
  });

  test("happy and error: repricing answers per id and changes the price and fee", async () => {
    const assetid = await item("0.28");
    const id = (await list([{ assetid, price: 4 }])).json().sell_orders[assetid].sell_order_id;
    const response = await t.as(seller.token, "PUT", ITEMS, {
      game: "cs2",
      sell_orders: [
        { sell_order_id: id, price: "40.00" },
        { sell_order_id: "424242", price: 1 },
      ],
    });
    assert.deepEqual(response.json(), { [id]: "OK", "424242": "no listing of yours on sale with this id" });
    const row = await t.database.db
      .selectFrom("listings")
      .select(["price", "fee"])
      .where("listing_id", "=", Number(id))
      .executeTakeFirstOrThrow();
    assert.deepEqual([row.price, row.fee], [4000, 100]);
    const bad = await t.as(seller.token, "PUT", ITEMS, {
      game: "cs2",
      sell_orders: [{ sell_order_id: id, price: "0" }],
    });
    assert.equal(bad.json()[id], "price must be greater than 0");
  });

  test("on_sale: the code-0 envelope with each listing's record, value by value, filters, sorts and pages", async () => {
    const fresh = await createTraderWithAccount(t);
    const a = await grantOne(t, fresh.platformid, {
      market_hash_name: REDLINE,
      paintwear: "0.16",
      nametag: null,
    });
    const b = await grantOne(t, fresh.platformid, {
      market_hash_name: REDLINE,
      paintwear: "0.30",
      nametag: null,
    });
    const c = await grantOne(t, fresh.platformid, { market_hash_name: "Sticker | Crown (Foil)" });
    await list(
      [
        { assetid: a, price: 3 },
        { assetid: b, price: 1 },
        { assetid: c, price: 2 },
      ],
      fresh.token,
    );
    const page = await onSale("", fresh.token);
    assert.equal(page.code, 0);
    assert.equal(page.data.total_count, 3);
    const record = page.data.items.find((entry) => entry.asset_info.assetid === a);
    const row = await t.database.db
      .selectFrom("listings")
      .select(["listing_id", "goods_id", "asset"])
      .where("assetid", "=", Number(a))
      .where("state", "=", "ON_SALE")
      .executeTakeFirstOrThrow();
    // Listed with the defaults (docs/design/purchases-and-trades.md#listings); a new seller has no delivery record yet, and
    // an item without stickers asks no sticker premium.
    assert.deepEqual(record, {
      id: String(row.listing_id),
      user_id: fresh.userId,
      game: "csgo",
      goods_id: row.goods_id,
      price: "3.00",
      asset_info: row.asset,
      allow_wallet_zft: true,
      allow_epay: true,
      allow_pending_divide_balance: false,
      can_bargain: false,
      can_bargain_swap: false,
      cannot_bargain_reason: "the seller does not accept offers",
      description: "",
      force_buyer_send_offer: false,
      recent_average_duration: 0,
      recent_deliver_rate: 0,
      sticker_premium: 0,
    });
    const ids = async (query: string) =>
      (await onSale(query, fresh.token)).data.items.map((entry) => entry.asset_info.assetid);
    assert.deepEqual(await ids("&sort_by=price.asc"), [b, c, a]);
    assert.deepEqual(await ids("&sort_by=price.desc"), [a, c, b]);
    assert.deepEqual(await ids("&sort_by=paintwear.asc"), [a, b, c]);
    assert.deepEqual(await ids("&sort_by=float.desc"), [b, a, c]);
    assert.deepEqual(await ids("&sort_by=updated.asc"), [a, b, c]);
    assert.deepEqual(await ids("&sort_by=updated.desc"), [c, b, a]);
    assert.deepEqual(await ids("&min_price=1.5&max_price=3&sort_by=price.asc"), [c, a]);
    assert.deepEqual(await ids("&min_paintwear=0.2"), [b]);
    assert.deepEqual(await ids(`&search=${encodeURIComponent("皇冠")}`), [c]);
    assert.deepEqual(await ids(`&platformid=${fresh.platformid}&search=redline&sort_by=price.asc`), [b, a]);
    const paged = await onSale("&page_size=2&page_num=2&sort_by=price.asc", fresh.token);
    assert.deepEqual([paged.data.items.length, paged.data.total_page], [1, 2]);
    const bad = await t.as(fresh.token, "GET", `${ON_SALE}?game=cs2&sort_by=name`);
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().msg, /^sort_by: must be one of price.asc/);
  });

  test(`concurrency: 20 simultaneous listings of one asset leave exactly one on sale (${usingPostgres ? "PostgreSQL" : "PGlite"})`, async () => {
    const assetid = await item("0.29");
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) => list([{ assetid, price: 10 + index }])),
    );
    const outcomes = responses.map((response) => response.json()[assetid]);
    assert.equal(outcomes.filter((outcome) => outcome === "OK").length, 1);
    assert.equal(outcomes.filter((outcome) => outcome === "already on sale").length, 19);
    const active = await t.database.db
      .selectFrom("listings")
      .select("listing_id")
      .where("assetid", "=", Number(assetid))
      .where("state", "=", "ON_SALE")
      .execute();
    assert.equal(active.length, 1);
  });
});
