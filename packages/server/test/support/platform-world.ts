import assert from "node:assert/strict";
import type { TestApp } from "./test-app.ts";

export interface PlatformFixture {
  userId: string;
  token: string;
  platformid: string;
  tradeUrl: string;
  /** The JSON-encoded cookies of the account's first login, ready for platform/cookie. */
  cookies: string;
}

/** A user with a bound platform account, built through the sandbox API. */
export async function createTraderWithAccount(t: TestApp, nickname?: string): Promise<PlatformFixture> {
  const user = await t.createUser(nickname ? { nickname } : {});
  const created = await t.admin("POST", "/sandbox/platform/accounts", { user_id: user.userId });
  assert.equal(created.statusCode, 200, created.body);
  const account = created.json<{ platformid: string; trade_url: string; cookies: string }>();
  return {
    userId: user.userId,
    token: user.token,
    platformid: account.platformid,
    tradeUrl: account.trade_url,
    cookies: account.cookies,
  };
}

export async function grant(
  t: TestApp,
  platformid: string,
  body: Record<string, unknown>,
): Promise<string[]> {
  const response = await t.admin("POST", `/sandbox/platform/accounts/${platformid}/items`, {
    random_extras: false,
    ...body,
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json<{ assets: Array<{ assetid: string }> }>().assets.map((asset) => asset.assetid);
}

export async function grantOne(
  t: TestApp,
  platformid: string,
  body: Record<string, unknown>,
): Promise<string> {
  const [assetid] = await grant(t, platformid, { ...body, count: 1 });
  assert.ok(assetid);
  return assetid;
}

/** Grants `seller` one item of `goods` and lists it at `price` (yuan) through the API. */
export async function listOne(
  t: TestApp,
  seller: PlatformFixture,
  goods: string,
  price: number,
): Promise<string> {
  const assetid = await grantOne(t, seller.platformid, { market_hash_name: goods });
  const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
    game: "cs2",
    assets: [{ assetid, price }],
  });
  assert.equal(listed.statusCode, 200, listed.body);
  return assetid;
}

/** Moves the sandbox clock `seconds` on. */
export function passSeconds(t: TestApp, seconds: number): void {
  t.clock.setOffset(t.clock.offsetMs + seconds * 1000);
}

export async function uploadCookies(t: TestApp, trader: PlatformFixture, cookies = trader.cookies) {
  return t.as(trader.token, "POST", "/api/market/developer/platform/cookie", {
    platformid: trader.platformid,
    platform_cookies: cookies,
  });
}

/** A trader who uploaded the platform's cookies and ran setup: ready to buy, sell and deliver. */
export async function createReadyTrader(t: TestApp, nickname?: string): Promise<PlatformFixture> {
  const trader = await createTraderWithAccount(t, nickname);
  await uploadCookies(t, trader);
  const setup = await t.as(trader.token, "POST", "/api/market/developer/platform/setup", {
    platformid: trader.platformid,
  });
  assert.equal(setup.statusCode, 200, setup.body);
  return trader;
}

export async function goodsIdOf(t: TestApp, marketHashName: string): Promise<number> {
  const goods = await t.database.db
    .selectFrom("goods")
    .select("goods_id")
    .where("market_hash_name", "=", marketHashName)
    .executeTakeFirstOrThrow();
  return goods.goods_id;
}
