import assert from "node:assert/strict";
import { get } from "node:https";
import { after, before, describe, test } from "node:test";
import type SteamCommunity from "steamcommunity";
import type { DomainContext } from "../../src/domain/context.ts";
import type { OffsetClock } from "../../src/domain/clock.ts";
import { recordSteamMarketPrices } from "../../src/platform/sandbox/steam-market.ts";
import { MARKET_READS_PER_MINUTE } from "../../src/steam-face/routes/market-routes.ts";
import { newSteamAccount, signInBot } from "../support/steam-bot.ts";
import { openSteamFaceWorld, type SteamFaceWorld } from "../support/steam-face-world.ts";

const REDLINE = "AK-47 | Redline (Field-Tested)";

function market(world: SteamFaceWorld, path: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    get(`https://steamcommunity.com${path}`, { agent: world.agent }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(body) }));
    }).on("error", reject);
  });
}

/** steamcommunity's own GET on its signed-in session. */
function libraryGet(
  community: SteamCommunity,
  uri: string,
  qs: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) =>
    community.httpRequestGet({ uri, qs, json: true }, (error, response, body) =>
      error && !response ? reject(error) : resolve({ status: response.statusCode, body }),
    ),
  );
}

describe("the Community Market's priceoverview and pricehistory on the Steam face", () => {
  let world: SteamFaceWorld;
  let admin: DomainContext;
  let unpriced: string;
  let community: SteamCommunity;
  const overview = (query: string) => market(world, `/market/priceoverview/?${query}`);
  const redline = `appid=730&market_hash_name=${encodeURIComponent(REDLINE)}`;

  before(async () => {
    world = await openSteamFaceWorld({ catalog: true });
    admin = { ...world.ctx, actor: { kind: "admin" } };
    const goods = await world.ctx.db
      .selectFrom("goods")
      .select(["goods_id", "market_hash_name"])
      .where("market_hash_name", "=", REDLINE)
      .executeTakeFirstOrThrow();
    const redlineId = goods.goods_id;
    const other = await world.ctx.db
      .selectFrom("goods")
      .select("market_hash_name")
      .where("goods_id", "!=", redlineId)
      .orderBy("goods_id")
      .executeTakeFirstOrThrow();
    unpriced = other.market_hash_name;
    // Two days before today, then today's price (its point is today's median).
    await world.ctx.db
      .insertInto("sandbox_steam_market_history")
      .values([
        { goods_id: redlineId, day: "2026-11-25", price: 1150, volume: 980 },
        { goods_id: redlineId, day: "2026-11-26", price: 1210, volume: 1010 },
      ])
      .execute();
    await recordSteamMarketPrices(world.ctx, [{ goodsId: redlineId, price: 1234, volume: 1234 }]);
    // Signed in before any test moves the sandbox clock.
    ({ community } = await signInBot(world, await newSteamAccount(admin)));
  });
  after(() => world.close());

  test("priceoverview answers the lowest ask, 24-hour volume and median in CNY (23) as Steam writes them", async () => {
    const answer = await overview(`${redline}&currency=23&country=CN`);
    assert.equal(answer.status, 200);
    // The median is today's point: 97 % of the ask (the sandbox's sales clear under it).
    assert.deepEqual(answer.body, {
      success: true,
      lowest_price: "¥ 12.34",
      volume: "1,234",
      median_price: "¥ 11.97",
    });
  });

  test("USD (1), and USD when no currency is named, at the sandbox's 7.2 yuan to the dollar", async () => {
    const expected = { success: true, lowest_price: "$1.71", volume: "1,234", median_price: "$1.66" };
    assert.deepEqual((await overview(`${redline}&currency=1`)).body, expected);
    assert.deepEqual((await overview(redline)).body, expected);
  });

  test("a goods the sandbox's Steam market does not price answers success alone", async () => {
    const answer = await overview(`appid=730&currency=23&market_hash_name=${encodeURIComponent(unpriced)}`);
    assert.deepEqual(answer, { status: 200, body: { success: true } });
  });

  test("an unknown name or another game is {success:false} with 500; a missing parameter with 400", async () => {
    assert.deepEqual(await overview("appid=730&currency=23&market_hash_name=No%20Such%20Skin"), {
      status: 500,
      body: { success: false },
    });
    assert.deepEqual(
      await overview(`appid=440&currency=23&market_hash_name=${encodeURIComponent(REDLINE)}`),
      {
        status: 500,
        body: { success: false },
      },
    );
    for (const query of [
      "appid=730&currency=23",
      `currency=23&market_hash_name=${encodeURIComponent(REDLINE)}`,
    ])
      assert.deepEqual(await overview(query), { status: 400, body: { success: false } });
    // A currency the face does not price in is refused, not answered in another.
    assert.deepEqual(await overview(`${redline}&currency=3`), { status: 400, body: { success: false } });
  });

  test("pricehistory answers [] with 400 to a caller not signed in, as Steam does", async () => {
    assert.deepEqual(await market(world, `/market/pricehistory/?${redline}`), { status: 400, body: [] });
  });

  test("pricehistory on steamcommunity's signed-in session: daily points, oldest first, in yuan", async () => {
    const answer = await libraryGet(community, "https://steamcommunity.com/market/pricehistory/", {
      country: "CN",
      appid: "730",
      market_hash_name: REDLINE,
    });
    assert.equal(answer.status, 200);
    const body = answer.body as {
      success: boolean;
      price_prefix: string;
      price_suffix: string;
      prices: unknown[];
    };
    assert.equal(body.success, true);
    assert.equal(body.price_prefix, "¥");
    assert.equal(body.price_suffix, "");
    const today = world.ctx.clock.now();
    const month = today.toLocaleString("en-US", { month: "short", timeZone: "UTC" });
    const date = String(today.getUTCDate()).padStart(2, "0");
    assert.deepEqual(body.prices.slice(0, 2), [
      ["Nov 25 2026 01: +0", 11.5, "980"],
      ["Nov 26 2026 01: +0", 12.1, "1010"],
    ]);
    assert.deepEqual(body.prices.at(-1), [
      `${month} ${date} ${today.getUTCFullYear()} 01: +0`,
      11.97,
      "1234",
    ]);
    const unknown = await libraryGet(community, "https://steamcommunity.com/market/pricehistory/", {
      appid: "730",
      market_hash_name: "No Such Skin",
    });
    assert.deepEqual(unknown.body, { success: false });
  });

  test(`more than ${MARKET_READS_PER_MINUTE} price reads a minute answer 429 until the minute has passed`, async () => {
    const clock = world.ctx.clock as OffsetClock;
    clock.setOffset(clock.offsetMs + 61_000);
    for (let read = 0; read < MARKET_READS_PER_MINUTE; read++)
      assert.equal((await overview(`${redline}&currency=23`)).status, 200);
    assert.deepEqual(await overview(`${redline}&currency=23`), { status: 429, body: null });
    clock.setOffset(clock.offsetMs + 61_000);
    assert.equal((await overview(`${redline}&currency=23`)).status, 200);
  });
});
