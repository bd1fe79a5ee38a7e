import assert from "node:assert/strict";
import { sql } from "kysely";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import {
  NO_SUCH_GOODS,
  NOT_STANDARD,
  resolvePurchaseItems,
} from "../../src/domain/trades/resolve-purchase-items.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
/** One past the largest goods id the database can hold (its `integer`): no goods has it. */
const BEYOND_INTEGER = 2 ** 31;

/**
 * A purchase answers every effect it made (docs/design/purchases-and-trades.md#purchases-and-trades): the whole request is
 * resolved before the first unit is bought, and a unit that fails unexpectedly after others were
 * bought still answers what was bought, so the client always learns its `bill_order_ids`.
 */
describe("a purchase never hides what it bought", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let goodsId: number;

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createReadyTrader(t, "seller");
    buyer = await createReadyTrader(t, "buyer");
    goodsId = await goodsIdOf(t, STICKER);
    await t.fund(buyer.userId, "balance", 1000);
  });
  after(() => t.close());

  const list = async (count: number, price: number) => {
    const assets = await grant(t, seller.platformid, { market_hash_name: STICKER, count });
    const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: assets.map((assetid) => ({ assetid, price })),
    });
    assert.equal(listed.statusCode, 200, listed.body);
  };
  const purchase = (key: string, items: unknown[]) =>
    t.app.inject({
      method: "POST",
      url: "/api/market/developer/purchase/orders",
      headers: { authorization: `Bearer ${buyer.token}`, "idempotency-key": key },
      payload: { game: "cs2", items },
    });
  const tradesOfBuyer = async () =>
    (
      await t.database.db
        .selectFrom("trades")
        .select("trade_id")
        .where("buyer_id", "=", Number(buyer.userId))
        .orderBy("trade_id")
        .execute()
    ).map((row) => String(row.trade_id));
  const balanceOf = async () =>
    (await t.admin("GET", `/sandbox/users/${buyer.userId}/balances`)).json<{ balance: string }>().balance;

  for (const [label, key, second, field] of [
    ["goods id 2^31", "beyond-integer", { goods_id: BEYOND_INTEGER }, "items.1.goods_id"],
    [
      "market_hash_name with a NUL byte",
      "nul-name",
      { market_hash_name: `${STICKER}\u0000` },
      "items.1.market_hash_name",
    ],
  ] as const) {
    test(`an entry the contract refuses (${label}) refuses the whole purchase with 400 naming it, before any unit is bought`, async () => {
      await list(1, 10);
      const before = await tradesOfBuyer();
      const balanceBefore = await balanceOf();
      const items = [
        { goods_id: goodsId, max_price: 10, quantity: 1 },
        { ...second, max_price: 10, quantity: 1 },
      ];
      const answer = await purchase(key, items);
      assert.equal(answer.statusCode, 400, answer.body);
      assert.equal(answer.json<{ code: string }>().code, "Invalid Argument");
      assert.match(answer.json<{ msg: string }>().msg, new RegExp(`^${field.replaceAll(".", "\\.")}:`));
      assert.deepEqual(await tradesOfBuyer(), before, "nothing was bought");
      assert.equal(await balanceOf(), balanceBefore, "no money moved");
      await t.assertLedger();
    });
  }

  test("below the contract, the verb resolves an id beyond the database's integer and a name with a NUL byte as no goods, without a query failing", async () => {
    const ctx = { ...t.ctx, actor: { kind: "user" as const, userId: Number(buyer.userId) } };
    const resolved = await resolvePurchaseItems(ctx, [
      { goodsId: BEYOND_INTEGER, maxPrice: 10, quantity: 1 },
      { marketHashName: `${STICKER}\u0000`, maxPrice: 10, quantity: 1 },
      { goodsId, maxPrice: 10, quantity: 1 },
    ]);
    assert.ok(resolved.ok);
    assert.deepEqual(
      resolved.value.map((entry) => [entry.key, entry.goods]),
      [
        [String(BEYOND_INTEGER), { refusal: NO_SUCH_GOODS }],
        [`${STICKER}\u0000`, { refusal: NO_SUCH_GOODS }],
        [String(goodsId), { goodsId }],
      ],
    );
  });

  test("a unit failing inside the database after another was bought answers 200 with the unit bought and why the rest stopped", async () => {
    await list(3, 2);
    const before = await tradesOfBuyer();
    const [, second] = await t.database.db
      .selectFrom("listings")
      .select("listing_id")
      .where("goods_id", "=", goodsId)
      .where("state", "=", "ON_SALE")
      .orderBy("price")
      .orderBy("listing_id")
      .execute();
    await failTradesOfListing(t, second!.listing_id);
    const items = [
      { goods_id: goodsId, max_price: 2, quantity: 3 },
      { market_hash_name: "AK-47 | Redline (Field-Tested)", max_price: 2, quantity: 1 },
    ];
    try {
      const answer = await purchase("fails-midway", items);
      assert.equal(answer.statusCode, 200, answer.body);
      const bought = (await tradesOfBuyer()).filter((id) => !before.includes(id));
      assert.equal(bought.length, 1);
      const result = answer.json<{ result: Record<string, Record<string, unknown>> }>().result;
      assert.deepEqual(result[String(goodsId)], {
        success_num: 1,
        total_cost: 2,
        bill_order_ids: bought,
        msg: "the next unit failed inside the service; the units above were bought",
      });
      const redlineId = await goodsIdOf(t, "AK-47 | Redline (Field-Tested)");
      assert.deepEqual(result[String(redlineId)], {
        success_num: 0,
        total_cost: 0,
        bill_order_ids: [],
        msg: "not tried: an earlier unit failed inside the service",
      });
      const replay = await purchase("fails-midway", items);
      assert.equal(replay.headers["idempotent-replayed"], "true");
      assert.equal(replay.body, answer.body);
    } finally {
      await dropFailingTrigger(t);
    }
    assert.equal((await tradesOfBuyer()).length, before.length + 1, "one unit bought, once");
    await t.assertLedger();
  });

  test("the unit's statement answers goods ids the catalog lacks or cannot sell in batch, and a platformid not bound, by name", async () => {
    await list(1, 3);
    const before = await tradesOfBuyer();
    const weapon = await t.database.db
      .selectFrom("goods")
      .select("goods_id")
      .where("is_standard", "=", false)
      .orderBy("goods_id")
      .executeTakeFirstOrThrow();
    const missing =
      ((
        await t.database.db
          .selectFrom("goods")
          .select((eb) => eb.fn.max("goods_id").as("top"))
          .executeTakeFirstOrThrow()
      ).top as number) + 1;
    const answer = await purchase("unit-checks", [
      { goods_id: missing, max_price: 10, quantity: 1 },
      { goods_id: weapon.goods_id, max_price: 10, quantity: 1 },
      { goods_id: goodsId, max_price: 10, quantity: 1 },
    ]);
    assert.equal(answer.statusCode, 200, answer.body);
    const result = answer.json<{ result: Record<string, { success_num: number; msg?: string }> }>().result;
    assert.equal(result[String(missing)]?.msg, NO_SUCH_GOODS);
    assert.equal(result[String(weapon.goods_id)]?.msg, NOT_STANDARD);
    assert.equal(result[String(goodsId)]?.success_num, 1);
    assert.equal((await tradesOfBuyer()).length, before.length + 1);

    await list(1, 3);
    const unbound = await t.app.inject({
      method: "POST",
      url: "/api/market/developer/purchase/orders",
      headers: { authorization: `Bearer ${buyer.token}` },
      payload: {
        game: "cs2",
        platformid: "76561190000000001",
        items: [{ goods_id: goodsId, max_price: 10, quantity: 1 }],
      },
    });
    assert.equal(unbound.statusCode, 404, unbound.body);
    assert.match(
      unbound.json<{ msg: string }>().msg,
      /^platformid: 76561190000000001 is not a platform account bound to you$/,
    );
    assert.equal((await tradesOfBuyer()).length, before.length + 1, "nothing more was bought");
    await t.assertLedger();
  });

  test("a unit failing before any was bought answers 500 and frees the key: the retry buys", async () => {
    await list(1, 3);
    const before = await tradesOfBuyer();
    const { listing_id: cheapest } = await t.database.db
      .selectFrom("listings")
      .select("listing_id")
      .where("goods_id", "=", goodsId)
      .where("state", "=", "ON_SALE")
      .orderBy("price")
      .orderBy("listing_id")
      .executeTakeFirstOrThrow();
    await failTradesOfListing(t, cheapest);
    const items = [{ goods_id: goodsId, max_price: 3, quantity: 1 }];
    try {
      const failed = await purchase("fails-first", items);
      assert.equal(failed.statusCode, 500, failed.body);
      assert.deepEqual(await tradesOfBuyer(), before);
    } finally {
      await dropFailingTrigger(t);
    }
    const retried = await purchase("fails-first", items);
    assert.equal(retried.statusCode, 200, retried.body);
    assert.equal(retried.headers["idempotent-replayed"], undefined);
    assert.equal(retried.json().result[String(goodsId)].success_num, 1);
    await t.assertLedger();
  });
});

/** Makes the database refuse the trade of one listing, as a fault inside it would. */
async function failTradesOfListing(t: TestApp, listingId: number): Promise<void> {
  await sql`
    CREATE FUNCTION fail_listing_trade() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'the database failed'; END $$
  `.execute(t.database.db);
  await sql`
    CREATE TRIGGER fail_listing_trade BEFORE INSERT ON trades FOR EACH ROW
    WHEN (NEW.listing_id = ${sql.lit(listingId)}) EXECUTE FUNCTION fail_listing_trade()
  `.execute(t.database.db);
}

async function dropFailingTrigger(t: TestApp): Promise<void> {
  await sql`DROP TRIGGER fail_listing_trade ON trades`.execute(t.database.db);
  await sql`DROP FUNCTION fail_listing_trade()`.execute(t.database.db);
}
