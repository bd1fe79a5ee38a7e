import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { MarketApiError, MarketClient, SandboxClient } from "@skinmarket/client";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { retryDelayMs } from "../../src/domain/webhooks/deliveries.ts";
import { deliverDueWebhooks } from "../../src/domain/webhooks/delivery-pool.ts";
import { WebhookWorker } from "../../src/domain/webhooks/delivery-worker.ts";
import { checkWebhookUrl, isPrivateAddress } from "../../src/domain/webhooks/signing.ts";
import { EventLog } from "../../src/domain/events/event-log.ts";
import { HttpWebhookSender } from "../../src/webhooks/http-webhook-sender.ts";
import { createReadyTrader, goodsIdOf, grant, type PlatformFixture } from "../support/platform-world.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../support/test-app.ts";
import { enqueueWebhookDeliveries } from "../../src/domain/webhooks/enqueue.ts";

const STICKER = "Sticker | Crown (Foil)";
const DAY = 24 * 3600;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  event: {
    id: string;
    type: string;
    created_at: number;
    goods_id: number | null;
    data: Record<string, unknown>;
  };
}

/**
 * A webhook receiver on a local port: records every request, answers the statuses queued in
 * `failNext` (then 200).
 */
class Receiver {
  readonly received: Received[] = [];
  readonly statuses: number[] = [];
  #server: Server | undefined;
  #waiters: Array<{ count: number; resolve: () => void }> = [];
  url = "";

  async start(): Promise<void> {
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        this.received.push({ headers: request.headers, body, event: JSON.parse(body) as Received["event"] });
        response.statusCode = this.statuses.shift() ?? 200;
        response.end("ok");
        this.#waiters = this.#waiters.filter((waiter) => {
          if (this.received.length < waiter.count) return true;
          waiter.resolve();
          return false;
        });
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves once `count` requests have arrived in all. */
  waitFor(count: number): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  failNext(...statuses: number[]): void {
    this.statuses.push(...statuses);
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.#server?.close(resolve));
  }
}

/** Checks the agreed signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>. */
function assertSigned(received: Received, secret: string): void {
  const header = String(received.headers["skinmarket-signature"]);
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  assert.ok(match, header);
  const expected = createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(`${match[1]}.${received.body}`)
    .digest("hex");
  assert.equal(match[2], expected, "the signature verifies with the endpoint's secret");
  assert.ok(Math.abs(Number(match[1]) - Date.now() / 1000) < 300, "t is the real time");
  assert.equal(received.headers["skinmarket-event-id"], received.event.id);
  assert.equal(received.headers["content-type"], "application/json");
}

interface Endpoint {
  id: string;
  url: string;
  types: string[];
  enabled: boolean;
  description: string;
  secret?: string;
}

interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  state: string;
  attempts: number;
  created_at: number;
  next_attempt_at: number | null;
  last_attempt_at: number | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: number | null;
}

