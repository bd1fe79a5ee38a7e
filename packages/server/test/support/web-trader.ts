import assert from "node:assert/strict";
import { grant, uploadCookies, type PlatformFixture } from "./platform-world.ts";
import type { TestApp, WebSession } from "./test-app.ts";

/** A trader ready to buy, sell and deliver, signed in on the website too. */
export interface WebTrader extends PlatformFixture {
  nickname: string;
  password: string;
  session: WebSession;
}

/** A user with a bound, set-up platform account and a website session, built through the APIs. */
export async function createWebTrader(t: TestApp, nickname: string): Promise<WebTrader> {
  const user = await t.createUser({ nickname });
  const created = await t.admin("POST", "/sandbox/platform/accounts", { user_id: user.userId });
  assert.equal(created.statusCode, 200, created.body);
  const account = created.json<{ platformid: string; trade_url: string; cookies: string }>();
  const trader = {
    userId: user.userId,
    token: user.token,
    platformid: account.platformid,
    tradeUrl: account.trade_url,
    cookies: account.cookies,
  };
  assert.equal((await uploadCookies(t, trader)).statusCode, 200);
  const setup = await t.as(trader.token, "POST", "/api/market/developer/platform/setup", {
    platformid: trader.platformid,
  });
  assert.equal(setup.statusCode, 200, setup.body);
  return {
    ...trader,
    nickname: user.nickname,
    password: user.password,
    session: await t.signIn(user.nickname, user.password),
  };
}

/** Lists new items of a goods through the official operation; answers their listing ids. */
export async function listNew(
  t: TestApp,
  seller: PlatformFixture,
  goods: { market_hash_name: string; cooldown_days?: number },
  prices: number[],
  flags: Record<string, unknown> = {},
): Promise<string[]> {
  const assetids = await grant(t, seller.platformid, { ...goods, count: prices.length });
  const response = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
    game: "cs2",
    assets: assetids.map((assetid, index) => ({ assetid, price: prices[index], ...flags })),
  });
  assert.equal(response.statusCode, 200, response.body);
  return assetids.map((assetid) => {
    const entry = response.json().sell_orders[assetid];
    assert.ok(entry.sell_order_id, JSON.stringify(entry));
    return entry.sell_order_id as string;
  });
}
