import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { InventoryItem } from "@skinmarket/contract";
import type { InjectOptions } from "fastify";
import { loadCatalog } from "../../src/domain/catalog/load-catalog.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import {
  advanceClock,
  createAccount,
  grantItems,
  grantOne,
  itemCount,
  listOffers,
  offerRequest,
  REDLINE,
  sendOffer,
  type CreatedAccount,
  type TradeOffer,
} from "./sandbox-platform-steps.ts";

/** Trade offers on the sandbox platform: sent as a player would, answered by the receiver. */

const OFFER_LIFETIME_SECONDS = 12 * 3600;
const TRADE_COOLDOWN_SECONDS = 7 * 24 * 3600;

describe("sandbox trade offers", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
    const loaded = await loadCatalog(t.ctx);
    assert.ok(loaded.ok);
  });
  after(() => t.close());

  /** Two fresh accounts; the sender holds `items` plain Redlines. */
  async function traders(
    items = 1,
  ): Promise<{ sender: CreatedAccount; receiver: CreatedAccount; assetids: string[] }> {
    const sender = await createAccount(t);
    const receiver = await createAccount(t);
    const assets = await grantItems(t, sender.platformid, {
      market_hash_name: REDLINE,
      count: items,
      random_extras: false,
    });
    return { sender, receiver, assetids: assets.map((asset) => asset.assetid) };
  }

  function answer(tradeofferid: string, verb: "accept" | "decline") {
    return t.admin("POST", `/sandbox/platform/offers/${tradeofferid}/${verb}`);
  }

  async function accept(tradeofferid: string): Promise<TradeOffer> {
    const response = await answer(tradeofferid, "accept");
    assert.equal(response.statusCode, 200, response.body);
    return response.json<TradeOffer>();
  }

  async function stateOf(offer: TradeOffer): Promise<string | undefined> {
    const listed = await listOffers(t, offer.sender);
    return listed.find((candidate) => candidate.tradeofferid === offer.tradeofferid)?.state;
  }

  async function expectRefused(
    response: Awaited<ReturnType<typeof offerRequest>>,
    status: number,
    message: RegExp,
  ): Promise<void> {
    assert.equal(response.statusCode, status, response.body);
    assert.match(response.json().msg, message);
  }

  describe("happy", () => {
    test("an offer is active for 12 hours, from the sender to the owner of the trade URL", async () => {
      const { sender, receiver, assetids } = await traders(2);
      const response = await offerRequest(t, sender.platformid, receiver.trade_url, assetids, "gg");
      assert.equal(response.statusCode, 200, response.body);
      const offer = response.json<TradeOffer>();
      assert.match(offer.tradeofferid, /^\d+$/);
      assert.deepEqual(
        {
          sender: offer.sender,
          receiver: offer.receiver,
          assetids: offer.assetids,
          state: offer.state,
          message: offer.message,
        },
        {
          sender: sender.platformid,
          receiver: receiver.platformid,
          assetids,
          state: "active",
          message: "gg",
        },
      );
      assert.equal(offer.expires_at - offer.created_at, OFFER_LIFETIME_SECONDS);
      assert.equal(offer.received_assetids, undefined);
    });

    test("offers are listed for the sender and the receiver, newest first, and for nobody else", async () => {
      const { sender, receiver, assetids } = await traders(2);
      const bystander = await createAccount(t);
      const first = await sendOffer(t, sender, receiver, [assetids[0]!]);
      const second = await sendOffer(t, sender, receiver, [assetids[1]!]);
      for (const platformid of [sender.platformid, receiver.platformid]) {
        const listed = await listOffers(t, platformid);
        assert.deepEqual(
          listed.map((offer) => offer.tradeofferid),
          [second.tradeofferid, first.tradeofferid],
        );
        assert.deepEqual(listed[1], first);
      }
      assert.deepEqual(await listOffers(t, bystander.platformid), []);
      const everything = (await t.admin("GET", "/sandbox/platform/offers")).json<{ items: TradeOffer[] }>();
      assert.ok(everything.items.some((offer) => offer.tradeofferid === second.tradeofferid));
    });

    test("accepting moves every item to the receiver under a new assetid", async () => {
      const { sender, receiver, assetids } = await traders(3);
      const offer = await sendOffer(t, sender, receiver, assetids.slice(0, 2));
      const accepted = await accept(offer.tradeofferid);
      assert.equal(accepted.state, "accepted");

      const received = accepted.received_assetids ?? {};
      assert.deepEqual(Object.keys(received).sort(), assetids.slice(0, 2).sort());
      const newAssetids = Object.values(received);
      for (const assetid of newAssetids) {
        assert.match(assetid, /^\d+$/);
        assert.ok(!assetids.includes(assetid), `${assetid} is an old assetid`);
      }
      assert.equal(new Set(newAssetids).size, 2);

      assert.equal(await itemCount(t, sender.platformid), 1);
      assert.equal(await itemCount(t, receiver.platformid), 2);
      assert.equal(await stateOf(offer), "accepted");
    });

    test("after a trade the sender no longer has the item and the receiver holds it under its new assetid", async () => {
      const { sender, receiver, assetids } = await traders(1);
      const third = await createAccount(t);
      const accepted = await accept((await sendOffer(t, sender, receiver, assetids)).tradeofferid);
      const newAssetid = accepted.received_assetids?.[assetids[0]!];
      assert.ok(newAssetid);
      await expectRefused(
        await offerRequest(t, sender.platformid, third.trade_url, assetids),
        409,
        /not in the sender's inventory/,
      );
      await expectRefused(
        await offerRequest(t, receiver.platformid, third.trade_url, assetids),
        409,
        /not in the sender's inventory/,
      );
      await expectRefused(
        await offerRequest(t, receiver.platformid, third.trade_url, [newAssetid]),
        409,
        /trade cooldown/,
      );
    });

    test("the received item stays in a 7-day trade cooldown, then can be sent back", async () => {
      const { sender, receiver, assetids } = await traders(1);
      const accepted = await accept((await sendOffer(t, sender, receiver, assetids)).tradeofferid);
      const newAssetid = accepted.received_assetids?.[assetids[0]!];
      assert.ok(newAssetid);

      await expectRefused(
        await offerRequest(t, receiver.platformid, sender.trade_url, [newAssetid]),
        409,
        /trade cooldown/,
      );
      await advanceClock(t, TRADE_COOLDOWN_SECONDS - 60);
      await expectRefused(
        await offerRequest(t, receiver.platformid, sender.trade_url, [newAssetid]),
        409,
        /trade cooldown/,
      );
      await advanceClock(t, 60);
      const back = await sendOffer(t, receiver, sender, [newAssetid]);
      const returned = await accept(back.tradeofferid);
      assert.equal(returned.state, "accepted");
      assert.equal(await itemCount(t, sender.platformid), 1);
      assert.equal(await itemCount(t, receiver.platformid), 0);
    });

    test("a traded item keeps its wear, seed and stickers, and the receiver's inventory shows its cooldown", async () => {
      const user = await t.createUser();
      const sender = await createAccount(t);
      const receiver = await createAccount(t, { user_id: user.userId });
      await t.admin("PUT", `/sandbox/platform/accounts/${receiver.platformid}/settings`, {
        inventory_public: true,
      });
      const [granted] = await grantItems(t, sender.platformid, {
        market_hash_name: REDLINE,
        paintwear: "0.2468",
        paintseed: 321,
        stickers: [{ market_hash_name: "Sticker | Crown (Foil)", slot: 2 }],
        nametag: "Traveller",
      });
      assert.ok(granted);
      const accepted = await accept((await sendOffer(t, sender, receiver, [granted.assetid])).tradeofferid);
      const acceptedAt = accepted.updated_at;
      const newAssetid = accepted.received_assetids?.[granted.assetid];

      const inventory = await t.as(
        user.token,
        "GET",
        `/api/market/developer/platform/inventory?game=cs2&platformid=${receiver.platformid}`,
      );
      assert.equal(inventory.statusCode, 200, inventory.body);
      const items = inventory.json<{ items: InventoryItem[] }>().items;
      assert.equal(items.length, 1);
      const [item] = items;
      assert.equal(item?.assetid, newAssetid);
      assert.equal(item?.tradable, false);
      assert.equal(item?.tradable_time, acceptedAt + TRADE_COOLDOWN_SECONDS);
      assert.deepEqual(
        {
          classid: item?.asset_info.classid,
          paintwear: item?.asset_info.paintwear,
          paintseed: item?.asset_info.info.paintseed,
          paintindex: item?.asset_info.info.paintindex,
          stickers: item?.asset_info.info.stickers,
          fraudwarnings: item?.asset_info.info.fraudwarnings,
        },
        {
          classid: granted.classid,
          paintwear: "0.2468",
          paintseed: 321,
          paintindex: granted.info.paintindex,
          stickers: granted.info.stickers,
          fraudwarnings: "Name Tag: ''Traveller''",
        },
      );
    });

    test("declining leaves every item where it was and frees it for another offer", async () => {
      const { sender, receiver, assetids } = await traders(2);
      const offer = await sendOffer(t, sender, receiver, assetids);
      const declined = await answer(offer.tradeofferid, "decline");
      assert.equal(declined.statusCode, 200, declined.body);
      assert.equal(declined.json().state, "declined");
      assert.equal(declined.json().received_assetids, undefined);
      assert.equal(await itemCount(t, sender.platformid), 2);
      assert.equal(await itemCount(t, receiver.platformid), 0);
      assert.equal(await stateOf(offer), "declined");
      const again = await sendOffer(t, sender, receiver, assetids);
      assert.equal(again.state, "active");
    });

    test("a receiver with auto_accept accepts the offer as it is made", async () => {
      const { sender, receiver, assetids } = await traders(2);
      const on = await t.admin("PUT", `/sandbox/platform/accounts/${receiver.platformid}/auto_accept`, {
        enabled: true,
      });
      assert.equal(on.statusCode, 200, on.body);
      const offer = await sendOffer(t, sender, receiver, assetids);
      assert.equal(offer.state, "accepted");
      assert.deepEqual(Object.keys(offer.received_assetids ?? {}).sort(), [...assetids].sort());
      assert.equal(await itemCount(t, sender.platformid), 0);
      assert.equal(await itemCount(t, receiver.platformid), 2);
      assert.equal(await stateOf(offer), "accepted");
    });

    test("with auto_accept turned off again, offers wait for an answer", async () => {
      const { sender, receiver, assetids } = await traders(1);
      const url = `/sandbox/platform/accounts/${receiver.platformid}/auto_accept`;
      await t.admin("PUT", url, { enabled: true });
      await t.admin("PUT", url, { enabled: false });
      const offer = await sendOffer(t, sender, receiver, assetids);
      assert.equal(offer.state, "active");
      assert.equal(await itemCount(t, receiver.platformid), 0);
    });

    test("an offer can still be accepted a minute before its 12 hours are up", async () => {
      const { sender, receiver, assetids } = await traders(1);
      const offer = await sendOffer(t, sender, receiver, assetids);
      await advanceClock(t, OFFER_LIFETIME_SECONDS - 60);
      assert.equal((await accept(offer.tradeofferid)).state, "accepted");
    });

    test("after 12 hours the expiry job marks the offer expired; it can no longer be accepted and the items are free", async () => {
      const { sender, receiver, assetids } = await traders(1);
      const offer = await sendOffer(t, sender, receiver, assetids);
      await advanceClock(t, OFFER_LIFETIME_SECONDS);
      const jobs = (await t.admin("POST", "/sandbox/jobs/run")).json<{
        jobs: Array<{ name: string; processed: number }>;
      }>();
      const expiry = jobs.jobs.find((job) => job.name === "expire-trade-offers");
      assert.ok(expiry && expiry.processed >= 1, JSON.stringify(jobs));
      assert.equal(await stateOf(offer), "expired");

      const late = await answer(offer.tradeofferid, "accept");
      assert.equal(late.statusCode, 409, late.body);
      assert.equal(late.json().code, "Invalid State");
      assert.equal(await itemCount(t, sender.platformid), 1);
      assert.equal(await itemCount(t, receiver.platformid), 0);
      assert.equal((await sendOffer(t, sender, receiver, assetids)).state, "active");
    });
  });

  describe("error", () => {
    test("an item the sender does not hold is refused, whoever holds it, and no offer is made", async () => {
      const { sender, receiver } = await traders(1);
      const theirs = await grantOne(t, receiver.platformid);
      for (const assetid of [theirs, "999999999999"]) {
        await expectRefused(
          await offerRequest(t, sender.platformid, receiver.trade_url, [assetid]),
          409,
          /not in the sender's inventory/,
        );
      }
      assert.deepEqual(await listOffers(t, sender.platformid), []);
      assert.equal(await itemCount(t, receiver.platformid), 1);
    });

    test("an item already in another active offer is refused", async () => {
      const { sender, receiver, assetids } = await traders(2);
      const other = await createAccount(t);
      await sendOffer(t, sender, receiver, [assetids[0]!]);
      await expectRefused(
        await offerRequest(t, sender.platformid, other.trade_url, [assetids[1]!, assetids[0]!]),
        409,
        new RegExp(`item ${assetids[0]} is already in an active trade offer`),
      );
      assert.equal((await listOffers(t, other.platformid)).length, 0);
    });

    test("a wrong trade token or an unknown partner is Invalid State and makes no offer", async () => {
      const { sender, receiver, assetids } = await traders(1);
      const wrongToken = receiver.trade_url.replace(/token=.{8}$/, "token=WRONGtok");
      assert.notEqual(wrongToken, receiver.trade_url);
      const unknownPartner = receiver.trade_url.replace(/partner=\d+/, "partner=4039734270");
      for (const url of [wrongToken, unknownPartner]) {
        const response = await offerRequest(t, sender.platformid, url, assetids);
        assert.equal(response.statusCode, 409, response.body);
        assert.equal(response.json().code, "Invalid State");
      }
      assert.deepEqual(await listOffers(t, sender.platformid), []);
    });

    test("an offer from an account the platform does not have is Not Found", async () => {
      const { receiver, assetids } = await traders(1);
      const response = await offerRequest(t, "76561199999999998", receiver.trade_url, assetids);
      assert.equal(response.statusCode, 404, response.body);
      assert.equal(response.json().msg, "platform account 76561199999999998 does not exist");
    });

    test("a trade URL of another form is refused naming trade_url", async () => {
      const { sender, receiver, assetids } = await traders(1);
      const token = /token=(.{8})$/.exec(receiver.trade_url)?.[1];
      const partner = /partner=(\d+)/.exec(receiver.trade_url)?.[1];
      for (const url of [
        "",
        "not a url",
        `http://steamcommunity.com/tradeoffer/new/?partner=${partner}&token=${token}`,
        `https://steamcommunity.evil/tradeoffer/new/?partner=${partner}&token=${token}`,
        `https://steamcommunity.com/tradeoffer/new/?partner=${partner}`,
        `https://steamcommunity.com/tradeoffer/new/?partner=${partner}&token=${token}x`,
      ]) {
        await expectRefused(await offerRequest(t, sender.platformid, url, assetids), 400, /^trade_url:/);
      }
    });

    test("an account cannot send an offer to itself", async () => {
      const { sender, assetids } = await traders(1);
      await expectRefused(
        await offerRequest(t, sender.platformid, sender.trade_url, assetids),
        400,
        /^trade_url:/,
      );
      assert.deepEqual(await listOffers(t, sender.platformid), []);
    });

    test("assetids must be 1 to 256 distinct numeric ids", async () => {
      const { sender, receiver, assetids } = await traders(1);
      const cases: unknown[] = [
        [],
        [assetids[0], assetids[0]],
        ["abc"],
        [Number(assetids[0])],
        ["1".repeat(16)],
      ];
      for (const ids of cases) {
        const response = await t.admin("POST", "/sandbox/platform/offers", {
          platformid: sender.platformid,
          trade_url: receiver.trade_url,
          assetids: ids,
        });
        assert.equal(response.statusCode, 400, `${JSON.stringify(ids)}: ${response.body}`);
        assert.match(response.json().msg, /^assetids/, JSON.stringify(ids));
      }
    });

    test("a message over 128 characters, a malformed platformid or an unknown field is refused by name", async () => {
      const { sender, receiver, assetids } = await traders(1);
      const base = { platformid: sender.platformid, trade_url: receiver.trade_url, assetids };
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ ...base, message: "m".repeat(129) }, /^message:/],
        [{ ...base, platformid: "123" }, /^platformid:/],
        [{ ...base, receiver: receiver.platformid }, /^receiver: unknown field$/],
        [{ trade_url: receiver.trade_url, assetids }, /^platformid: required$/],
      ];
      for (const [body, message] of cases) {
        const response = await t.admin("POST", "/sandbox/platform/offers", body);
        assert.equal(response.statusCode, 400, JSON.stringify(body));
        assert.match(response.json().msg, message);
      }
      const list = await t.admin("GET", "/sandbox/platform/offers?platformid=123");
      assert.equal(list.statusCode, 400);
      assert.match(list.json().msg, /^platformid:/);
    });

    test("a declined offer cannot be accepted or declined again", async () => {
      const { sender, receiver, assetids } = await traders(1);
      const offer = await sendOffer(t, sender, receiver, assetids);
      assert.equal((await answer(offer.tradeofferid, "decline")).statusCode, 200);
      for (const verb of ["accept", "decline"] as const) {
        const response = await answer(offer.tradeofferid, verb);
        assert.equal(response.statusCode, 409, response.body);
        assert.equal(response.json().code, "Invalid State");
      }
      assert.equal(await itemCount(t, receiver.platformid), 0);
      assert.equal(await stateOf(offer), "declined");
    });

    test("an accepted offer cannot be answered again, and its items move only once", async () => {
      const { sender, receiver, assetids } = await traders(1);
      const offer = await sendOffer(t, sender, receiver, assetids);
      await accept(offer.tradeofferid);
      for (const verb of ["accept", "decline"] as const) {
        const response = await answer(offer.tradeofferid, verb);
        assert.equal(response.statusCode, 409, response.body);
        assert.equal(response.json().code, "Invalid State");
      }
      assert.equal(await itemCount(t, receiver.platformid), 1);
      assert.equal(await stateOf(offer), "accepted");
    });

    test("an unknown offer is Not Found; a malformed offer id is refused naming tradeofferid", async () => {
      for (const verb of ["accept", "decline"] as const) {
        const unknown = await answer("999999999", verb);
        assert.equal(unknown.statusCode, 404, unknown.body);
        const malformed = await answer("abc", verb);
        assert.equal(malformed.statusCode, 400, malformed.body);
        assert.match(malformed.json().msg, /^tradeofferid:/);
      }
    });

    test("an offer past its 12 hours is expired by the first answer to it, before any job runs", async () => {
      const { sender, receiver, assetids } = await traders(1);
      const offer = await sendOffer(t, sender, receiver, assetids);
      await advanceClock(t, OFFER_LIFETIME_SECONDS);
      const late = await answer(offer.tradeofferid, "accept");
      assert.equal(late.statusCode, 409, late.body);
      assert.match(late.json().msg, /has expired/);
      assert.equal(await itemCount(t, receiver.platformid), 0);
      // The answer said the offer has expired, so it must be expired from then on, and its items
      // free to trade again.
      assert.equal(await stateOf(offer), "expired");
      assert.equal((await sendOffer(t, sender, receiver, assetids)).state, "active");
    });
  });

  describe("security", () => {
    test("every offer route needs the sandbox admin token, and a refused call makes or answers nothing", async () => {
      const user = await t.createUser();
      const { sender, receiver, assetids } = await traders(2);
      const offer = await sendOffer(t, sender, receiver, [assetids[0]!]);
      const routes: Array<[InjectOptions["method"], string, unknown]> = [
        ["GET", "/sandbox/platform/offers", undefined],
        ["GET", `/sandbox/platform/offers?platformid=${sender.platformid}`, undefined],
        [
          "POST",
          "/sandbox/platform/offers",
          { platformid: sender.platformid, trade_url: receiver.trade_url, assetids: [assetids[1]] },
        ],
        ["POST", `/sandbox/platform/offers/${offer.tradeofferid}/accept`, undefined],
        ["POST", `/sandbox/platform/offers/${offer.tradeofferid}/decline`, undefined],
      ];
      for (const token of [undefined, user.token, "sma_wrong-admin-token-0000000000"]) {
        for (const [method, url, body] of routes) {
          const response = await t.app.inject({
            method,
            url,
            headers: token ? { authorization: `Bearer ${token}` } : {},
            ...(body === undefined ? {} : { payload: body as InjectOptions["payload"] }),
          });
          assert.equal(response.statusCode, 401, `${method} ${url} with ${token ?? "no token"}`);
          assert.equal(response.json().code, "Unauthorized");
        }
      }
      const listed = await listOffers(t, sender.platformid);
      assert.deepEqual(
        listed.map((candidate) => [candidate.tradeofferid, candidate.state]),
        [[offer.tradeofferid, "active"]],
      );
      assert.equal(await itemCount(t, receiver.platformid), 0);
    });

    test("two offers racing for the same item: exactly one is made", async () => {
      const { sender, receiver, assetids } = await traders(1);
      const other = await createAccount(t);
      const responses = await Promise.all([
        offerRequest(t, sender.platformid, receiver.trade_url, assetids),
        offerRequest(t, sender.platformid, other.trade_url, assetids),
        offerRequest(t, sender.platformid, receiver.trade_url, assetids),
      ]);
      const statuses = responses.map((response) => response.statusCode).sort();
      assert.deepEqual(statuses, [200, 409, 409], responses.map((response) => response.body).join("\n"));
      const active = (await listOffers(t, sender.platformid)).filter((offer) => offer.state === "active");
      assert.equal(active.length, 1);
    });

    test("answers racing on one offer: exactly one wins and the items move at most once", async () => {
      const { sender, receiver, assetids } = await traders(2);
      const offer = await sendOffer(t, sender, receiver, assetids);
      const responses = await Promise.all([
        answer(offer.tradeofferid, "accept"),
        answer(offer.tradeofferid, "accept"),
        answer(offer.tradeofferid, "decline"),
      ]);
      const winners = responses.filter((response) => response.statusCode === 200);
      assert.equal(winners.length, 1, responses.map((response) => response.body).join("\n"));
      for (const loser of responses.filter((response) => response.statusCode !== 200)) {
        assert.equal(loser.statusCode, 409, loser.body);
      }
      const state = winners[0]!.json<TradeOffer>().state;
      assert.equal(await stateOf(offer), state);
      const moved = state === "accepted" ? 2 : 0;
      assert.equal(await itemCount(t, receiver.platformid), moved);
      assert.equal(await itemCount(t, sender.platformid), 2 - moved);
    });

    test("an offer with two receivers' auto_accept racing moves each item once", async () => {
      const { sender, assetids } = await traders(1);
      const first = await createAccount(t);
      const second = await createAccount(t);
      for (const receiver of [first, second]) {
        await t.admin("PUT", `/sandbox/platform/accounts/${receiver.platformid}/auto_accept`, {
          enabled: true,
        });
      }
      const responses = await Promise.all([
        offerRequest(t, sender.platformid, first.trade_url, assetids),
        offerRequest(t, sender.platformid, second.trade_url, assetids),
      ]);
      assert.deepEqual(
        responses.map((response) => response.statusCode).sort(),
        [200, 409],
        responses.map((response) => response.body).join("\n"),
      );
      assert.equal((await itemCount(t, first.platformid)) + (await itemCount(t, second.platformid)), 1);
      assert.equal(await itemCount(t, sender.platformid), 0);
    });
  });
});