describe("webhooks", () => {
  let t: TestApp;
  let receiver: Receiver;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let stickerId: number;
  const base = "/api/market/developer/webhooks";

  const createEndpoint = async (token: string, body: Record<string, unknown>): Promise<Endpoint> => {
    const response = await t.as(token, "POST", base, body);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<Endpoint>();
  };
  const deliveries = async (token: string, endpointId: string, query = ""): Promise<Delivery[]> => {
    const response = await t.as(token, "GET", `${base}/${endpointId}/deliveries?page_size=100${query}`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ items: Delivery[] }>().items;
  };
  const runJobs = async () => {
    const response = await t.admin("POST", "/sandbox/jobs/run");
    assert.equal(response.statusCode, 200, response.body);
  };
  const advance = async (seconds: number) => {
    const response = await t.admin("POST", "/sandbox/clock/advance", { seconds });
    assert.equal(response.statusCode, 200, response.body);
  };
  const eventsOf = async (token: string, types: string) => {
    const response = await t.as(token, "GET", `/api/market/developer/events?limit=1000&types=${types}`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ items: Array<{ id: string; type: string }> }>().items;
  };

  before(async () => {
    // Receivers on this machine are allowed only by the server's switch, not by the sandbox.
    t = await createTestApp({ catalog: true, webhookAllowPrivateUrls: true });
    receiver = new Receiver();
    await receiver.start();
    seller = await createReadyTrader(t, "hook-seller");
    buyer = await createReadyTrader(t, "hook-buyer");
    stickerId = await goodsIdOf(t, STICKER);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  test("happy: a listing and a purchase reach the endpoints signed, in order, each event once", async () => {
    const sellerHook = await createEndpoint(seller.token, {
      url: receiver.url,
      types: ["listing.*", "trade.*", "balance.changed"],
      description: "seller's bot",
    });
    assert.match(sellerHook.secret!, /^whsec_[A-Za-z0-9_-]{43}$/);
    const buyerHook = await createEndpoint(buyer.token, { url: receiver.url, types: ["*"] });
    assert.notEqual(buyerHook.secret, sellerHook.secret);
    const from = receiver.received.length;

    const [assetid] = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 1 });
    const listed = await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [{ assetid, price: 5 }],
    });
    assert.equal(listed.statusCode, 200, listed.body);
    await t.fund(buyer.userId, "balance", 10);
    const bought = await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [{ goods_id: stickerId, max_price: 5, quantity: 1 }],
    });
    assert.equal(bought.statusCode, 200, bought.body);
    await runJobs();
    await t.assertLedger();

    const got = receiver.received.slice(from);
    for (const [hook, trader, types] of [
      [sellerHook, seller, "listing.*,trade.*,balance.changed"],
      [buyerHook, buyer, "*"],
    ] as const) {
      const expected = (await eventsOf(trader.token, types)).map((event) => event.id);
      const hookDeliveries = await deliveries(trader.token, hook.id);
      assert.deepEqual(
        hookDeliveries.map((delivery) => delivery.event_id).reverse(),
        expected,
        "one delivery per matching event, listed newest first",
      );
      for (const delivery of hookDeliveries) {
        assert.equal(delivery.state, "delivered");
        assert.equal(delivery.attempts, 1);
        assert.equal(delivery.last_status, 200);
        assert.equal(delivery.next_attempt_at, null);
      }
      const requests = got.filter((request) => expected.includes(request.event.id));
      assert.deepEqual(
        requests.map((request) => request.event.id),
        expected,
        "received in the order of the log",
      );
      for (const request of requests) assertSigned(request, hook.secret!);
    }
    const sellerTypes = (await eventsOf(seller.token, "listing.*,trade.*,balance.changed")).map(
      (event) => event.type,
    );
    assert.deepEqual(sellerTypes.slice(0, 3), ["listing.created", "listing.sold", "trade.created"]);
    // The buyer's purchase is in the body as the REST operation answers it.
    const created = got.find(
      (request) =>
        request.event.type === "trade.created" && request.event.data.state !== "SELLER_TO_SEND_OFFER",
    );
    assert.ok(created);
    // The secret is never in a listing, a get or an audit row.
    for (const path of [base, `${base}/${sellerHook.id}`]) {
      const response = await t.as(seller.token, "GET", path);
      assert.equal(response.statusCode, 200);
      assert.equal(response.body.includes(sellerHook.secret!), false, path);
      assert.equal(response.body.includes("secret"), false, path);
    }
    const audit = await t.database.db.selectFrom("audit_events").selectAll().execute();
    assert.equal(JSON.stringify(audit).includes(sellerHook.secret!), false);
    // Deliveries carry account events only: no market event reached anyone.
    assert.equal(
      got.some((request) => request.event.type.startsWith("market.")),
      false,
    );
    await t.as(seller.token, "DELETE", `${base}/${sellerHook.id}`);
    await t.as(buyer.token, "DELETE", `${base}/${buyerHook.id}`);
  });

  test("happy: a receiver failing 3 times is retried with backoff, the later events waiting in order", async () => {
    const user = await t.createUser();
    const hook = await createEndpoint(user.token, { url: receiver.url, types: ["balance.changed"] });
    const from = receiver.received.length;
    // A redirect is not followed: it is a failure like any other answer that is not 2xx.
    receiver.failNext(500, 502, 302);
    await t.fund(user.userId, "balance", 1);
    await t.fund(user.userId, "balance", 2);
    await t.fund(user.userId, "balance", 3);
    await runJobs();
    const gaps: number[] = [];
    for (let failed = 1; failed <= 3; failed++) {
      assert.equal(receiver.received.length - from, failed, "one attempt per due retry, the others wait");
      const [, , head] = await deliveries(user.token, hook.id);
      assert.equal(head!.state, "pending");
      assert.equal(head!.attempts, failed);
      assert.equal(head!.last_status, [500, 502, 302][failed - 1]);
      const gap = head!.next_attempt_at! - head!.last_attempt_at!;
      gaps.push(gap);
      const expected = 60 * 2 ** (failed - 1);
      assert.ok(gap >= expected * 0.8 - 1 && gap <= expected * 1.2 + 1, `retry ${failed} after ${gap} s`);
      // Not due yet: running the jobs again sends nothing.
      await runJobs();
      assert.equal(receiver.received.length - from, failed);
      await advance(gap + 1);
      await runJobs();
    }
    const got = receiver.received.slice(from);
    const ids = (await eventsOf(user.token, "balance.changed")).map((event) => event.id);
    assert.equal(ids.length, 3);
    assert.deepEqual(
      got.map((request) => request.event.id),
      [ids[0], ids[0], ids[0], ids[0], ids[1], ids[2]],
    );
    assert.deepEqual(
      got.map((request) => (request.event.data as { market_balance: string }).market_balance),
      ["1.00", "1.00", "1.00", "1.00", "3.00", "6.00"],
    );
    const final = await deliveries(user.token, hook.id);
    assert.deepEqual(
      final.map((delivery) => [delivery.state, delivery.attempts]),
      [
        ["delivered", 1],
        ["delivered", 1],
        ["delivered", 4],
      ],
    );
    const delivered = await deliveries(user.token, hook.id, "&state=delivered");
    assert.equal(delivered.length, 3);
  });

  test("after 3 days of failures a delivery is failed, the next one goes on; redeliver sends any again", async () => {
    const user = await t.createUser();
    const hook = await createEndpoint(user.token, { url: receiver.url, types: ["balance.changed"] });
    const from = receiver.received.length;
    receiver.failNext(503, 503, 503);
    await t.fund(user.userId, "balance", 1);
    await t.fund(user.userId, "balance", 2);
    const warnings: Array<Record<string, unknown>> = [];
    const log = {
      info() {},
      error() {},
      warn(details: object) {
        warnings.push(details as Record<string, unknown>);
      },
    };
    const ctx = { ...t.ctx, log, webhookSender: new HttpWebhookSender({ allowPrivate: true }) };
    await t.as(user.token, "GET", "/api/market/developer/events"); // sequenced, deliveries written
    assert.equal(await deliverDueWebhooks(ctx), 1);
    await advance(2 * DAY);
    assert.equal(await deliverDueWebhooks(ctx), 1, "two days: retried, failing again, still pending");
    let [, head] = await deliveries(user.token, hook.id);
    assert.equal(head!.state, "pending");
    await advance(DAY + 60);
    // Three days are over: the third failure fails it, and the next delivery goes at once.
    assert.equal(await deliverDueWebhooks(ctx), 2);
    [, head] = await deliveries(user.token, hook.id);
    assert.equal(head!.state, "failed");
    assert.equal(head!.attempts, 3);
    assert.equal(head!.last_status, 503);
    assert.equal(head!.next_attempt_at, null);
    const [next] = await deliveries(user.token, hook.id);
    assert.equal(next!.state, "delivered");
    assert.equal(receiver.received.length - from, 4);
    // Each failure was logged at warn with the endpoint and the status, never the secret.
    assert.equal(warnings.length, 3);
    for (const warning of warnings) {
      assert.equal(warning.endpoint_id, Number(hook.id));
      assert.equal(warning.status, 503);
    }
    assert.equal(JSON.stringify(warnings).includes(hook.secret!), false);

    // Redeliver: the failed one now succeeds and turns delivered; a delivered one is sent again.
    const redelivered = await t.as(user.token, "POST", `${base}/${hook.id}/deliveries/${head!.id}/redeliver`);
    assert.equal(redelivered.statusCode, 200, redelivered.body);
    const answer = redelivered.json<{
      attempt: { delivered: boolean; status: number };
      delivery: Delivery;
    }>();
    assert.deepEqual([answer.attempt.delivered, answer.attempt.status], [true, 200]);
    assert.deepEqual([answer.delivery.state, answer.delivery.attempts], ["delivered", 4]);
    const again = await t.as(user.token, "POST", `${base}/${hook.id}/deliveries/${next!.id}/redeliver`);
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json<{ delivery: Delivery }>().delivery.attempts, 2);
    const last = receiver.received.slice(-2);
    assert.deepEqual(
      last.map((request) => request.event.id),
      [head!.event_id, next!.event_id],
    );
    for (const request of last) assertSigned(request, hook.secret!);
    // A failed redelivery leaves a delivered one delivered.
    receiver.failNext(500);
    const failing = await t.as(user.token, "POST", `${base}/${hook.id}/deliveries/${next!.id}/redeliver`);
    assert.equal(failing.statusCode, 200, failing.body);
    const failed = failing.json<{ attempt: { delivered: boolean; status: number }; delivery: Delivery }>();
    assert.deepEqual([failed.attempt.delivered, failed.attempt.status], [false, 500]);
    assert.deepEqual([failed.delivery.state, failed.delivery.last_status], ["delivered", 500]);
  });

  test("a transaction that rolls back owes no delivery", async () => {
    const user = await t.createUser();
    const hook = await createEndpoint(user.token, { url: receiver.url, types: ["buy_order.status_changed"] });
    await t.database.db
      .transaction()
      .execute(async (tx) => {
        await tx
          .updateTable("users")
          .set({ buy_order_status: "offline" })
          .where("user_id", "=", Number(user.userId))
          .execute();
        throw new Error("roll back");
      })
      .catch(() => undefined);
    const from = receiver.received.length;
    await runJobs();
    assert.deepEqual(await deliveries(user.token, hook.id), []);
    assert.equal(receiver.received.length, from);
    // The same change committed is owed and sent.
    const changed = await t.as(user.token, "PUT", "/api/market/developer/buy_order/status", {
      buy_order_status: "offline",
    });
    assert.equal(changed.statusCode, 200, changed.body);
    await runJobs();
    assert.equal((await deliveries(user.token, hook.id)).length, 1);
    assert.equal(receiver.received.at(-1)!.event.type, "buy_order.status_changed");
  });

  test("happy: update, disable, roll the secret, delete", async () => {
    const user = await t.createUser();
    const hook = await createEndpoint(user.token, { url: receiver.url, types: ["trade.*"] });
    const updated = await t.as(user.token, "PUT", `${base}/${hook.id}`, {
      types: ["balance.changed"],
      description: "balances",
      enabled: false,
    });
    assert.equal(updated.statusCode, 200, updated.body);
    assert.deepEqual(
      (({ types, description, enabled }) => ({ types, description, enabled }))(updated.json<Endpoint>()),
      { types: ["balance.changed"], description: "balances", enabled: false },
    );
    // Disabled: owed nothing.
    await t.fund(user.userId, "balance", 1);
    await runJobs();
    assert.deepEqual(await deliveries(user.token, hook.id), []);
    await t.as(user.token, "PUT", `${base}/${hook.id}`, { enabled: true });
    const rolled = await t.as(user.token, "POST", `${base}/${hook.id}/secret/roll`);
    assert.equal(rolled.statusCode, 200, rolled.body);
    const secret = rolled.json<Endpoint>().secret!;
    assert.notEqual(secret, hook.secret);
    await t.fund(user.userId, "balance", 2);
    await runJobs();
    assertSigned(receiver.received.at(-1)!, secret);
    const listed = await t.as(user.token, "GET", base);
    assert.deepEqual(
      listed.json<{ items: Endpoint[] }>().items.map((endpoint) => endpoint.id),
      [hook.id],
    );
    const deleted = await t.as(user.token, "DELETE", `${base}/${hook.id}`);
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.deepEqual(deleted.json(), { id: hook.id, deleted: true });
    assert.equal((await t.as(user.token, "GET", `${base}/${hook.id}`)).statusCode, 404);
    assert.deepEqual((await t.as(user.token, "GET", base)).json(), { items: [] });
  });

  test("error: a bad url, an unknown or market type, too many endpoints are refused naming the field", async () => {
    const user = await t.createUser();
    for (const [body, field] of [
      [{ url: "ftp://example.com/hook", types: ["*"] }, /^url: /],
      [{ url: "not a url", types: ["*"] }, /^url: /],
      [{ url: "http://user:pw@example.com/hook", types: ["*"] }, /^url: .*user name/],
      [{ url: "https://example.com/hook", types: ["trade.*", "trade.nope"] }, /^types\[1\]: .*trade\.nope/],
      [{ url: "https://example.com/hook", types: ["market.price_changed"] }, /^types\[0\]: .*market event/],
      [{ url: "https://example.com/hook", types: ["market.*"] }, /^types\[0\]: .*market event/],
      [{ url: "https://example.com/hook", types: [] }, /types/],
      [{ url: "https://example.com/hook" }, /types/],
    ] as const) {
      const response = await t.as(user.token, "POST", base, body);
      assert.equal(response.statusCode, 400, response.body);
      assert.match(response.json<{ msg: string }>().msg, field);
    }
    const hook = await createEndpoint(user.token, { url: "https://example.com/hook", types: ["*"] });
    const badUpdate = await t.as(user.token, "PUT", `${base}/${hook.id}`, { url: "gopher://x" });
    assert.equal(badUpdate.statusCode, 400);
    assert.match(badUpdate.json<{ msg: string }>().msg, /^url: /);
    for (let index = 1; index < 20; index++)
      await createEndpoint(user.token, { url: `https://example.com/${index}`, types: ["*"] });
    const tooMany = await t.as(user.token, "POST", base, { url: "https://example.com/21", types: ["*"] });
    assert.equal(tooMany.statusCode, 409, tooMany.body);
    const unknownDelivery = await t.as(user.token, "POST", `${base}/${hook.id}/deliveries/999999/redeliver`);
    assert.equal(unknownDelivery.statusCode, 404);
    const badPage = await t.as(user.token, "GET", `${base}/${hook.id}/deliveries?page_size=101`);
    assert.equal(badPage.statusCode, 400);
    assert.match(badPage.json<{ msg: string }>().msg, /page_size/);
  });

  test("security: another user's endpoint is Not Found everywhere; no token is 401", async () => {
    const owner = await t.createUser();
    const stranger = await t.createUser();
    const hook = await createEndpoint(owner.token, { url: receiver.url, types: ["balance.changed"] });
    await t.fund(owner.userId, "balance", 1);
    await runJobs();
    const [delivery] = await deliveries(owner.token, hook.id);
    assert.ok(delivery);
    for (const [method, path, body] of [
      ["GET", `${base}/${hook.id}`, undefined],
      ["PUT", `${base}/${hook.id}`, { enabled: false }],
      ["DELETE", `${base}/${hook.id}`, undefined],
      ["POST", `${base}/${hook.id}/secret/roll`, undefined],
      ["GET", `${base}/${hook.id}/deliveries`, undefined],
      ["POST", `${base}/${hook.id}/deliveries/${delivery.id}/redeliver`, undefined],
    ] as const) {
      const response = await t.as(stranger.token, method, path, body);
      assert.equal(response.statusCode, 404, `${method} ${path}: ${response.body}`);
      const anonymous = await t.app.inject({
        method,
        url: path,
        ...(body ? { payload: body } : {}),
      });
      assert.equal(anonymous.statusCode, 401, `${method} ${path}`);
    }
    assert.deepEqual((await t.as(stranger.token, "GET", base)).json(), { items: [] });
    assert.equal((await t.app.inject({ method: "GET", url: base })).statusCode, 401);
    assert.equal(
      (await t.app.inject({ method: "POST", url: base, payload: { url: receiver.url, types: ["*"] } }))
        .statusCode,
      401,
    );
    // Still the owner's, untouched.
    const still = await t.as(owner.token, "GET", `${base}/${hook.id}`);
    assert.equal(still.json<Endpoint>().enabled, true);
    // The sandbox's routes want the admin token, not a user's.
    const asUser = await t.as(owner.token, "GET", `/sandbox/users/${owner.userId}/webhooks`);
    assert.equal(asUser.statusCode, 401);
    const test = await t.as(owner.token, "POST", `/sandbox/webhooks/${hook.id}/test`, {
      type: "trade.created",
    });
    assert.equal(test.statusCode, 401);
  });

  test("sandbox: register for a user, list, and send a test event of any type", async () => {
    const user = await t.createUser();
    const created = await t.admin("POST", `/sandbox/users/${user.userId}/webhooks`, {
      url: receiver.url,
      types: ["trade.*"],
    });
    assert.equal(created.statusCode, 200, created.body);
    const hook = created.json<Endpoint>();
    assert.match(hook.secret!, /^whsec_/);
    const listed = await t.admin("GET", `/sandbox/users/${user.userId}/webhooks`);
    assert.deepEqual(
      listed.json<{ items: Endpoint[] }>().items.map((endpoint) => endpoint.id),
      [hook.id],
    );
    assert.equal(listed.body.includes(hook.secret!), false);
    // The user sees it as their own.
    assert.equal((await t.as(user.token, "GET", `${base}/${hook.id}`)).statusCode, 200);
    for (const type of [
      "listing.sold",
      "balance.changed",
      "market.price_changed",
      "platform.cookie_expired",
    ]) {
      const sent = await t.admin("POST", `/sandbox/webhooks/${hook.id}/test`, { type });
      assert.equal(sent.statusCode, 200, sent.body);
      const answer = sent.json<{
        event: Received["event"];
        attempt: { delivered: boolean; status: number };
      }>();
      assert.deepEqual([answer.attempt.delivered, answer.attempt.status], [true, 200]);
      const request = receiver.received.at(-1)!;
      assert.equal(request.headers["skinmarket-test"], "true");
      assert.equal(request.event.id, "0");
      assert.equal(request.event.type, type);
      assert.deepEqual(request.event, answer.event);
      assertSigned(request, hook.secret!);
    }
    const sold = receiver.received.at(-4)!.event.data;
    assert.equal(typeof sold.price, "string", "a listing's sample has the listing's fields");
    assert.deepEqual(await deliveries(user.token, hook.id), [], "test events are not recorded");
    for (const [path, body, status] of [
      [`/sandbox/users/999999/webhooks`, { url: receiver.url, types: ["*"] }, 404],
      [`/sandbox/users/${user.userId}/webhooks`, { url: receiver.url, types: ["nope"] }, 400],
      [`/sandbox/webhooks/999999/test`, { type: "trade.created" }, 404],
      [`/sandbox/webhooks/${hook.id}/test`, { type: "nope" }, 400],
    ] as const) {
      const response = await t.admin("POST", path, body);
      assert.equal(response.statusCode, status, `${path}: ${response.body}`);
    }
    assert.equal((await t.admin("GET", `/sandbox/users/999999/webhooks`)).statusCode, 404);
    const anonymous = await t.app.inject({ method: "GET", url: `/sandbox/users/${user.userId}/webhooks` });
    assert.equal(anonymous.statusCode, 401);
  });

  test("the client SDK: every webhook operation, and the sandbox's", async () => {
    const user = await t.createUser();
    const baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const client = new MarketClient({ baseUrl, token: user.token });
    const sandbox = new SandboxClient({ baseUrl, token: ADMIN_TOKEN });
    const created = await client.createWebhookEndpoint({ url: receiver.url, types: ["balance.changed"] });
    assert.match(created.secret, /^whsec_/);
    assert.deepEqual(
      (await client.listWebhookEndpoints()).items.map((endpoint) => endpoint.id),
      [created.id],
    );
    assert.equal((await client.getWebhookEndpoint(created.id)).url, receiver.url);
    assert.equal((await client.updateWebhookEndpoint(created.id, { description: "sdk" })).description, "sdk");
    await t.fund(user.userId, "balance", 1);
    await sandbox.runJobs();
    const page = await client.listWebhookDeliveries(created.id);
    assert.deepEqual([page.total_count, page.items[0]!.state], [1, "delivered"]);
    const again = await client.redeliverWebhook(created.id, page.items[0]!.id);
    assert.equal(again.attempt.delivered, true);
    const rolled = await client.rollWebhookSecret(created.id);
    assert.notEqual(rolled.secret, created.secret);
    const test = await sandbox.sendTestWebhook(created.id, "trade.delivered");
    assert.equal(test.event.id, "0");
    assertSigned(receiver.received.at(-1)!, rolled.secret);
    const other = await sandbox.createWebhookEndpoint(user.userId, { url: receiver.url, types: ["*"] });
    assert.equal((await sandbox.listWebhookEndpoints(user.userId)).items.length, 2);
    assert.deepEqual(await client.deleteWebhookEndpoint(other.id), { id: other.id, deleted: true });
    await assert.rejects(client.getWebhookEndpoint(other.id), (error: unknown) => {
      assert.ok(error instanceof MarketApiError);
      assert.equal(error.status, 404);
      return true;
    });
  });

  test("one attempt at a time per endpoint: a redelivery while another is under way is Invalid State; a silent receiver times out", async () => {
    let release: () => void = () => undefined;
    let held: () => void = () => undefined;
    const heldOnce = new Promise<void>((resolve) => (held = resolve));
    const slow = createServer((request, response) => {
      request.resume();
      held();
      release = () => response.end();
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    try {
      const user = await t.createUser();
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`;
      const hook = await createEndpoint(user.token, { url, types: ["balance.changed"] });
      await t.fund(user.userId, "balance", 1);
      await t.as(user.token, "GET", "/api/market/developer/events"); // sequenced
      const [delivery] = await deliveries(user.token, hook.id);
      const path = `${base}/${hook.id}/deliveries/${delivery!.id}/redeliver`;
      const first = t.as(user.token, "POST", path);
      await heldOnce;
      const second = await t.as(user.token, "POST", path);
      assert.equal(second.statusCode, 409, second.body);
      assert.match(second.json<{ msg: string }>().msg, /under way/);
      release();
      assert.equal((await first).statusCode, 200);
      // A receiver that never answers: the attempt ends with the timeout's error.
      const sender = new HttpWebhookSender({ allowPrivate: true, timeoutMs: 50 });
      const silent = await sender.send({ url, body: "{}", headers: {} });
      assert.equal(silent.delivered, false);
      assert.equal(silent.status, null);
      assert.match(silent.error!, /no answer within/);
      release();
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  test("the server's worker delivers when woken, without a job run", async () => {
    const user = await t.createUser();
    const hook = await createEndpoint(user.token, { url: receiver.url, types: ["balance.changed"] });
    const eventLog = new EventLog(t.ctx, [enqueueWebhookDeliveries]);
    const worker = new WebhookWorker(
      { ...t.ctx, webhookSender: new HttpWebhookSender({ allowPrivate: true }) },
      { intervalMs: 20 },
    );
    worker.start(eventLog);
    try {
      const from = receiver.received.length;
      await t.fund(user.userId, "balance", 7);
      await t.as(user.token, "GET", "/api/market/developer/events"); // sequenced
      await receiver.waitFor(from + 1);
      const request = receiver.received[from]!;
      assert.equal(request.event.type, "balance.changed");
      assertSigned(request, hook.secret!);
    } finally {
      await worker.close();
      await eventLog.close();
    }
  });
  test("a slow receiver delays only its own endpoint: another user's delivery arrives while the slow one is unanswered", async () => {
    // The slow receiver holds each request 3 s (a real one might take 10), or until the test ends.
    let answered = false;
    let holding = true;
    let held: () => void = () => undefined;
    const heldOnce = new Promise<void>((resolve) => (held = resolve));
    const pending: Array<() => void> = [];
    const slow = createServer((request, response) => {
      request.resume();
      const answer = () => {
        answered = true;
        clearTimeout(timer);
        response.end("ok");
      };
      const timer = setTimeout(answer, holding ? 3000 : 0);
      pending.push(answer);
      held();
    });
    await new Promise<void>((resolve) => slow.listen(0, "127.0.0.1", resolve));
    const eventLog = new EventLog(t.ctx, [enqueueWebhookDeliveries]);
    const worker = new WebhookWorker(
      { ...t.ctx, webhookSender: new HttpWebhookSender({ allowPrivate: true }) },
      { intervalMs: 20 },
    );
    try {
      const slowUser = await t.createUser();
      const other = await t.createUser();
      await createEndpoint(slowUser.token, {
        url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`,
        types: ["balance.changed"],
      });
      const hook = await createEndpoint(other.token, { url: receiver.url, types: ["balance.changed"] });
      worker.start(eventLog);
      for (const amount of [1, 2, 3]) await t.fund(slowUser.userId, "balance", amount);
      await t.as(slowUser.token, "GET", "/api/market/developer/events"); // sequenced
      await heldOnce;
      const from = receiver.received.length;
      await t.fund(other.userId, "balance", 5);
      await t.as(other.token, "GET", "/api/market/developer/events"); // sequenced
      await receiver.waitFor(from + 1);
      assert.equal(answered, false, "the other endpoint's delivery did not wait for the slow receiver");
      assert.equal(receiver.received[from]!.event.type, "balance.changed");
      assertSigned(receiver.received[from]!, hook.secret!);
    } finally {
      // Every held request is answered, so that the worker's close does not wait for them.
      holding = false;
      for (const answer of pending.splice(0)) answer();
      await worker.close();
      await eventLog.close();
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  test("with one slot, endpoints take turns: an endpoint that spent its lease's budget waits behind the next one, in its own order", async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    const arrivals: Array<{ port: number; eventId: string }> = [];
    const answer = (request: IncomingMessage, response: ServerResponse) => {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const { id } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: string };
        arrivals.push({ port: request.socket.localPort!, eventId: id });
        // Answered a little later, so that two attempts at once would overlap.
        setTimeout(() => {
          inFlight -= 1;
          response.end("ok");
        }, 30);
      });
    };
    const servers = [createServer(answer), createServer(answer)];
    const ports: number[] = [];
    for (const server of servers) {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      ports.push((server.address() as AddressInfo).port);
    }
    try {
      const busy = await t.createUser();
      const other = await t.createUser();
      await createEndpoint(busy.token, {
        url: `http://127.0.0.1:${ports[0]}/hook`,
        types: ["balance.changed"],
      });
      await createEndpoint(other.token, {
        url: `http://127.0.0.1:${ports[1]}/hook`,
        types: ["balance.changed"],
      });
      for (const amount of [1, 2, 3]) await t.fund(busy.userId, "balance", amount);
      await t.fund(other.userId, "balance", 1);
      await t.as(busy.token, "GET", "/api/market/developer/events"); // sequenced
      const busyIds = (await eventsOf(busy.token, "balance.changed")).map((event) => event.id);
      const [otherId] = (await eventsOf(other.token, "balance.changed")).map((event) => event.id);
      const ctx = { ...t.ctx, webhookSender: new HttpWebhookSender({ allowPrivate: true }) };
      // A budget of 0: each lease makes one attempt, then the endpoint goes behind the others.
      await deliverDueWebhooks(ctx, { pool: { slots: 1, budgetMs: 0 } });
      assert.equal(mostInFlight, 1, "one slot: one endpoint at a time");
      assert.deepEqual(
        arrivals.map((arrival) => [arrival.port, arrival.eventId]),
        [
          [ports[0], busyIds[0]],
          [ports[1], otherId],
          [ports[0], busyIds[1]],
          [ports[0], busyIds[2]],
        ],
      );
    } finally {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });

  // Last: it empties the world the other tests built.
  test("the sandbox's reset empties the endpoints and their deliveries with the world", async () => {
    assert.ok(
      (await t.database.db.selectFrom("webhook_deliveries").select("delivery_id").execute()).length > 0,
    );
    const reset = await t.admin("POST", "/sandbox/reset");
    assert.equal(reset.statusCode, 200, reset.body);
    assert.deepEqual(await t.database.db.selectFrom("webhook_endpoints").select("endpoint_id").execute(), []);
    assert.deepEqual(
      await t.database.db.selectFrom("webhook_deliveries").select("delivery_id").execute(),
      [],
    );
  });
});

