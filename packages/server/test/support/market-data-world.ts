import assert from "node:assert/strict";
import { recordSteamMarketPrices } from "../../src/platform/sandbox/steam-market.ts";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "./platform-world.ts";
import type { TestApp, WebSession } from "./test-app.ts";

export const REDLINE = "AK-47 | Redline (Field-Tested)";
export const STICKER = "Sticker | Crown (Foil)";
/** A goods with buy orders and no listing. */
export const ASIIMOV = "AWP | Asiimov (Field-Tested)";
/** The Redline's reference price on the sandbox's Steam market, above its lowest listing (11.00). */
export const REDLINE_STEAM_PRICE = "14.50";
const DAY = 86_400;

export interface MarketDataWorld {
  seller: PlatformFixture;
  buyer: PlatformFixture;
  ids: { redline: number; sticker: number; asiimov: number };
  /** A signed-in website session of a user who owns nothing. */
  viewer: WebSession;
  viewerId: string;
}

/**
 * A market built through the API for the market-data routes: stickers traded three days ago
 * (2 and 4) and today (3), so the sticker is the most traded goods; a sticker and two Redlines on
 * sale (12 and 11); buy orders on the Redline (8 for 3 units), the sticker (1.5 for 1) and the
 * Asiimov (30 for 2), which has no listing. On the sandbox's Steam market the Redline is priced
 * at `REDLINE_STEAM_PRICE`; the others have no Steam price.
 */
export async function buildMarketDataWorld(t: TestApp): Promise<MarketDataWorld> {
  const ids = {
    redline: await goodsIdOf(t, REDLINE),
    sticker: await goodsIdOf(t, STICKER),
    asiimov: await goodsIdOf(t, ASIIMOV),
  };
  const seller = await createReadyTrader(t, "data-seller");
  const buyer = await createReadyTrader(t, "data-buyer");
  await t.fund(buyer.userId, "balance", 500);
  await t.admin("POST", "/sandbox/clock/advance", { seconds: -3 * DAY });
  await tradeStickers(t, seller, buyer, ids.sticker, [2, 4]);
  await t.admin("POST", "/sandbox/clock/advance", { seconds: 3 * DAY });
  await tradeStickers(t, seller, buyer, ids.sticker, [3]);

  const redlines = await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 2 });
  const [sticker] = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 1 });
  const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
    game: "cs2",
    assets: [
      { assetid: redlines[0], price: 12 },
      { assetid: redlines[1], price: 11 },
      { assetid: sticker, price: 5 },
    ],
  });
  assert.equal(listed.statusCode, 200, listed.body);
  for (const [goodsId, price, num] of [
    [ids.redline, 8, 3],
    [ids.sticker, 1.5, 1],
    [ids.asiimov, 30, 2],
  ] as const) {
    const order = await t.as(buyer.token, "POST", "/api/market/developer/buy_order", {
      game: "cs2",
      goods_id: goodsId,
      price,
      num,
    });
    assert.equal(order.statusCode, 200, order.body);
  }
  await t.admin("POST", "/sandbox/jobs/run");
  await recordSteamMarketPrices(t.ctx, [{ goodsId: ids.redline, price: 1450, volume: 320 }]);
  const user = await t.createUser();
  const viewer = await t.signIn(user.nickname, user.password);
  return { seller, buyer, ids, viewer, viewerId: user.userId };
}

/** Lists stickers at these prices, buys them all and completes each trade. */
export async function tradeStickers(
  t: TestApp,
  seller: PlatformFixture,
  buyer: PlatformFixture,
  stickerId: number,
  prices: number[],
) {
  const post = (token: string, path: string, body: unknown) =>
    t.as(token, "POST", `/api/market/developer/${path}`, body);
  const assetids = await grant(t, seller.platformid, { market_hash_name: STICKER, count: prices.length });
  const listed = await post(seller.token, "sell_order/items", {
    game: "cs2",
    assets: assetids.map((assetid, index) => ({ assetid, price: prices[index] })),
  });
  assert.equal(listed.statusCode, 200, listed.body);
  const bought = await post(buyer.token, "purchase/orders", {
    game: "cs2",
    items: [{ goods_id: stickerId, max_price: Math.max(...prices), quantity: prices.length }],
  });
  assert.equal(bought.statusCode, 200, bought.body);
  const pending = (
    await post(seller.token, "sell_order/history", { game: "cs2", state: "SELLER_TO_SEND_OFFER" })
  ).json().items as Array<{ id: string }>;
  for (const order of pending) {
    const sent = await post(seller.token, "sell_order/send_offer", { order_id: order.id });
    assert.equal(sent.statusCode, 200, sent.body);
  }
  const trading = (await post(buyer.token, "purchase/orders/list", { game: "cs2", state: "PAYING" })).json()
    .items as Array<{ tradeofferid: string }>;
  for (const order of trading) {
    const accepted = await t.admin("POST", `/sandbox/platform/offers/${order.tradeofferid}/accept`);
    assert.equal(accepted.statusCode, 200, accepted.body);
  }
  await t.admin("POST", "/sandbox/jobs/run");
}
