import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { WebSocket } from "ws";
import {
  createTraderWithAccount,
  grant,
  uploadCookies,
  type PlatformFixture,
} from "../support/platform-world.ts";
import { RefusedUpgrade, StreamClient, type StreamMessage } from "../support/stream-client.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { highestEventId } from "../support/event-ids.ts";
import { TEST_TEMPLATES_VARIABLE } from "../support/test-templates.ts";

const STICKER = "Sticker | Crown (Foil)";
/** The ids of the events among `messages`, in the order they arrived. */
const eventIds = (messages: readonly StreamMessage[]) =>
  messages.filter((message) => message.type === "event").map((message) => message.event!.id);
const REDLINE = "AK-47 | Redline (Field-Tested)";

/**
 * The event stream (docs/design/event-stream.md#shutdown) on a listening server, through the `ws` client:
 * who may open it, what a subscription carries, resuming without gap or duplicate, exactly once
 * under concurrent writes, slow consumers, heartbeats, revocation and shutdown.
 */
describe("GET /api/market/developer/stream (WebSocket)", () => {
  let t: TestApp;
  let url: string;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let stickerId: number;
  const post = (token: string, path: string, body: unknown) =>
    t.as(token, "POST", `/api/market/developer/${path}`, body);
  /** Every account event of `token` after `afterId`, by polling. */
  const polled = async (token: string, afterId: string): Promise<string[]> => {
    const ids: string[] = [];
    let cursor = afterId;
    for (;;) {
      const response = await t.as(token, "GET", `/api/market/developer/events?after=${cursor}&limit=1000`);
      assert.equal(response.statusCode, 200, response.body);
      const page = response.json<{ items: { id: string }[]; has_more: boolean }>();
      ids.push(...page.items.map((item) => item.id));
      if (!page.has_more) return ids;
      cursor = page.items.at(-1)!.id;
    }
  };

  before(async () => {
    t = await createTestApp({
      catalog: true,
      corsOrigins: ["https://dash.example"],
      stream: { heartbeatMs: 300 },
    });
    url = await t.app.listen({ port: 0, host: "127.0.0.1" });
    seller = await createTraderWithAccount(t, "stream-seller");
    buyer = await createTraderWithAccount(t, "stream-buyer");
    for (const trader of [seller, buyer]) {
      await uploadCookies(t, trader);
      await post(trader.token, "platform/setup", { platformid: trader.platformid });
    }
    stickerId = (
      await t.database.db
        .selectFrom("goods")
        .select("goods_id")
        .where("market_hash_name", "=", STICKER)
        .executeTakeFirstOrThrow()
    ).goods_id;
  });
  after(() => t.close());

  describe("opening", () => {
    const refusal = async (headers: Record<string, string>): Promise<RefusedUpgrade> => {
      const error = await StreamClient.open(url, headers).then(
        (client) => {
          client.socket.terminate();
          throw new Error("the upgrade was accepted");
        },
        (refused: unknown) => refused,
      );
      assert.ok(error instanceof RefusedUpgrade, String(error));
      return error;
    };

    test("happy: a developer token opens it; welcome names the user, the log's position and the heartbeat", async () => {
      const client = await StreamClient.withToken(url, seller.token);
      const welcome = await client.nextOfType("welcome");
      assert.equal(welcome.user_id, seller.userId);
      assert.match(String(welcome.last_event_id), /^\d+$/);
      assert.equal(welcome.heartbeat_ms, 300);
      await client.close();
    });

    test("security: no token is 401 with the usual error body, not a WebSocket", async () => {
      const refused = await refusal({});
      assert.equal(refused.status, 401);
      assert.equal(refused.body.code, "Unauthorized");
      assert.match(String(refused.body.msg), /Authorization/);
    });

    test("security: an unknown or malformed token is 401", async () => {
      assert.equal((await refusal({ authorization: `Bearer smk_${"x".repeat(43)}` })).status, 401);
      assert.equal((await refusal({ authorization: "Bearer nonsense" })).status, 401);
    });

    test("security: the session from a foreign origin is 403 (cross-site WebSocket hijacking); from the own or a listed origin it opens", async () => {
      const user = await t.createUser({ nickname: "stream-web" });
      const session = await t.signIn(user.nickname, user.password);
      const foreign = await refusal({ cookie: session.cookie, origin: "https://evil.example" });
      assert.equal(foreign.status, 403);
      assert.match(String(foreign.body.msg), /origin/);
      assert.equal((await refusal({ cookie: session.cookie })).status, 403, "no Origin at all");
      for (const origin of [url, "https://dash.example"]) {
        const client = await StreamClient.open(url, { cookie: session.cookie, origin });
        assert.equal((await client.nextOfType("welcome")).user_id, user.userId);
        await client.close();
      }
      // A signed-out session is refused even from the own origin.
      assert.equal((await refusal({ cookie: "session=0123456789abcdef", origin: url })).status, 401);
    });

    test("error: a plain GET without the upgrade is 400 naming the upgrade", async () => {
      const response = await fetch(`${url}/api/market/developer/stream`, {
        headers: { authorization: `Bearer ${seller.token}` },
      });
      assert.equal(response.status, 400);
      assert.match(((await response.json()) as { msg: string }).msg, /^upgrade: /);
    });

    test("/metrics counts the open streams", async () => {
      const gauge = async () =>
        Number(/^skinmarket_event_streams (\d+)$/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1]);
      const before = await gauge();
      const client = await StreamClient.withToken(url, seller.token);
      await client.nextOfType("welcome");
      assert.equal(await gauge(), before + 1);
      await client.close();
    });
  });

  test("error: bad subscriptions answer an error naming the field, and the stream stays", async () => {
    const client = await StreamClient.withToken(url, seller.token);
    const cases: [unknown, RegExp][] = [
      ["not json", /^message: /],
      [[1], /^message: /],
      [{ op: "listen" }, /^op: /],
      [{ op: "subscribe" }, /^channels: /],
      [{ op: "subscribe", channels: [] }, /^channels: /],
      [{ op: "subscribe", channels: ["account", "book:abc"] }, /^channels\[1\]: "book:abc"/],
      [{ op: "subscribe", channels: ["prices:0"] }, /^channels\[0\]: /],
      [
        { op: "subscribe", channels: Array.from({ length: 101 }, (_, i) => `book:${i + 1}`) },
        /^channels: at most 100/,
      ],
      [{ op: "subscribe", channels: ["account"], after: 12 }, /^after: /],
      [{ op: "subscribe", channels: ["account"], after: "-1" }, /^after: /],
      [{ op: "subscribe", channels: ["account"], types: ["trade.*", "nope.*"] }, /^types\[1\]: "nope\.\*"/],
      [{ op: "subscribe", channels: ["account"], extra: true }, /^extra: unknown field/],
    ];
    for (const [message, expected] of cases) {
      client.send(typeof message === "string" ? message : JSON.stringify(message));
      const error = await client.next((received) => received.type === "error");
      assert.equal(error.code, "invalid_argument");
      assert.match(String(error.message), expected, JSON.stringify(message));
    }
    client.send({ op: "ping" });
    await client.nextOfType("pong");
    await client.close();
  });

  test("error: a message over 16 KiB closes the stream with 1009; one of 16 KiB is answered", async () => {
    const client = await StreamClient.withToken(url, seller.token);
    await client.nextOfType("welcome");
    client.send("x".repeat(16 * 1024));
    assert.match(String((await client.nextOfType("error")).message), /^message: /);
    client.send("x".repeat(16 * 1024 + 1));
    assert.equal((await client.closed).code, 1009);
  });

  test("happy: a listing reaches the seller's `account` and the goods' `book:`; a purchase the buyer's `account`", async () => {
    const sellerStream = await StreamClient.withToken(url, seller.token);
    const subscribed = await sellerStream.subscribe({ channels: ["account", `book:${stickerId}`] });
    assert.deepEqual(subscribed.channels, ["account", `book:${stickerId}`]);
    const buyerStream = await StreamClient.withToken(url, buyer.token);
    await buyerStream.subscribe({ channels: ["account"], types: ["trade.*"] });
    const watcher = await StreamClient.withToken(url, buyer.token);
    await watcher.subscribe({ channels: [`prices:${stickerId}`] });

    const [assetid] = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 1 });
    const listed = await post(seller.token, "sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price: 7 }],
    });
    assert.equal(listed.statusCode, 200, listed.body);
    const listingId = listed.json().sell_orders[assetid!].sell_order_id as string;
    const created = await sellerStream.next((message) => message.event?.type === "listing.created");
    assert.equal(created.channel, "account");
    assert.equal(created.event!.data.id, listingId);
    assert.equal(created.event!.goods_id, stickerId);
    const added = await sellerStream.next((message) => message.event?.type === "market.listing_added");
    assert.equal(added.channel, `book:${stickerId}`);
    assert.equal(added.event!.data.id, listingId);
    assert.equal("description" in added.event!.data, false, "the book's public record");
    const price = await watcher.next((message) => message.type === "event");
    assert.equal(price.event!.type, "market.price_changed");
    assert.equal(price.channel, `prices:${stickerId}`);
    assert.equal(price.event!.data.sell_min_price, "7.00");

    await t.fund(buyer.userId, "balance", 10);
    const bought = await post(buyer.token, "purchase/orders", {
      game: "cs2",
      items: [{ goods_id: stickerId, max_price: 7, quantity: 1 }],
    });
    assert.equal(bought.statusCode, 200, bought.body);
    const tradeId = bought.json().result[String(stickerId)].bill_order_ids[0] as string;
    const trade = await buyerStream.next((message) => message.type === "event");
    assert.equal(trade.event!.type, "trade.created", "the type filter keeps balance.changed out");
    assert.equal(trade.event!.data.id, tradeId);
    const sold = await sellerStream.next((message) => message.event?.type === "market.listing_removed");
    assert.equal(sold.channel, `book:${stickerId}`);
    // Every event the seller's stream got is one the seller could poll or the public book's: each once.
    const ids = sellerStream.messages
      .filter((message) => message.type === "event")
      .map((message) => message.event!.id);
    assert.equal(new Set(ids).size, ids.length, "no event twice");
    await Promise.all([sellerStream.close(), buyerStream.close(), watcher.close()]);
  });

  test("happy: buy orders reach the goods' `book:` as the public book's records; an offline buyer's make none", async () => {
    const bidder = buyer;
    await t.fund(bidder.userId, "balance", 50);
    const watcher = await StreamClient.withToken(url, seller.token);
    await watcher.subscribe({
      channels: [`book:${stickerId}`],
      types: ["market.buy_order_added", "market.buy_order_changed", "market.buy_order_removed"],
    });

    const placed = await post(bidder.token, "buy_order", {
      game: "cs2",
      goods_id: stickerId,
      price: "3.10",
      num: 2,
    });
    assert.equal(placed.statusCode, 200, placed.body);
    const orderId = placed.json().id as string;
    const added = await watcher.next((message) => message.type === "event");
    assert.equal(added.event!.type, "market.buy_order_added");
    assert.equal(added.channel, `book:${stickerId}`);
    const book = await t.app.inject({
      method: "GET",
      url: `/api/market/goods/buy_order?game=csgo&goods_id=${stickerId}`,
    });
    const shown = book.json().data.items.find((item: { id: string }) => item.id === orderId);
    assert.deepEqual(added.event!.data, shown, "the record `goods/buy_order` answers");

    const offline = await t.as(bidder.token, "PUT", "/api/market/developer/buy_order/status", {
      buy_order_status: "offline",
    });
    assert.equal(offline.statusCode, 200, offline.body);
    const hidden = await post(bidder.token, "buy_order", {
      game: "cs2",
      goods_id: stickerId,
      price: "3.20",
      num: 1,
    });
    assert.equal(hidden.statusCode, 200, hidden.body);
    // A poll runs a sequencer round first: the offline order's creation is sequenced while its buyer
    // is still offline, not after the buyer is back online (when it would rightly be public).
    const polled = await t.as(bidder.token, "GET", "/api/market/developer/events");
    assert.equal(polled.statusCode, 200, polled.body);
    await t.as(bidder.token, "PUT", "/api/market/developer/buy_order/status", { buy_order_status: "online" });

    const cancelled = await t.as(bidder.token, "DELETE", "/api/market/developer/buy_order", {
      game: "cs2",
      buy_order_ids: [orderId, hidden.json().id],
    });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    const removed = await watcher.next((message) => message.type === "event");
    assert.equal(removed.event!.type, "market.buy_order_removed", "the offline order made no public event");
    assert.equal(removed.event!.data.id, orderId);
    assert.equal(removed.event!.data.state, "failed", "a cancelled order, as the book states it");
    await watcher.close();
  });

  test("happy: `prices` carries every goods' market.price_changed, and no other market event", async () => {
    const redlineId = (
      await t.database.db
        .selectFrom("goods")
        .select("goods_id")
        .where("market_hash_name", "=", REDLINE)
        .executeTakeFirstOrThrow()
    ).goods_id;
    // Each step is sequenced (a poll runs a round) before the next: one price event per step.
    const sequenced = async () =>
      assert.equal((await t.as(seller.token, "GET", "/api/market/developer/events?limit=1")).statusCode, 200);
    await sequenced(); // what earlier tests committed is in the log before `from`
    const watcher = await StreamClient.withToken(url, buyer.token);
    const subscribed = await watcher.subscribe({ channels: ["prices"] });
    assert.deepEqual(subscribed.channels, ["prices"]);
    const from = await highestEventId(t.database.db);
    const listed: string[] = [];
    for (const [goods, price] of [
      [STICKER, "1.50"],
      [REDLINE, "30.00"],
    ] as const) {
      const [assetid] = await grant(t, seller.platformid, { market_hash_name: goods, count: 1 });
      const answer = await post(seller.token, "sell_order/items", {
        game: "cs2",
        assets: [{ assetid, price }],
      });
      assert.equal(answer.statusCode, 200, answer.body);
      listed.push(answer.json().sell_orders[assetid!].sell_order_id as string);
      await sequenced();
    }
    for (const id of listed) {
      const withdrawn = await t.as(seller.token, "DELETE", "/api/market/developer/sell_order/items", {
        game: "cs2",
        sell_orders: [id],
      });
      assert.equal(withdrawn.statusCode, 200, withdrawn.body);
      await sequenced();
    }
    const written = await t.database.db
      .selectFrom("events")
      .select(["event_id", "type"])
      .where("user_id", "is", null)
      .where("event_id", ">", from)
      .orderBy("event_id")
      .execute();
    assert.ok(
      written.some((event) => event.type === "market.listing_added"),
      "the market had other events meanwhile",
    );
    const priceIds = written
      .filter((event) => event.type === "market.price_changed")
      .map((event) => String(event.event_id));
    const received = (await watcher.eventsUpTo(Number(priceIds.at(-1)))).filter(
      (message) => Number(message.event!.id) > from,
    );
    assert.deepEqual(
      received.map((message) => message.event!.id),
      priceIds,
      "every price event, once, in order",
    );
    assert.ok(received.every((message) => message.channel === "prices"));
    const moves = received.map((message) => [
      message.event!.goods_id,
      message.event!.data.previous_sell_min_price,
      message.event!.data.sell_min_price,
    ]);
    const [stickerBefore, redlineBefore] = [moves[0]![1], moves[1]![1]];
    assert.deepEqual(moves, [
      [stickerId, stickerBefore, "1.50"],
      [redlineId, redlineBefore, "30.00"],
      [stickerId, "1.50", stickerBefore],
      [redlineId, "30.00", redlineBefore],
    ]);
    await watcher.close();
  });

  test("resume: after a reconnect with `after`, exactly the events since, no gap and no duplicate, while more arrive", async () => {
    const user = await t.createUser({ nickname: "stream-resume" });
    const first = await StreamClient.withToken(url, user.token);
    await first.subscribe({ channels: ["account"] });
    for (let index = 0; index < 3; index++) await t.fund(user.userId, "balance", 1);
    const seen = await first.eventsUpTo(Number((await polled(user.token, "0")).at(-1)));
    await first.close();
    const lastSeen = seen.at(-1)!.event!.id;
    // While away: more events, then more during the replay.
    for (let index = 0; index < 5; index++) await t.fund(user.userId, "balance", 1);
    const second = await StreamClient.withToken(url, user.token);
    second.send({ op: "subscribe", channels: ["account"], after: lastSeen });
    const during = Promise.all(Array.from({ length: 5 }, () => t.fund(user.userId, "balance", 1)));
    await during;
    const expected = await polled(user.token, lastSeen);
    assert.equal(expected.length, 10);
    const received = await second.eventsUpTo(Number(expected.at(-1)));
    assert.deepEqual(
      received.map((message) => message.event!.id),
      expected,
    );
    assert.deepEqual(
      [...seen, ...received].map((message) => message.event!.id),
      await polled(user.token, "0"),
      "both streams together are the whole account, in order",
    );
    await second.close();
  });

  test("exactly once: events sequenced while many writes commit at once reach each subscriber once, in order", async () => {
    const users = await Promise.all(
      [1, 2, 3].map((index) => t.createUser({ nickname: `stream-many-${index}` })),
    );
    const streams = await Promise.all(users.map((user) => StreamClient.withToken(url, user.token)));
    await Promise.all(streams.map((stream) => stream.subscribe({ channels: ["account"] })));
    const market = await StreamClient.withToken(url, seller.token);
    await market.subscribe({ channels: ["market"] });
    const from = await highestEventId(t.database.db);
    const assets = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 6 });
    await Promise.all([
      ...users.flatMap((user) => Array.from({ length: 8 }, () => t.fund(user.userId, "balance", 1))),
      ...assets.map((assetid, index) =>
        post(seller.token, "sell_order/items", { game: "cs2", assets: [{ assetid, price: 20 + index }] }),
      ),
    ]);
    const last = await highestEventId(t.database.db);
    for (const [index, user] of users.entries()) {
      const expected = await polled(user.token, String(from));
      assert.equal(expected.length, 8);
      const received = (await streams[index]!.eventsUpTo(Number(expected.at(-1)))).map(
        (message) => message.event!.id,
      );
      assert.deepEqual(received, expected);
    }
    const publicIds = (
      await t.database.db
        .selectFrom("events")
        .select("event_id")
        .where("user_id", "is", null)
        .where("event_id", ">", from)
        .where("event_id", "<=", last)
        .orderBy("event_id")
        .execute()
    ).map((row) => String(row.event_id));
    const marketIds = (await market.eventsUpTo(Number(publicIds.at(-1))))
      .map((message) => message.event!.id)
      .filter((id) => Number(id) > from && Number(id) <= last);
    assert.deepEqual(
      marketIds,
      publicIds,
      "later market price events may follow; up to the writes' last event, none is missing or repeated",
    );
    await Promise.all([...streams, market].map((stream) => stream.close()));
  });

  test("exactly once: `market` alone (taken a slice at a time), with a type filter, beside `account`, resumed, and changed while events flow", async () => {
    const from = await highestEventId(t.database.db);
    const plain = await StreamClient.withToken(url, buyer.token);
    await plain.subscribe({ channels: ["market"] });
    const filtered = await StreamClient.withToken(url, buyer.token);
    await filtered.subscribe({ channels: ["market"], types: ["market.listing_added"] });
    const both = await StreamClient.withToken(url, seller.token);
    await both.subscribe({ channels: ["market", "account"] });
    const switching = await StreamClient.withToken(url, seller.token);
    await switching.subscribe({ channels: ["market"] });
    const assets = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 12 });
    const list = (assetid: string, index: number) =>
      post(seller.token, "sell_order/items", { game: "cs2", assets: [{ assetid, price: 40 + index }] });
    // A replay of thousands of events (pages of 500) is under way while the first half commits.
    await sql`
      INSERT INTO event_outbox (type, user_id, goods_id, subject)
      SELECT 'market.reset', NULL, NULL, '{}'::jsonb FROM generate_series(1, 3000)`.execute(t.database.db);
    await t.app.eventStreams.eventLog.catchUp();
    const late = await StreamClient.withToken(url, buyer.token);
    // Resumes from before every write: replayed, then live, each once and in order.
    const firstHalf = Promise.all(assets.slice(0, 6).map(list));
    late.send({ op: "subscribe", channels: ["market"], after: String(from) });
    await firstHalf;
    // Out of `market` alone and back while the second half commits.
    await switching.subscribe({ channels: ["account"] });
    const secondHalf = Promise.all(assets.slice(6).map((assetid, index) => list(assetid, index + 6)));
    switching.send({ op: "unsubscribe", channels: ["account"] });
    await secondHalf;
    // Everything committed is sequenced before the log is read.
    await t.app.eventStreams.eventLog.catchUp();
    const last = await highestEventId(t.database.db);
    const logged = await t.database.db
      .selectFrom("events")
      .select(["event_id", "type", "user_id"])
      .where("event_id", ">", from)
      .where("event_id", "<=", last)
      .orderBy("event_id")
      .execute();
    const ids = (rows: typeof logged) => rows.map((row) => String(row.event_id));
    const publicIds = ids(logged.filter((row) => row.user_id === null));
    assert.ok(publicIds.length >= 12, `at least a market.listing_added each: ${publicIds.length}`);
    const received = async (client: StreamClient, upTo: number) =>
      (await client.eventsUpTo(upTo)).filter(
        (message) => Number(message.event!.id) > from && Number(message.event!.id) <= last,
      );
    const lastPublic = Number(publicIds.at(-1));
    for (const [name, client] of [
      ["market alone", plain],
      ["resumed", late],
      ["changed while events flow", switching],
    ] as const) {
      const messages = await received(client, lastPublic);
      const publicOnes = messages.filter((message) => message.channel === "market");
      assert.deepEqual(eventIds(publicOnes), publicIds, `${name}: every public event once, in order`);
    }
    const added = ids(logged.filter((row) => row.user_id === null && row.type === "market.listing_added"));
    assert.equal(added.length, 12);
    const filteredIds = eventIds(await received(filtered, Number(added.at(-1))));
    assert.deepEqual(filteredIds, added, "the type filter keeps only listings added");
    const sellers = ids(
      logged.filter((row) => row.user_id === null || row.user_id === Number(seller.userId)),
    );
    const bothMessages = await received(both, Number(sellers.at(-1)));
    assert.deepEqual(eventIds(bothMessages), sellers, "market and account together, merged in id order");
    for (const message of bothMessages)
      assert.equal(message.channel, message.event!.type.startsWith("market.") ? "market" : "account");
    await Promise.all([plain, filtered, both, switching, late].map((stream) => stream.close()));
  });

  test("unsubscribe: a goods' `book:` channel let go carries nothing more; the channels kept go on", async () => {
    const client = await StreamClient.withToken(url, seller.token);
    await client.subscribe({ channels: [`book:${stickerId}`, "account"] });
    client.send({ op: "unsubscribe", channels: [`book:${stickerId}`] });
    await client.nextOfType("unsubscribed");
    const from = await highestEventId(t.database.db);
    const [assetid] = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 1 });
    await post(seller.token, "sell_order/items", { game: "cs2", assets: [{ assetid, price: 55 }] });
    const accountIds = await polled(seller.token, String(from));
    assert.ok(accountIds.length > 0, "the listing is an account event");
    const received = (await client.eventsUpTo(Number(accountIds.at(-1)))).filter(
      (message) => Number(message.event!.id) > from,
    );
    assert.deepEqual(eventIds(received), accountIds, "the account's events alone, no book event");
    assert.ok(received.every((message) => message.channel === "account"));
    await client.close();
  });

  test("heartbeats: a heartbeat message and a ping frame each interval; a client that never answers is dropped", async () => {
    const client = await StreamClient.withToken(url, seller.token);
    const pinged = new Promise<void>((resolve) => client.socket.once("ping", () => resolve()));
    const beat = await client.nextOfType("heartbeat");
    assert.match(String(beat.last_event_id), /^\d+$/);
    await pinged;
    await client.close();
    // `autoPong: false`: pings go unanswered and the client sends nothing.
    const silent = await StreamClient.withToken(url, seller.token, { autoPong: false });
    const closed = await silent.closed;
    assert.equal(closed.code, 1006, "terminated, not closed");
    assert.ok(silent.messages.filter((message) => message.type === "heartbeat").length >= 2);
  });

  test("security: a revoked token's stream closes with 4001 at its next heartbeat", async () => {
    const user = await t.createUser({ nickname: "stream-revoked" });
    const client = await StreamClient.withToken(url, user.token);
    await client.subscribe({ channels: ["account"] });
    const revoked = await t.admin("DELETE", `/sandbox/tokens/${user.tokenId}`);
    assert.equal(revoked.statusCode, 200, revoked.body);
    const closed = await client.closed;
    assert.equal(closed.code, 4001);
  });
});