/** Receivers a server refuses unless `WEBHOOK_ALLOW_PRIVATE_URLS` is on, in every way of writing them. */
const PRIVATE_RECEIVERS = [
  "http://127.0.0.1:8080/hook",
  "http://[::1]/hook",
  "http://10.1.2.3/hook",
  "http://100.64.0.1/hook",
  "http://169.254.169.254/latest/meta-data",
  "http://192.168.1.1/hook",
  "http://[fe80::1]/hook",
  // IPv4-mapped, -translated and -compatible IPv6: judged as the IPv4 address they carry.
  "http://[::ffff:127.0.0.1]/hook",
  "http://[::ffff:7f00:1]/hook",
  "http://[::ffff:0:7f00:1]/hook",
  "http://[::ffff:0:127.0.0.1]/hook",
  "http://[::127.0.0.1]/hook",
  "http://[::a9fe:a9fe]/hook",
  "http://localhost/hook",
  // A fully qualified name's trailing dot changes nothing.
  "http://localhost./hook",
  "http://api.localhost./hook",
  "http://printer.local/hook",
  "http://metadata.google.internal./hook",
  "http://2130706433/hook",
  "http://0x7f.1/hook",
];

describe("private webhook receivers are the server's choice, not the sandbox's", () => {
  let t: TestApp;
  before(async () => {
    // The sandbox is on, the switch is not.
    t = await createTestApp();
  });
  after(async () => {
    await t.close();
  });

  test("security: with the sandbox on and WEBHOOK_ALLOW_PRIVATE_URLS off, every private form is refused at registration naming url", async () => {
    const user = await t.createUser();
    for (const url of PRIVATE_RECEIVERS) {
      for (const [label, response] of [
        ["official", await t.as(user.token, "POST", "/api/market/developer/webhooks", { url, types: ["*"] })],
        ["sandbox", await t.admin("POST", `/sandbox/users/${user.userId}/webhooks`, { url, types: ["*"] })],
      ] as const) {
        assert.equal(response.statusCode, 400, `${label} ${url}: ${response.body}`);
        assert.match(response.json<{ msg: string }>().msg, /^url: .*WEBHOOK_ALLOW_PRIVATE_URLS/, url);
      }
    }
    const hook = await t.as(user.token, "POST", "/api/market/developer/webhooks", {
      url: "https://example.com/hook",
      types: ["*"],
    });
    assert.equal(hook.statusCode, 200, hook.body);
    // Nor can an update point a public endpoint inward.
    const moved = await t.as(
      user.token,
      "PUT",
      `/api/market/developer/webhooks/${hook.json<Endpoint>().id}`,
      {
        url: "http://[::ffff:0:7f00:1]:6379/",
      },
    );
    assert.equal(moved.statusCode, 400, moved.body);
    assert.match(moved.json<{ msg: string }>().msg, /^url: /);
  });

  test("with WEBHOOK_ALLOW_PRIVATE_URLS on, the same receivers register", async () => {
    const allowing = await createTestApp({ webhookAllowPrivateUrls: true });
    try {
      const user = await allowing.createUser();
      for (const url of PRIVATE_RECEIVERS.slice(0, 3)) {
        const response = await allowing.as(user.token, "POST", "/api/market/developer/webhooks", {
          url,
          types: ["*"],
        });
        assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      }
    } finally {
      await allowing.close();
    }
  });
});

