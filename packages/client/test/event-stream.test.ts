import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import type { MarketplaceEvent } from "@skinmarket/contract";
import { MarketApiError } from "../src/errors.ts";
import { MarketStreamError, streamUrl } from "../src/event-stream.ts";
import { MarketClient } from "../src/market-client.ts";
import { FAKE_TOKEN, FakeStreamServer } from "./fake-stream-server.ts";

/** Reconnect at once: the tests check what is sent again, not how long the client waits. */
const QUICK = { initialDelayMs: 1, maxDelayMs: 5 };

async function take(events: AsyncGenerator<MarketplaceEvent>, count: number): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < count) {
    const next = await events.next();
    assert.equal(next.done, false, "the iteration ended early");
    ids.push((next.value as MarketplaceEvent).id);
  }
  return ids;
}

/**
 * `MarketClient.events()` against a fake of the stream's server side (test/fake-stream-server.ts),
 * which speaks the stream protocol: welcome, subscribe, replay after an id, live events, heartbeats,
 * close codes.
 */
describe("MarketClient.events", () => {
  let server: FakeStreamServer;
  let client: MarketClient;

  before(async () => {
    server = await FakeStreamServer.start();
  });
  after(() => server.close());
  beforeEach(() => {
    server.drop();
    server.log.length = 0;
    server.subscriptions.length = 0;
    server.upgrades.length = 0;
    server.heartbeatMs = 15_000;
    server.silent = false;
    server.refuseWith = undefined;
    server.replayOverlap = 0;
    client = new MarketClient({ baseUrl: server.baseUrl, token: FAKE_TOKEN });
  });

  test("happy: the stream's URL follows the base URL's scheme", () => {
    assert.equal(streamUrl("http://127.0.0.1:8080"), "ws://127.0.0.1:8080/api/market/developer/stream");
    assert.equal(streamUrl("https://market.example/"), "wss://market.example/api/market/developer/stream");
  });

  test("happy: subscribes with the token, channels, types and after; replays, then delivers live events", async () => {
    server.publish("balance.changed");
    server.publish("trade.created");
    server.publish("trade.delivered");
    const events = client.events({ types: ["trade.*"], after: "101", reconnect: QUICK });
    assert.deepEqual(await take(events, 2), ["102", "103"]);
    assert.deepEqual(server.subscriptions, [{ channels: ["account"], after: "101", types: ["trade.*"] }]);
    assert.equal(server.upgrades[0]!.authorization, `Bearer ${FAKE_TOKEN}`);
    server.publish("balance.changed");
    server.publish("trade.cancelled");
    assert.deepEqual(await take(events, 1), ["105"]);
    await events.return(undefined);
  });

  test("happy: without after, the first subscription starts after the newest event the welcome named", async () => {
    server.publish("balance.changed");
    const events = client.events({ reconnect: QUICK });
    const first = events.next();
    await server.subscribedTimes(1);
    assert.equal(server.subscriptions[0]!.after, "101");
    server.publish("listing.created");
    assert.equal((await first).value?.id, "102");
    await events.return(undefined);
  });

  test("happy: a dropped connection is reopened and resumes after the last event delivered, no gap, no duplicate", async () => {
    server.publish("trade.created");
    const events = client.events({ after: "100", reconnect: QUICK });
    assert.deepEqual(await take(events, 1), ["101"]);
    server.replayOverlap = 1; // the next replay repeats 101: the client must not deliver it again
    server.drop();
    server.publish("trade.delivered"); // while no connection is open: replayed on resumption
    const more = take(events, 2);
    await server.subscribedTimes(2);
    server.publish("balance.changed");
    assert.deepEqual(await more, ["102", "103"]);
    assert.equal(server.subscriptions[1]!.after, "101");
    await events.return(undefined);
  });

  test("happy: a server closing with 1001 or 4008 is reconnected to", async () => {
    server.publish("trade.created");
    const events = client.events({ after: "100", reconnect: QUICK });
    assert.deepEqual(await take(events, 1), ["101"]);
    // The generator runs while it is read: the next read is waiting when the server closes.
    const more = take(events, 1);
    server.closeAll(1001, "shutting down");
    await server.subscribedTimes(2);
    server.sendToAll({ type: "dropped", reason: "slow_consumer" });
    server.closeAll(4008, "slow consumer");
    await server.subscribedTimes(3);
    server.publish("trade.delivered");
    assert.deepEqual(await more, ["102"]);
    assert.deepEqual(
      server.subscriptions.map((subscription) => subscription.after),
      ["100", "101", "101"],
    );
    await events.return(undefined);
  });

  test("happy: a connection silent for two heartbeats is taken for dead and replaced", async () => {
    server.heartbeatMs = 20;
    server.silent = true; // announces a heartbeat every 20 ms, sends none
    const events = client.events({ after: "100", reconnect: QUICK });
    const first = events.next();
    await server.subscribedTimes(2);
    server.silent = false;
    server.publish("trade.created");
    assert.equal((await first).value?.id, "101");
    await events.return(undefined);
  });

  test("happy: aborting the signal ends the iteration without an error, also while waiting to reconnect", async () => {
    const controller = new AbortController();
    const events = client.events({ after: "100", signal: controller.signal, reconnect: QUICK });
    const pending = events.next();
    await server.subscribedTimes(1);
    controller.abort();
    assert.deepEqual(await pending, { done: true, value: undefined });

    const waiting = new AbortController();
    server.refuseWith = { status: 503, body: { code: "Unavailable", msg: "starting" } };
    const retrying = client.events({
      signal: waiting.signal,
      reconnect: { initialDelayMs: 60_000 },
      onReconnecting: () => waiting.abort(),
    });
    assert.deepEqual(await retrying.next(), { done: true, value: undefined });
  });

  test("error: reconnect false ends the iteration with connection_lost when the connection drops", async () => {
    const events = client.events({ after: "100", reconnect: false });
    const pending = events.next();
    await server.subscribedTimes(1);
    server.drop();
    await assert.rejects(pending, (error: unknown) => {
      assert.ok(error instanceof MarketStreamError);
      assert.equal(error.code, "connection_lost");
      return true;
    });
  });

  test("error: a refused subscription ends the iteration with the server's code and message", async () => {
    const events = client.events({ after: "100", reconnect: QUICK });
    const pending = events.next();
    await server.subscribedTimes(1);
    server.sendToAll({ type: "error", code: "invalid_argument", message: "channels[0]: unknown goods" });
    await assert.rejects(pending, /invalid_argument|unknown goods/);
    await assert.rejects(
      pending,
      (error: unknown) => error instanceof MarketStreamError && error.code === "invalid_argument",
    );
  });

  test("error: bad channels, types or after are refused before connecting, naming the field", async () => {
    const cases: Array<[Parameters<MarketClient["events"]>[0], RegExp]> = [
      [{ channels: [] }, /^channels:/],
      [{ channels: ["account", "everything"] }, /^channels\[1\]:/],
      [{ types: ["trade.*", "trade.exploded"] }, /^types: "trade.exploded"/],
      [{ after: "yesterday" }, /^after:/],
    ];
    for (const [options, message] of cases) {
      await assert.rejects(client.events(options).next(), (error: unknown) => {
        assert.ok(error instanceof TypeError);
        assert.match(error.message, message);
        return true;
      });
    }
    assert.equal(server.upgrades.length, 0);
  });

  test("security: a refused token ends the iteration with the API's 401, not retried", async () => {
    const stranger = new MarketClient({ baseUrl: server.baseUrl, token: "smk_wrong" });
    await assert.rejects(stranger.events({ reconnect: QUICK }).next(), (error: unknown) => {
      assert.ok(error instanceof MarketApiError);
      assert.equal(error.status, 401);
      assert.equal(error.code, "Unauthorized");
      return true;
    });
    assert.equal(server.upgrades.length, 1);
  });

  test("security: close code 4001 (token revoked) ends the iteration with an error, not retried", async () => {
    const events = client.events({ after: "100", reconnect: QUICK });
    const pending = events.next();
    await server.subscribedTimes(1);
    server.closeAll(4001, "token revoked");
    await assert.rejects(pending, (error: unknown) => {
      assert.ok(error instanceof MarketStreamError);
      assert.equal(error.code, "token_revoked");
      assert.equal(error.closeCode, 4001);
      return true;
    });
    assert.equal(server.upgrades.length, 1);
  });

  test("error: a 503 on the upgrade is retried until the server accepts", async () => {
    server.refuseWith = { status: 503, body: { code: "Unavailable", msg: "starting" } };
    const reasons: string[] = [];
    const events = client.events({
      after: "100",
      reconnect: QUICK,
      onReconnecting: ({ reason }) => {
        reasons.push(reason);
        server.refuseWith = undefined;
      },
    });
    const pending = events.next();
    await server.subscribedTimes(1);
    server.publish("trade.created");
    assert.equal((await pending).value?.id, "101");
    assert.match(reasons[0]!, /503/);
    await events.return(undefined);
  });
});
