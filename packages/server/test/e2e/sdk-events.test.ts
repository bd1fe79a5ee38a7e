import assert from "node:assert/strict";
import { connect, createServer, type AddressInfo, type Server } from "node:net";
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
 * A TCP relay in front of the server that can turn new connections away (accepted, then closed at
 * once): while it does, a client cut off cannot get back in, so what is made meanwhile is surely
 * made while it is away.
 */
class Relay {
  admitting = true;
  readonly #server: Server;
  private constructor(targetPort: number) {
    this.#server = createServer((client) => {
      if (!this.admitting) {
        client.destroy();
        return;
      }
      const upstream = connect(targetPort, "127.0.0.1");
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      for (const socket of [client, upstream]) {
        socket.on("error", end);
        socket.on("close", end);
      }
      client.pipe(upstream).pipe(client);
    });
  }
  static async start(targetPort: number): Promise<{ relay: Relay; baseUrl: string }> {
    const relay = new Relay(targetPort);
    await new Promise<void>((resolve) => relay.#server.listen(0, "127.0.0.1", resolve));
    return { relay, baseUrl: `http://127.0.0.1:${(relay.#server.address() as AddressInfo).port}` };
  }
  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/**
 * The client SDK's `events()` against the real stream (docs/design/webhooks-and-tools.md#skinmarket-listen): live events of
 * the account, then, on a new iteration after the last id seen, the events made while it was away
 * replayed first, none twice; and the same within one iteration when the server cuts the
 * connection: it reconnects by itself.
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

  test("reconnects by itself when the server cuts the connection, then delivers what was made while it was away, none twice", async () => {
    const { relay, baseUrl: relayed } = await Relay.start(Number(new URL(baseUrl).port));
    const market = new MarketClient({ baseUrl: relayed, token: seller.token });
    const controller = new AbortController();
    const seen: MarketplaceEvent[] = [];
    const connections: string[] = [];
    const drops: string[] = [];
    let missed: string[] = [];
    let wake: () => void = () => undefined;
    /** Waits until `done()` holds, woken by each event, connection and drop (the runner's timeout bounds it). */
    const until = async (done: () => boolean) => {
      while (!done()) await new Promise<void>((resolve) => (wake = resolve));
    };
    const reading = (async () => {
      for await (const event of market.events({
        types: ["listing.*"],
        signal: controller.signal,
        reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
        onConnected: ({ after }) => {
          connections.push(after);
          wake();
        },
        onReconnecting: ({ reason }) => {
          drops.push(reason);
          wake();
        },
      })) {
        seen.push(event);
        wake();
        // The last listing ends the iteration: one lost or repeated on the way fails below, not waits.
        if ((event.data as { price: string }).price === "10.00") controller.abort();
      }
    })();
    try {
      await until(() => connections.length === 1);
      await list(7);
      await until(() => seen.length === 1);
      // The server's end of every stream is destroyed (no close frame: a crash or a lost route), and
      // the relay turns the client away until the listings below are committed.
      relay.admitting = false;
      assert.equal(t.app.websocketServer.clients.size, 1, "this iteration's connection only");
      for (const socket of t.app.websocketServer.clients) socket.terminate();
      await until(() => drops.length > 0);
      assert.match(drops[0]!, /closed by the server \(code 1006/);
      missed = [await list(8), await list(9)];
      relay.admitting = true;
      await until(() => connections.length === 2);
      await list(10);
      await reading;
    } finally {
      controller.abort();
      await relay.close();
    }
    assert.deepEqual(
      connections[1],
      seen[0]!.id,
      "the new connection resumes after the last event delivered",
    );
    assert.deepEqual(
      seen.map((event) => [event.type, (event.data as { price: string }).price]),
      [
        ["listing.created", "7.00"],
        ["listing.created", "8.00"],
        ["listing.created", "9.00"],
        ["listing.created", "10.00"],
      ],
    );
    assert.deepEqual(
      seen.slice(1, 3).map((event) => (event.data as { id: string }).id),
      missed,
      "what was made while it was away, replayed",
    );
    const ids = seen.map((event) => BigInt(event.id));
    assert.equal(new Set(ids).size, ids.length, "no event twice");
    assert.deepEqual(
      [...ids].sort((a, b) => (a < b ? -1 : 1)),
      ids,
      "in id order",
    );
  });
});
