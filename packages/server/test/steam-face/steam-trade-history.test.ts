import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import request from "request";
import type { DomainContext } from "../../src/domain/context.ts";
import type { OffsetClock } from "../../src/domain/clock.ts";
import { grantItems } from "../../src/platform/sandbox/grant-items.ts";
import { describePlatformAccount } from "../../src/platform/sandbox/platform-accounts.ts";
import type { SteamCredentials } from "../../src/platform/sandbox/steam-credentials.ts";
import { createOffer, respondToOffer } from "../../src/platform/sandbox/trade-offers.ts";
import { newSteamAccount, signInTradeBot } from "../support/steam-bot.ts";
import { openSteamFaceWorld, type SteamFaceWorld } from "../support/steam-face-world.ts";

interface Item {
  assetid: string;
  new_assetid: string;
  classid: string;
  instanceid: string;
}
interface Trade {
  tradeid: string;
  steamid_other: string;
  time_init: number;
  status: number;
  assets_given?: Item[];
  assets_received?: Item[];
}
interface History {
  trades: Trade[];
  more: boolean;
  total_trades?: number;
  descriptions?: Array<{ appid: number; classid: string; instanceid: string; market_hash_name: string }>;
}

describe("IEconService GetTradeHistory and GetTradeStatus, as Steam pages and answers them", () => {
  let world: SteamFaceWorld;
  let admin: DomainContext;
  let seller: SteamCredentials;
  let buyer: SteamCredentials;
  let sellerToken: string;
  let buyerToken: string;
  /** The trade ids, oldest first; the last one reversed under trade protection. */
  const tradeids: string[] = [];

  /** An IEconService call as a bot makes it, through the face's proxy; the answer and its EResult. */
  function call(method: string, qs: Record<string, string | number>) {
    return new Promise<{ status: number; eresult: string | undefined; body: { response: History } }>(
      (resolve, reject) =>
        request.get(
          {
            url: `https://api.steampowered.com/IEconService/${method}/v1/`,
            qs,
            json: true,
            proxy: world.proxyUrl,
            ca: world.authority.certPem,
          },
          (error, response, body) =>
            error
              ? reject(error)
              : resolve({
                  status: response.statusCode,
                  eresult: response.headers["x-eresult"] as string | undefined,
                  body: body as { response: History },
                }),
        ),
    );
  }
  const history = async (qs: Record<string, string | number>, token = sellerToken) => {
    const answer = await call("GetTradeHistory", { access_token: token, ...qs });
    assert.equal(answer.eresult, "1");
    return answer.body.response;
  };

  before(async () => {
    world = await openSteamFaceWorld({ catalog: true });
    admin = { ...world.ctx, actor: { kind: "admin" } };
    seller = await newSteamAccount(admin);
    buyer = await newSteamAccount(admin);
    const tokenOf = async (account: SteamCredentials) =>
      ((await signInTradeBot(world, account)).manager as unknown as { accessToken: string }).accessToken;
    sellerToken = await tokenOf(seller);
    buyerToken = await tokenOf(buyer);
    const view = await describePlatformAccount(admin, buyer.platformid);
    assert.ok(view.ok);
    const granted = await grantItems(admin, {
      platformid: seller.platformid,
      marketHashName: "AK-47 | Redline (Field-Tested)",
      count: 5,
    });
    assert.ok(granted.ok);
    // Four trades a minute apart, and an offer declined (no trade).
    const clock = world.ctx.clock as OffsetClock;
    for (const [index, asset] of granted.value.assets.entries()) {
      clock.setOffset((index + 1) * 60_000);
      const sent = await createOffer(world.ctx, {
        sender: seller.platformid,
        tradeUrl: view.value.tradeUrl,
        assetids: [asset.assetid],
      });
      assert.ok(sent.ok);
      const answered = await respondToOffer(world.ctx, {
        platformid: buyer.platformid,
        tradeofferid: sent.value.tradeofferid,
        accept: index < 4,
      });
      assert.ok(answered.ok);
      if (index < 4) tradeids.push(sent.value.tradeofferid);
    }
    // The last trade reversed under trade protection, as rollbackTrade leaves its offer.
    await world.ctx.db
      .updateTable("sandbox_trade_offers")
      .set({ state: "reverted" })
      .where("tradeofferid", "=", Number(tradeids[3]))
      .execute();
  });
  after(() => world.close());

  test("newest first in pages of max_trades, on after start_after_time and start_after_tradeid, back with navigating_back", async () => {
    const [first, second, third] = tradeids;
    const page1 = await history({ max_trades: 2 });
    assert.deepEqual(
      page1.trades.map((trade) => trade.tradeid),
      [third, second],
    );
    assert.equal(page1.more, true);
    assert.equal(page1.total_trades, undefined);
    const last = page1.trades[1]!;
    const page2 = await history({
      max_trades: 2,
      start_after_time: last.time_init,
      start_after_tradeid: last.tradeid,
    });
    assert.deepEqual(
      page2.trades.map((trade) => trade.tradeid),
      [first],
    );
    assert.equal(page2.more, false);
    const back = await history({
      max_trades: 1,
      start_after_time: page2.trades[0]!.time_init,
      start_after_tradeid: first ?? "",
      navigating_back: 1,
    });
    assert.deepEqual(
      back.trades.map((trade) => trade.tradeid),
      [second],
    );
    assert.equal(back.more, true);
  });

  test("each trade as Steam gives it, from either side, with descriptions, failed trades and the total when asked", async () => {
    const sellerSide = await history({
      max_trades: 10,
      include_failed: 1,
      include_total: 1,
      get_descriptions: 1,
    });
    assert.equal(sellerSide.total_trades, 4);
    assert.deepEqual(
      sellerSide.trades.map((trade) => [trade.tradeid, trade.status]),
      [
        [tradeids[3], 12],
        [tradeids[2], 3],
        [tradeids[1], 3],
        [tradeids[0], 3],
      ],
    );
    const given = sellerSide.trades[1]!;
    assert.equal(given.steamid_other, buyer.platformid);
    assert.equal(given.assets_received, undefined);
    assert.equal(given.assets_given?.length, 1);
    assert.match(given.assets_given?.[0]?.new_assetid ?? "", /^\d+$/);
    assert.ok(given.time_init > sellerSide.trades[2]!.time_init);
    // One description per class and instance among the page's items.
    const items = sellerSide.trades.flatMap((trade) => trade.assets_given ?? []);
    for (const item of items)
      assert.deepEqual(
        sellerSide.descriptions
          ?.filter((each) => each.classid === item.classid && each.instanceid === item.instanceid)
          .map((each) => [each.appid, each.market_hash_name]),
        [[730, "AK-47 | Redline (Field-Tested)"]],
      );

    const buyerSide = await history({ max_trades: 10 }, buyerToken);
    assert.equal(buyerSide.trades.length, 3);
    assert.deepEqual(buyerSide.trades[0]?.assets_received, given.assets_given);
    assert.equal(buyerSide.trades[0]?.steamid_other, seller.platformid);
  });

  test("GetTradeStatus answers one trade from the same rows, a reversed one in status 12", async () => {
    const status = await call("GetTradeStatus", { access_token: sellerToken, tradeid: tradeids[3] ?? "" });
    assert.equal(status.eresult, "1");
    assert.deepEqual(
      status.body.response.trades.map((trade) => [trade.tradeid, trade.status]),
      [[tradeids[3], 12]],
    );
    const unknown = await call("GetTradeStatus", { access_token: sellerToken, tradeid: "123" });
    assert.equal(unknown.eresult, "9");
  });

  test("a malformed max_trades or cursor is EResult 8", async () => {
    const malformed: Array<Record<string, string | number>> = [
      { max_trades: 0 },
      { max_trades: 501 },
      { max_trades: 5, start_after_time: "soon" },
    ];
    for (const qs of malformed) {
      const answer = await call("GetTradeHistory", { access_token: sellerToken, ...qs });
      assert.equal(answer.status, 200);
      assert.equal(answer.eresult, "8", JSON.stringify(qs));
    }
  });
});
