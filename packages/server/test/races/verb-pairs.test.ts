import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { sql } from "kysely";
import { createReadyTrader, uploadCookies, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { usingPostgres } from "../support/test-database.ts";

/**
 * Every pair of item- and money-moving verbs, run at the same moment on the same item and the
 * same money, again and again (docs/design/domain-model.md#the-commitment-rule-for-items). After
 * each round: no item committed twice (on sale and in a live trade, or in two live trades), no
 * listing on sale of an item its seller no longer holds, no answer 5xx, and the ledger invariants.
 *
 * Only a PostgreSQL server runs the two verbs' transactions at once (PGlite runs one after the
 * other), so the suite needs TEST_DATABASE_URL. RACE_ROUNDS sets the rounds of each pair at each
 * stage (default 1; the default run takes about a minute on two cores).
 */
const ROUNDS = Number(process.env.RACE_ROUNDS ?? 1);
/** Each test is skipped, and counted as skipped, without a PostgreSQL server. */
const SKIP = !usingPostgres && "needs PostgreSQL (TEST_DATABASE_URL)";

/** How far an item has gone when the race starts; each stage adds one step to the one before. */
const STAGES = ["held", "listed", "sold", "offered"] as const;
type Stage = (typeof STAGES)[number];

/** The listing price, the standing buy order's price (below it), a crossing bid's price. */
const LIST_PRICE = 5;
const ORDER_PRICE = 4;

interface Round {
  goodsId: number;
  assetid: string;
  /** The standing buy order of the bidder, funded by buy-order funds. */
  orderId: string;
  listingId?: string;
  tradeId?: string;
  tradeofferid?: string;
}

interface Verb {
  name: string;
  /** The first stage at which the verb can be asked for (it names what that stage made). */
  from: Stage;
  /** The stages at which the verb moves something (elsewhere it is refused or finds nothing). */
  acts: readonly Stage[];
  run(round: Round): Promise<LightMyRequestResponse[]>;
}

describe("every pair of item- and money-moving verbs, at the same moment", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let purchaser: PlatformFixture;
  let bidder: PlatformFixture;
  let crosser: PlatformFixture;
  let stranger: PlatformFixture;
  let goods: number[] = [];
  let rounds = 0;

  const api = (trader: PlatformFixture, method: "POST" | "PUT" | "DELETE", path: string, body: unknown) =>
    t.as(trader.token, method, `/api/market/developer/${path}`, body);
  const jobsAfter = async (seconds: number) => [
    await t.admin("POST", "/sandbox/clock/advance", { seconds }),
    await t.admin("POST", "/sandbox/jobs/run"),
  ];

  const VERBS: Verb[] = [
    {
      name: "list (at the buy order's price, so it crosses)",
      from: "held",
      acts: ["held"],
      run: async (round) => [
        await api(seller, "POST", "sell_order/items", {
          game: "cs2",
          assets: [{ assetid: round.assetid, price: ORDER_PRICE }],
        }),
      ],
    },
    {
      name: "delist",
      from: "listed",
      acts: ["listed"],
      run: async (round) => [
        await api(seller, "DELETE", "sell_order/items", { game: "cs2", sell_orders: [round.listingId] }),
      ],
    },
    {
      name: "reprice (to the buy order's price, so it crosses)",
      from: "listed",
      acts: ["listed"],
      run: async (round) => [
        await api(seller, "PUT", "sell_order/items", {
          game: "cs2",
          sell_orders: [{ sell_order_id: round.listingId, price: ORDER_PRICE }],
        }),
      ],
    },
    {
      name: "supply the buy order",
      from: "held",
      acts: ["held"],
      run: async (round) => [
        await api(seller, "POST", "buy_order/supply", {
          game: "cs2",
          buy_order_id: round.orderId,
          assets: [round.assetid],
        }),
      ],
    },
    {
      name: "purchase",
      from: "held",
      acts: ["listed"],
      run: async (round) => [
        await api(purchaser, "POST", "purchase/orders", {
          game: "cs2",
          items: [{ goods_id: round.goodsId, max_price: LIST_PRICE, quantity: 1 }],
        }),
      ],
    },
    {
      name: "bid (a buy order that crosses the listing)",
      from: "held",
      acts: ["listed"],
      run: async (round) => [
        await api(crosser, "POST", "buy_order", {
          game: "cs2",
          goods_id: round.goodsId,
          price: LIST_PRICE,
          num: 1,
        }),
      ],
    },
    {
      name: "send offer",
      from: "sold",
      acts: ["sold"],
      run: async (round) => [await api(seller, "POST", "sell_order/send_offer", { order_id: round.tradeId })],
    },
    {
      name: "cancel the purchase",
      from: "sold",
      acts: ["sold"],
      run: async (round) => [
        await api(purchaser, "DELETE", "purchase/orders", { game: "cs2", order_ids: [round.tradeId] }),
      ],
    },
    {
      name: "cancel the buy order",
      from: "held",
      acts: ["held"],
      run: async (round) => [
        await api(bidder, "DELETE", "buy_order", { game: "cs2", buy_order_ids: [round.orderId] }),
      ],
    },
    {
      name: "item leaves (the seller trades it away on the platform)",
      from: "held",
      acts: ["held", "listed", "sold"],
      run: async (round) => {
        const sent = await t.admin("POST", "/sandbox/platform/offers", {
          platformid: seller.platformid,
          trade_url: stranger.tradeUrl,
          assetids: [round.assetid],
        });
        if (sent.statusCode !== 200) return [sent];
        return [sent, await t.admin("POST", `/sandbox/platform/offers/${sent.json().tradeofferid}/accept`)];
      },
    },
    {
      name: "the buyer accepts the offer (the item moves)",
      from: "offered",
      acts: ["offered"],
      run: async (round) => [await t.admin("POST", `/sandbox/platform/offers/${round.tradeofferid}/accept`)],
    },
    {
      name: "delivery timeout job (13 hours later)",
      from: "held",
      acts: ["sold", "offered"],
      run: () => jobsAfter(13 * 3600),
    },
    {
      name: "buy-order funds expiry job (151 days later)",
      from: "held",
      acts: ["held"],
      run: () => jobsAfter(151 * 86_400),
    },
    {
      name: "trade sync job",
      from: "held",
      acts: ["offered"],
      run: async () => [await t.admin("POST", "/sandbox/jobs/run")],
    },
  ];

  before(async () => {
    if (SKIP) return;
    t = await createTestApp({ catalog: true });
    // One after another: setup has each trader's platform account learn its trade URL.
    seller = await createReadyTrader(t, "seller");
    purchaser = await createReadyTrader(t, "purchaser");
    bidder = await createReadyTrader(t, "bidder");
    crosser = await createReadyTrader(t, "crosser");
    stranger = await createReadyTrader(t, "stranger");
    await t.fund(purchaser.userId, "balance", 1_000_000);
    await t.fund(crosser.userId, "balance", 1_000_000);
    // Each round trades its own standard goods, so that no round's leftovers take part in another.
    const rows = await t.database.db
      .selectFrom("goods")
      .select("goods_id")
      .where("is_standard", "=", true)
      .orderBy("goods_id")
      .limit(5000)
      .execute();
    goods = rows.map((row) => row.goods_id);
  });
  after(async () => {
    if (!SKIP) await t.close();
  });

  /** A fresh item of fresh goods, brought to `stage` by the verbs themselves. */
  async function prepare(stage: Stage): Promise<Round> {
    const goodsId = goods[rounds++ % goods.length]!;
    const granted = await t.admin("POST", `/sandbox/platform/accounts/${seller.platformid}/items`, {
      goods_id: goodsId,
      count: 1,
      random_extras: false,
    });
    assert.equal(granted.statusCode, 200, granted.body);
    const assetid = granted.json().assets[0].assetid as string;
    // The bidder pays with buy-order funds alone, so that their expiry cancels the order.
    await t.fund(bidder.userId, "margin", ORDER_PRICE);
    const order = await api(bidder, "POST", "buy_order", {
      game: "cs2",
      goods_id: goodsId,
      price: ORDER_PRICE,
      num: 1,
    });
    assert.equal(order.statusCode, 200, order.body);
    const round: Round = { goodsId, assetid, orderId: order.json().id };
    if (stage === "held") return round;
    const listed = await api(seller, "POST", "sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price: LIST_PRICE }],
    });
    round.listingId = listed.json().sell_orders?.[assetid]?.sell_order_id;
    assert.ok(round.listingId, listed.body);
    if (stage === "listed") return round;
    const bought = await api(purchaser, "POST", "purchase/orders", {
      game: "cs2",
      items: [{ goods_id: goodsId, max_price: LIST_PRICE, quantity: 1 }],
    });
    round.tradeId = bought.json().result?.[String(goodsId)]?.bill_order_ids?.[0];
    assert.ok(round.tradeId, bought.body);
    // A fresh platform session for the seller, who sends the offer: earlier rounds moved the
    // clock past the last one's 30 days.
    const login = await t.admin("POST", `/sandbox/platform/accounts/${seller.platformid}/cookies`);
    assert.equal(login.statusCode, 200, login.body);
    const uploaded = await uploadCookies(t, seller, login.json().cookies);
    assert.equal(uploaded.statusCode, 200, uploaded.body);
    // Past the buyer's first 30 minutes, so that a cancel is allowed.
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 31 * 60 });
    if (stage === "sold") return round;
    const sent = await api(seller, "POST", "sell_order/send_offer", { order_id: round.tradeId });
    assert.equal(sent.statusCode, 200, sent.body);
    const trade = await t.database.db
      .selectFrom("trades")
      .select("tradeofferid")
      .where("trade_id", "=", Number(round.tradeId))
      .executeTakeFirstOrThrow();
    round.tradeofferid = String(trade.tradeofferid);
    return round;
  }

  /** What must hold after any round, read straight from the tables. */
  async function assertConsistent(context: string): Promise<void> {
    const committedTwice = await sql<{ assetid: string; commitments: number }>`
      SELECT assetid::text, count(*)::int AS commitments FROM (
        SELECT assetid FROM listings WHERE state = 'ON_SALE'
        UNION ALL
        SELECT assetid FROM trades WHERE state IN ('PAYING', 'SELLER_TO_SEND_OFFER', 'TRADING')
      ) AS commitment GROUP BY assetid HAVING count(*) > 1
    `.execute(t.database.db);
    assert.deepEqual(
      firstSeen(committedTwice.rows.map((row) => `asset ${row.assetid}`)),
      [],
      `${context}: items committed twice`,
    );
    const sellingWhatIsGone = await sql<{ listing_id: string }>`
      SELECT listing.listing_id::text FROM listings AS listing
      WHERE listing.state = 'ON_SALE' AND NOT EXISTS (
        SELECT 1 FROM sandbox_assets AS asset
        WHERE asset.assetid = listing.assetid AND asset.platformid = listing.platformid
          AND asset.traded_to_assetid IS NULL)
    `.execute(t.database.db);
    assert.deepEqual(
      firstSeen(sellingWhatIsGone.rows.map((row) => `listing ${row.listing_id}`)),
      [],
      `${context}: listings on sale of items their seller no longer holds`,
    );
    await t.assertLedger();
  }

  /**
   * The violations not seen before: a violation fails the pair that made it, not every pair after
   * it (the check reads the whole market, where a broken item stays until a job ends its trade).
   */
  function firstSeen(violations: string[]): string[] {
    const fresh = violations.filter((violation) => !reported.has(violation));
    for (const violation of fresh) reported.add(violation);
    return fresh;
  }
  const reported = new Set<string>();

  /** The stages a pair races at: the first at which both can be asked, and where either acts. */
  function stagesOf(first: Verb, second: Verb): Stage[] {
    const from = Math.max(STAGES.indexOf(first.from), STAGES.indexOf(second.from));
    const acting = new Set([...first.acts, ...second.acts].map((stage) => STAGES.indexOf(stage)));
    return STAGES.filter((_, index) => index === from || (index > from && acting.has(index)));
  }

  for (const [index, first] of VERBS.entries()) {
    for (const second of VERBS.slice(index)) {
      test(`${first.name} | ${second.name}`, { skip: SKIP }, async (context) => {
        const stages = stagesOf(first, second);
        context.diagnostic(`rounds: ${stages.length * ROUNDS} (${stages.join(", ")})`);
        for (const stage of stages) {
          for (let round = 0; round < ROUNDS; round++) {
            const world = await prepare(stage);
            const answers = (await Promise.all([first.run(world), second.run(world)])).flat();
            const where = `${stage}, round ${round}`;
            for (const answer of answers)
              assert.ok(answer.statusCode < 500, `${where}: ${answer.statusCode} ${answer.body}`);
            await assertConsistent(where);
          }
        }
      });
    }
  }
});