describe("webhook receivers outside the sandbox", () => {
  test("private and loopback receivers are refused unless allowed", async () => {
    for (const url of PRIVATE_RECEIVERS) {
      const checked = checkWebhookUrl(url, false);
      assert.equal(checked.ok, false, url);
      assert.equal(checkWebhookUrl(url, true).ok, true, url);
    }
    assert.equal(checkWebhookUrl("https://example.com/hook", false).ok, true);
    assert.equal(isPrivateAddress("8.8.8.8"), false);
    assert.equal(isPrivateAddress("2606:4700::1111"), false);
    assert.equal(isPrivateAddress("::ffff:7f00:1"), true);
    assert.equal(isPrivateAddress("fd00::1"), true);
    // A name that resolves to loopback is refused at the attempt, not only at registration.
    const sender = new HttpWebhookSender({ allowPrivate: false });
    const outcome = await sender.send({ url: "http://localhost:9/hook", body: "{}", headers: {} });
    assert.equal(outcome.delivered, false);
    assert.match(outcome.error!, /private|loopback/);
    const literal = await sender.send({ url: "http://127.0.0.1:9/hook", body: "{}", headers: {} });
    assert.match(literal.error!, /refused/);
    for (const url of [
      "http://[::ffff:0:7f00:1]:9/hook",
      "http://[::127.0.0.1]:9/hook",
      "http://localhost.:9/hook",
    ]) {
      const refused = await sender.send({ url, body: "{}", headers: {} });
      assert.match(refused.error!, /refused/, url);
    }
  });

  test("retries wait a minute, doubling, at most 6 hours, give or take a fifth", () => {
    assert.equal(
      retryDelayMs(1, () => 0.5),
      60_000,
    );
    assert.equal(
      retryDelayMs(2, () => 0.5),
      120_000,
    );
    assert.equal(
      retryDelayMs(4, () => 0),
      384_000,
    );
    assert.equal(
      retryDelayMs(30, () => 1),
      25_920_000,
    );
  });
});
