import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { goodsIdOf, grantOne, uploadCookies, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp, type WebSession } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";
const PROBES = ["/api/market/steam_trade", "/api/message/notification", "/api/asset/get_brief_asset"];

interface Trader extends PlatformFixture {
  nickname: string;
  session: WebSession;
}

/**
 * The website's session and account routes (docs/design/website-account-and-selling-routes.md#the-websites-session-and-account-routes): each answers the signed-in
 * user's own state as it changes through a sale, and nothing of anyone else's.
 */
describe("website session routes: steam_trade, message/notification, asset/get_brief_asset, user/info", () => {
  let t: TestApp;
  let seller: Trader;
  let buyer: Trader;
  let outsider: { session: WebSession };
  let stickerId: number;

  /** A signed-in user with a bound platform account whose setup ran (cookies, trade URL, API key). */
  async function createSignedInTrader(nickname: string): Promise<Trader> {
    const user = await t.createUser({ nickname, password: "probe password" });
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
    await uploadCookies(t, trader);
    const setup = await t.as(user.token, "POST", "/api/market/developer/platform/setup", {
      platformid: trader.platformid,
    });
    assert.equal(setup.statusCode, 200, setup.body);
    return { ...trader, nickname, session: await t.signIn(nickname, "probe password") };
  }

  const get = async (session: WebSession, url: string) => {
    const response = await t.web(session, "GET", url);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    assert.equal(body.code, "OK");
    assert.equal(body.msg, null);
    return body.data;
  };
  const trades = (session: WebSession) => get(session, "/api/market/steam_trade");
  const toDeliver = async (session: WebSession) =>
    (await get(session, "/api/message/notification")).to_deliver_order;
  const asset = (session: WebSession) => get(session, "/api/asset/get_brief_asset");

  before(async () => {
    t = await createTestApp({ catalog: true });
    seller = await createSignedInTrader("probe-seller");
    buyer = await createSignedInTrader("probe-buyer");
    await t.createUser({ nickname: "probe-outsider", password: "probe password" });
    outsider = { session: await t.signIn("probe-outsider", "probe password") };
    stickerId = await goodsIdOf(t, STICKER);
  });
  after(() => t.close());

  test("happy: a new account has nothing to act on, no counts and empty balances", async () => {
    assert.deepEqual(await trades(seller.session), []);
    assert.deepEqual(await toDeliver(seller.session), { csgo: 0, dota2: 0 });
    const balances = await asset(seller.session);
    assert.equal(balances.cash_amount, "0.00");
    assert.equal(balances.frozen_amount, "0.00");
    assert.deepEqual(balances.remain_withdraw_counts, {
      epay: 0,
      alipay: 0,
      together: 0,
      airwallex: 0,
      payoneer: 0,
    });
  });

  test("happy: a sale shows to the seller as an offer to send, then to both sides until accepted", async () => {
    const assetid = await grantOne(t, seller.platformid, { market_hash_name: STICKER });
    const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price: 5 }],
    });
    assert.equal(listed.statusCode, 200, listed.body);
    await t.fund(buyer.userId, "balance", 20);
    await t.fund(buyer.userId, "wallet", 10);
    const bought = await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [{ goods_id: stickerId, max_price: 5, quantity: 1 }],
      pay_method: "wallet",
    });
    assert.equal(bought.statusCode, 200, bought.body);
    const [tradeId] = bought.json().result[String(stickerId)].bill_order_ids as string[];
    await t.assertLedger();

    // Paid: the seller must send the offer; the buyer waits and has nothing to do.
    const [toSend, ...none] = await trades(seller.session);
    assert.deepEqual(none, []);
    assert.equal(toSend.id, tradeId);
    assert.equal(toSend.type, 1);
    assert.equal(toSend.state, 0);
    assert.equal(toSend.tradeofferid, "");
    assert.equal(toSend.url, "");
    assert.equal(toSend.bot_name, "probe-buyer");
    assert.equal(toSend.items_to_trade[0].assetid, assetid);
    assert.equal(toSend.items_to_trade[0].contextid, 2);
    assert.equal(toSend.goods_infos[String(stickerId)].market_hash_name, STICKER);
    assert.deepEqual(await trades(buyer.session), []);
    assert.deepEqual(await toDeliver(seller.session), { csgo: 1, dota2: 0 });
    assert.deepEqual(await toDeliver(buyer.session), { csgo: 0, dota2: 0 });
    const paying = await asset(buyer.session);
    assert.equal(paying.cash_amount, "20.00");
    assert.equal(paying.alipay_amount, "5.00");
    assert.equal(paying.frozen_amount, "5.00");
    assert.equal(paying.alipay_frozen_amount, "5.00");

    // The offer is out: the seller waits for it, the buyer must accept it.
    const sent = await t.as(seller.token, "POST", "/api/market/developer/sell_order/send_offer", {
      order_id: tradeId,
    });
    assert.equal(sent.statusCode, 200, sent.body);
    await t.assertLedger();
    const [out] = await trades(seller.session);
    assert.equal(out.state, 1);
    assert.match(out.tradeofferid, /^\d+$/);
    assert.equal(out.url, `https://steamcommunity.com/tradeoffer/${out.tradeofferid}/`);
    assert.equal(out.verify_code, `skinmarket order ${tradeId}`);
    const [toAccept, ...rest] = await trades(buyer.session);
    assert.deepEqual(rest, []);
    assert.equal(toAccept.type, 2);
    assert.equal(toAccept.state, 1);
    assert.equal(toAccept.tradeofferid, out.tradeofferid);
    assert.equal(toAccept.bot_name, "probe-seller");
    assert.deepEqual(await toDeliver(seller.session), { csgo: 1, dota2: 0 });

    // Accepted and settled: nothing left to do; the seller is paid, the buyer's money leaves escrow.
    const accepted = await t.admin("POST", `/sandbox/platform/offers/${out.tradeofferid}/accept`);
    assert.equal(accepted.statusCode, 200, accepted.body);
    await t.admin("POST", "/sandbox/jobs/run");
    await t.assertLedger();
    assert.deepEqual(await trades(seller.session), []);
    assert.deepEqual(await trades(buyer.session), []);
    assert.deepEqual(await toDeliver(seller.session), { csgo: 0, dota2: 0 });
    const paid = await asset(seller.session);
    assert.equal(paid.cash_amount, "4.87");
    assert.equal(paid.cash_amount_outer, "4.87");
    const settled = await asset(buyer.session);
    assert.equal(settled.frozen_amount, "0.00");
    assert.equal(settled.alipay_frozen_amount, "0.00");
    assert.equal(settled.alipay_amount, "5.00");
  });

  test("happy: buy-order funds answer as security_amount", async () => {
    await t.fund(buyer.userId, "margin", 7);
    const balances = await asset(buyer.session);
    assert.equal(balances.security_amount, "7.00");
    assert.equal(balances.epay_amount, "0.00");
  });

  test("happy: user/info answers the real names with the bound account, and keeps our own fields", async () => {
    const info = await get(seller.session, "/account/api/user/info");
    assert.equal(info.id, seller.userId);
    assert.equal(info.user_id, seller.userId);
    assert.equal(info.nickname, "probe-seller");
    assert.equal(info.access_level, "developer");
    assert.equal(info.buy_order_status, "online");
    assert.equal(typeof info.created_at, "number");
    assert.equal(info.steamid, seller.platformid);
    assert.equal(info.trade_url, seller.tradeUrl);
    assert.equal(info.trade_url_state, 1);
    assert.equal(info.steam_api_key_state, 1);
    assert.deepEqual(info.show_leaderboard, { csgo: false, dota2: false });
    const unbound = await get(outsider.session, "/account/api/user/info");
    assert.equal(unbound.steamid, "");
    assert.equal(unbound.trade_url, "");
    assert.equal(unbound.trade_url_state, 0);
    assert.equal(unbound.steam_api_key_state, 0);
  });

  test("happy: a cache-busting query parameter changes nothing", async () => {
    const plain = await t.web(seller.session, "GET", "/api/message/notification");
    const response = await t.web(seller.session, "GET", `/api/message/notification?_=${Date.now()}`);
    assert.equal(response.statusCode, 200, response.body);
    // The same counts; only a time of the answer may differ between two reads.
    const counts = (body: { data: Record<string, unknown> }) => ({ ...body.data, updated_at: undefined });
    assert.deepEqual(counts(response.json()), counts(plain.json()));
  });

  test("happy: a trailing slash, as some tools write the path, answers the same", async () => {
    const plain = await t.web(seller.session, "GET", "/api/asset/get_brief_asset");
    const slashed = await t.web(seller.session, "GET", "/api/asset/get_brief_asset/");
    assert.equal(slashed.statusCode, 200, slashed.body);
    assert.deepEqual(slashed.json(), plain.json());
  });

  test("security: without a session each route answers Login Required, with no data to mistake for a live session", async () => {
    for (const url of [...PROBES, "/account/api/user/info"]) {
      const response = await t.app.inject({ method: "GET", url });
      assert.equal(response.statusCode, 401, url);
      const body = response.json();
      assert.equal(body.code, "Login Required", url);
      assert.ok(!("data" in body), url);
      const token = await t.app.inject({
        method: "GET",
        url,
        headers: { authorization: `Bearer ${seller.token}` },
      });
      assert.equal(token.json().code, "Login Required", `${url} with an API token`);
    }
  });

  test("security: a session that ended is no longer alive", async () => {
    await t.createUser({ nickname: "probe-leaver", password: "probe password" });
    const session = await t.signIn("probe-leaver", "probe password");
    assert.equal((await t.web(session, "POST", "/account/api/logout")).statusCode, 200);
    for (const url of PROBES) {
      assert.equal((await t.web(session, "GET", url)).json().code, "Login Required", url);
    }
  });

  test("security: another user sees none of the trades, counts or balances", async () => {
    const assetid = await grantOne(t, seller.platformid, { market_hash_name: STICKER });
    await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price: 3 }],
    });
    const bought = await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [{ goods_id: stickerId, max_price: 3, quantity: 1 }],
    });
    assert.equal(bought.json().result[String(stickerId)].success_num, 1);
    await t.assertLedger();
    assert.equal((await trades(seller.session)).length, 1);
    assert.deepEqual(await trades(outsider.session), []);
    assert.deepEqual(await toDeliver(outsider.session), { csgo: 0, dota2: 0 });
    const balances = await asset(outsider.session);
    for (const field of ["cash_amount", "frozen_amount", "security_amount", "alipay_amount"]) {
      assert.equal(balances[field], "0.00", field);
    }
  });
});
