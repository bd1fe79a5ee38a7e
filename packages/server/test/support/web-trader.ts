import assert from "node:assert/strict";
import { uploadCookies, type PlatformFixture } from "./platform-world.ts";
import type { TestApp, WebSession } from "./test-app.ts";

/** A trader ready to sell (cookies uploaded, setup run), signed in on the website too. */
export interface WebTrader extends PlatformFixture {
  session: WebSession;
}

/** Builds a web trader through the sandbox API and the website's sign-in, as a user would be. */
export async function createWebTrader(t: TestApp, nickname: string): Promise<WebTrader> {
  const password = `${nickname} password`;
  const user = await t.createUser({ nickname, password });
  const created = await t.admin("POST", "/sandbox/platform/accounts", { user_id: user.userId });
  assert.equal(created.statusCode, 200, created.body);
  const account = created.json<{ platformid: string; trade_url: string; cookies: string }>();
  const trader: PlatformFixture = {
    userId: user.userId,
    token: user.token,
    platformid: account.platformid,
    tradeUrl: account.trade_url,
    cookies: account.cookies,
  };
  await uploadCookies(t, trader);
  const setup = await t.as(trader.token, "POST", "/api/market/developer/platform/setup", {
    platformid: trader.platformid,
  });
  assert.equal(setup.statusCode, 200, setup.body);
  return { ...trader, session: await t.signIn(nickname, password) };
}