describe("the event stream's limits and shutdown", () => {
  const MAX_BUFFER = 256 * 1024;
  const FRAME_BYTES = 16 * 1024;
  const BATCH = 8;
  let t: TestApp;
  let url: string;

  before(async () => {
    t = await createTestApp({ stream: { maxBufferBytes: MAX_BUFFER, heartbeatMs: 60_000 } });
    url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => t.close());

  test("a slow consumer is told `dropped` and closed with 4008; the server holds at most the limit and one frame for it, and a reading client stays", async () => {
    const user = await t.createUser({ nickname: "stream-slow" });
    const slow = await StreamClient.withToken(url, user.token);
    await slow.subscribe({ channels: ["market"] });
    const reader = await StreamClient.withToken(url, user.token);
    await reader.subscribe({ channels: ["market"] });
    // The slow client stops reading: what the server sends waits in its buffers.
    const slowSocket = (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    slowSocket.pause();
    // Batches below the limit, each read by the reader before the next: several megabytes in all,
    // more than the kernel's socket buffers take for the slow one.
    const padding = "x".repeat(FRAME_BYTES);
    let sent = 0;
    while (t.app.eventStreams.dropped === 0) {
      assert.ok(sent < 2000, "the slow consumer was never dropped");
      await sql`
        INSERT INTO events (event_id, type, user_id, goods_id, created_at, data)
        SELECT nextval('event_ids'), 'market.reset', NULL, NULL, now(), jsonb_build_object('padding', ${padding}::text, 'n', n)
        FROM generate_series(1, ${BATCH}) AS n`.execute(t.database.db);
      const last = Number(
        (await sql<{ id: string }>`SELECT max(event_id) AS id FROM events`.execute(t.database.db)).rows[0]!
          .id,
      );
      t.app.eventStreams.eventLog.heard(last);
      await reader.eventsUpTo(last);
      sent += BATCH;
    }
    assert.equal(t.app.eventStreams.dropped, 1, "only the slow one");
    assert.equal(reader.messages.filter((message) => message.type === "event").length, sent);
    assert.ok(
      t.app.eventStreams.peakBufferedBytes <= MAX_BUFFER + FRAME_BYTES + 1024,
      `peak ${t.app.eventStreams.peakBufferedBytes} bytes`,
    );
    slowSocket.resume();
    const dropped: StreamMessage = await slow.nextOfType("dropped");
    assert.equal(dropped.reason, "slow_consumer");
    assert.equal((await slow.closed).code, 4008);
    assert.ok(slow.messages.filter((message) => message.type === "event").length < sent);
    await reader.close();
  });

  test("the server's close() closes every stream with 1001", async () => {
    const user = await t.createUser({ nickname: "stream-shutdown" });
    const clients = await Promise.all([1, 2].map(() => StreamClient.withToken(url, user.token)));
    await Promise.all(clients.map((client) => client.nextOfType("welcome")));
    const closing = t.app.close();
    for (const client of clients) assert.equal((await client.closed).code, 1001);
    await closing;
    assert.equal(clients[0]!.socket.readyState, WebSocket.CLOSED);
  });
});

describe("the event stream's caps on open streams (per credential and per address)", () => {
  const PER_CREDENTIAL = 2;
  const PER_ADDRESS = 3;
  let t: TestApp;
  let url: string;

  before(async () => {
    t = await createTestApp({
      stream: { maxPerCredential: PER_CREDENTIAL, maxPerAddress: PER_ADDRESS, heartbeatMs: 60_000 },
    });
    url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  after(() => t.close());

  /** Opens a stream and waits for its welcome. */
  const opened = async (headers: Record<string, string>): Promise<StreamClient> => {
    const client = await StreamClient.open(url, headers);
    await client.nextOfType("welcome");
    return client;
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  /** The upgrade's refusal; fails if the stream opens. */
  const refused = async (headers: Record<string, string>): Promise<RefusedUpgrade> => {
    const error = await StreamClient.open(url, headers).then(
      (client) => {
        client.socket.terminate();
        throw new Error("the upgrade was accepted");
      },
      (refusal: unknown) => refusal,
    );
    assert.ok(error instanceof RefusedUpgrade, String(error));
    return error;
  };
  /** Waits until the server has taken back the places of closed streams (their sockets closed). */
  const placesHeld = async (count: number): Promise<void> => {
    while (t.app.eventStreams.admitted > count) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(t.app.eventStreams.admitted, count);
  };
  const closeAll = async (clients: StreamClient[]) => {
    await Promise.all(clients.map((client) => client.close()));
    await placesHeld(0);
  };

  test("per token: up to the cap opens; one more is 429 Quota Exceeded in the official envelope; a closed stream makes room", async () => {
    const user = await t.createUser({ nickname: "cap-token" });
    const streams = [await opened(bearer(user.token)), await opened(bearer(user.token))];
    const refusal = await refused(bearer(user.token));
    assert.equal(refusal.status, 429);
    assert.equal(refusal.body.code, "Quota Exceeded");
    assert.match(String(refusal.body.msg), /2 event streams open.*STREAM_MAX_PER_CREDENTIAL/);
    assert.deepEqual(Object.keys(refusal.body).sort(), ["code", "msg"]);
    // Another token is counted apart (the address has room for one more).
    const other = await t.createUser({ nickname: "cap-token-other" });
    streams.push(await opened(bearer(other.token)));
    await streams.shift()!.close();
    await placesHeld(2);
    streams.push(await opened(bearer(user.token)));
    await closeAll(streams);
  });

  test("per session: a website session is a credential of its own, capped the same", async () => {
    const user = await t.createUser({ nickname: "cap-session" });
    const session = await t.signIn(user.nickname, user.password);
    const headers = { cookie: session.cookie, origin: url };
    const streams = [await opened(headers), await opened(headers)];
    const refusal = await refused(headers);
    assert.equal(refusal.status, 429);
    assert.match(String(refusal.body.msg), /STREAM_MAX_PER_CREDENTIAL/);
    // The user's API token is another credential.
    streams.push(await opened(bearer(user.token)));
    await closeAll(streams);
  });

  test("per address: up to the cap opens across credentials; one more is 429 naming the address; a closed stream makes room; refusals hold no place", async () => {
    const users = await Promise.all(
      [1, 2, 3].map((index) => t.createUser({ nickname: `cap-address-${index}` })),
    );
    const streams = [
      await opened(bearer(users[0]!.token)),
      await opened(bearer(users[0]!.token)),
      await opened(bearer(users[1]!.token)),
    ];
    for (let attempt = 0; attempt < 3; attempt++) {
      const refusal = await refused(bearer(users[2]!.token));
      assert.equal(refusal.status, 429);
      assert.equal(refusal.body.code, "Quota Exceeded");
      assert.match(String(refusal.body.msg), /127\.0\.0\.1 has 3 event streams open.*STREAM_MAX_PER_ADDRESS/);
    }
    assert.equal(t.app.eventStreams.admitted, PER_ADDRESS, "the refused upgrades took no place");
    await streams.pop()!.close();
    await placesHeld(PER_ADDRESS - 1);
    streams.push(await opened(bearer(users[2]!.token)));
    await closeAll(streams);
  });
});

describe("the event stream's inbound bound, on a server in a process of its own", () => {
  /** The largest message a client may send (`STREAM_MAX_MESSAGE_BYTES`). */
  const FRAME_BYTES = 16 * 1024;
  /** What the flood sends in all: four times the bound, so that a server that takes it shows. */
  const FLOOD_BYTES = 64 * 1024 * 1024;
  /** How much the server's resident memory may grow while it is flooded (docs/design/event-stream.md#inbound). */
  const GROWTH_BOUND = 16 * 1024 * 1024;
  interface Memory {
    rss: number;
    maxRss: number;
    streams: number;
  }
  let server: ChildProcess;
  let ready: { url: string; token: string };

  const memory = (): Promise<Memory> =>
    new Promise((resolve) => {
      const answer = (message: unknown) => {
        if ((message as { type?: string }).type !== "memory") return;
        server.off("message", answer);
        resolve(message as Memory);
      };
      server.on("message", answer);
      server.send("memory");
    });

  before(async () => {
    server = spawn(process.execPath, [join(import.meta.dirname, "../support/stream-server-process.ts")], {
      stdio: ["ignore", "ignore", "inherit", "ipc"],
      // A database migrated in the process, as a server's own: one opened from the suite's image
      // grows the process's resident memory by itself for seconds after it opens.
      env: { ...process.env, [TEST_TEMPLATES_VARIABLE]: "" },
    });
    ready = await new Promise((resolve, reject) => {
      server.on("message", (message: { type?: string; url: string; token: string }) => {
        if (message.type === "ready") resolve(message);
      });
      server.once("exit", (code) => reject(new Error(`the server process exited with ${code}`)));
    });
  });
  after(async () => {
    if (server.exitCode !== null) return;
    const exited = new Promise((resolve) => server.once("exit", resolve));
    server.send("stop");
    await exited;
  });

  test("flood: a client that sends its largest messages while its replay waits for it to read is closed with 4029, the server grows by less than 16 MiB and answers /healthz", async (context) => {
    const client = await StreamClient.withToken(ready.url, ready.token);
    await client.nextOfType("welcome");
    client.send({ op: "subscribe", channels: ["market"], after: "0" });
    await client.nextOfType("subscribed");
    // The client reads nothing more: the replay (megabytes of events) waits for it to read.
    const raw = (client.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    const start = await memory();
    const frame = "x".repeat(FRAME_BYTES);
    // A megabyte at a time, while the server keeps the stream: its resident memory after each.
    let peak = start.rss;
    let last = start;
    let sent = 0;
    const sample = async () => {
      last = await memory();
      peak = Math.max(peak, last.rss);
    };
    while (sent < FLOOD_BYTES && last.streams > 0) {
      for (let index = 0; index < 64; index++, sent += FRAME_BYTES) client.socket.send(frame);
      await sample();
      while (client.socket.bufferedAmount > 4 * FRAME_BYTES * 64 && last.streams > 0) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        await sample();
      }
    }
    context.diagnostic(
      `rss at start ${(start.rss / 2 ** 20).toFixed(1)} MiB, peak ${(peak / 2 ** 20).toFixed(1)} MiB, ${(sent / 2 ** 20).toFixed(1)} MiB sent`,
    );
    assert.ok(
      peak - start.rss < GROWTH_BOUND,
      `the server grew by ${((peak - start.rss) / 2 ** 20).toFixed(1)} MiB`,
    );
    raw.resume();
    assert.equal((await client.closed).code, 4029);
    assert.equal(last.streams, 0, "the server let the stream go");
    assert.equal((await fetch(`${ready.url}/healthz`)).status, 200);
  });
});
