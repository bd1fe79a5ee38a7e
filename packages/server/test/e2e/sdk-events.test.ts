import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MarketClient } from "@skinmarket/client";
import type { MarketplaceEvent } from "@skinmarket/contract";
import {
  createTraderWithAccount,
  grant,
  uploadCookies,
  type PlatformFixture,
} from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const STICKER = "Sticker | Crown (Foil)";

/**
 * The client SDK's `events()` against the real stream (docs/design.md section 14): live events of
 * the account, then, on a new iteration after the last id seen, the events made while it was away
 * replayed first, none twice.
 */
describe("the client's events() on a listening server", () => {
  let t: TestApp;
  let baseUrl: string;
  let seller: PlatformFixture;

  before(async () => {
    t = await createTestApp({ catalog: true, stream: { heartbeatMs: 500 } });
    baseUrl = (await t.app.listen({ port: 0, host: "127.0.0.1" })).replace("localhost", "127.0.0.1");
    seller = await createTraderWithAccount(t, "sdk-events-seller");
    await uploadCookies(t, seller);
    await t.as(seller.token, "POST", "/api/market/developer/platform/setup", {
      platformid: seller.platformid,
    });
  });
  after(() => t.close());

  const list = async (price: number): Promise<string> => {
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 1 });
    const answer = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price }],
    });
    assert.equal(answer.statusCode, 200, answer.body);
    return answer.json().sell_orders[assetid!].sell_order_id as string;
  };

  /** The first `count` events of an iteration, each list made once the stream is subscribed. */
  const take = async (options: { after?: string }, count: number, whileOpen: () => Promise<void>) => {
    const market = new MarketClient({ baseUrl, token: seller.token });
    const controller = new AbortController();
    const seen: MarketplaceEvent[] = [];
    let subscribed: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (subscribed = resolve));
    const reading = (async () => {
      for await (const event of market.events({
        types: ["listing.*"],
        signal: controller.signal,
        onConnected: () => subscribed(),
        ...options,
      })) {
        seen.push(event);
        if (seen.length === count) controller.abort();
      }
    })();
    await ready;
    await whileOpen();
    await reading;
    return seen;
  };

  test("live events arrive in order; a later iteration after the last id replays what it missed, once", async () => {
    const first = await take({}, 2, async () => {
      await list(7);
      await list(8);
    });
    assert.deepEqual(
      first.map((event) => [event.type, (event.data as { price: string }).price]),
      [
        ["listing.created", "7.00"],
        ["listing.created", "8.00"],
      ],
    );
    const last = first.at(-1)!.id;
    // Made while nobody listened.
    const missed = [await list(9), await list(10)];
    const resumed = await take({ after: last }, 3, async () => {
      await list(11);
    });
    assert.deepEqual(
      resumed.slice(0, 2).map((event) => (event.data as { id: string }).id),
      missed,
      "what was made while away comes first",
    );
    assert.deepEqual(
      resumed.map((event) => (event.data as { price: string }).price),
      ["9.00", "10.00", "11.00"],
    );
    const ids = [...first, ...resumed].map((event) => BigInt(event.id));
    assert.equal(new Set(ids).size, ids.length, "no event twice");
    assert.deepEqual(
      [...ids].sort((a, b) => (a < b ? -1 : 1)),
      ids,
      "in id order",
    );
  });
});
