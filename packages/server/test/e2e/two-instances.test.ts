import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { runOnServer, urlOfDatabase } from "../../src/storage/postgres-admin.ts";
import { describeOrSkip } from "../support/describe-or-skip.ts";
import { StreamClient } from "../support/stream-client.ts";

const MAIN = join(import.meta.dirname, "../../src/main.ts");
const DATABASE_URL = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
const ADMIN = `sma_${randomBytes(24).toString("hex")}`;
/** Both instances count in the same keys; no other run shares them. */
const KEY_PREFIX = `skinmarket-test:${randomUUID()}`;
const STICKER = "Sticker | Crown (Foil)";

interface Instance {
  process: ChildProcess;
  url: string;
  output: string;
}

/**
 * Two server processes on one PostgreSQL and Redis behave as one service: shared rate limits,
 * purchases split across both selling each listing once, a clock moved on one seen by the other,
 * and a timeout job run on both at once processing the trade once.
 */
describeOrSkip(
  "two instances on one PostgreSQL and Redis",
  { skip: !(DATABASE_URL && REDIS_URL) && "needs TEST_DATABASE_URL and TEST_REDIS_URL" },
  () => {
    const database = `skinmarket_two_${process.pid}_${Date.now()}`;
    let databaseUrl: string;
    const instances: Instance[] = [];

    const call = async (
      instance: Instance,
      token: string,
      method: string,
      path: string,
      body?: unknown,
    ): Promise<{ status: number; body: Record<string, unknown> }> => {
      const response = await fetch(`${instance.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    async function start(): Promise<Instance> {
      const child = spawn(process.execPath, [MAIN, "serve", "--port", "0", "--log-level", "info"], {
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          REDIS_URL,
          REDIS_KEY_PREFIX: KEY_PREFIX,
          SANDBOX: "on",
          SANDBOX_ADMIN_TOKEN: ADMIN,
          SECRET_KEY: "ab".repeat(32),
          JOBS_INTERVAL_MS: "3600000",
          LIMITS: "on",
          // The webhook test's receiver is on this machine: the operator's switch, not the sandbox.
          WEBHOOK_ALLOW_PRIVATE_URLS: "true",
        },
        stdio: "pipe",
      });
      const instance: Instance = { process: child, url: "", output: "" };
      instance.url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start:\n${instance.output}`)), 90_000);
        child.stdout?.on("data", (chunk: Buffer) => {
          instance.output += chunk;
          const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)".*skinmarket is serving/.exec(instance.output);
          if (match?.[1]) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
        child.stderr?.on("data", (chunk: Buffer) => (instance.output += chunk));
        child.on("exit", (code) => reject(new Error(`exited with ${code}:\n${instance.output}`)));
      });
      return instance;
    }

    before(async () => {
      await runOnServer(DATABASE_URL!, `CREATE DATABASE ${database}`);
      databaseUrl = urlOfDatabase(DATABASE_URL!, database);
      // The first loads the catalog; the second finds it loaded.
      instances.push(await start());
      instances.push(await start());
    });

    after(async () => {
      for (const instance of instances) {
        const exited = new Promise((resolve) => instance.process.once("exit", resolve));
        instance.process.kill("SIGTERM");
        await exited;
      }
      await runOnServer(DATABASE_URL!, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    });

    async function trader(instance: Instance) {
      const user = (await call(instance, ADMIN, "POST", "/sandbox/users", {})).body as {
        user_id: string;
        token: string;
      };
      const account = (
        await call(instance, ADMIN, "POST", "/sandbox/platform/accounts", { user_id: user.user_id })
      ).body as { platformid: string; cookies: string };
      await call(instance, user.token, "POST", "/api/market/developer/platform/cookie", {
        platformid: account.platformid,
        platform_cookies: account.cookies,
      });
      await call(instance, user.token, "POST", "/api/market/developer/platform/setup", {
        platformid: account.platformid,
      });
      return { ...user, platformid: account.platformid };
    }

    test("a token's limit is shared: 60 balance reads across both, the 61st refused on either", async () => {
      const [a, b] = instances as [Instance, Instance];
      const user = (await call(a, ADMIN, "POST", "/sandbox/users", {})).body as { token: string };
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, index) =>
          call(index % 2 === 0 ? a : b, user.token, "GET", "/api/market/developer/balance"),
        ),
      );
      assert.ok(answers.every((answer) => answer.status === 200));
      assert.equal((await call(a, user.token, "GET", "/api/market/developer/balance")).status, 429);
      assert.equal((await call(b, user.token, "GET", "/api/market/developer/balance")).status, 429);
    });

    test("a token revoked through one instance is refused by the other, and stays refused", async (t) => {
      const [a, b] = instances as [Instance, Instance];
      const user = (await call(a, ADMIN, "POST", "/sandbox/users", {})).body as {
        token: string;
        token_id: string;
      };
      // An answer counted against the token (it carries RateLimit-Limit: a 200, or a 429 of the
      // token's rate) is an acceptance; refusals carry no such header.
      const balanceOnB = async () => {
        const response = await fetch(`${b.url}/api/market/developer/balance`, {
          headers: { authorization: `Bearer ${user.token}` },
        });
        await response.arrayBuffer();
        return { status: response.status, accepted: response.headers.has("ratelimit-limit") };
      };
      // Four requests always in flight on the other instance, so that some read the token while the
      // revocation commits; they stop once its answer is in and their last request is answered.
      const revocation = { answered: false };
      const during: Array<{ accepted: boolean }> = [];
      const worker = async () => {
        while (!revocation.answered) during.push(await balanceOnB());
      };
      const workers = Promise.all(Array.from({ length: 4 }, worker));
      // Revoked once the other instance has accepted the token (and so remembers it).
      while (!during.some((answer) => answer.accepted)) await new Promise((resolve) => setImmediate(resolve));
      const revoked = await call(a, ADMIN, "DELETE", `/sandbox/tokens/${user.token_id}`);
      revocation.answered = true;
      assert.equal(revoked.status, 200);
      await workers;

      // Now one request at a time: none is in flight to put a stale answer back in the cache. The
      // other instance forgets on the announcement, or at the latest when its cached token's
      // lifetime ends (the bound, checked on a moved clock in revocation-bound.test.ts); either
      // way a refusal comes, and every request after it is refused too.
      let untilRefused = 0;
      while ((await balanceOnB()).accepted) {
        untilRefused += 1;
        assert.ok(untilRefused < 100_000, "the other instance never refused the revoked token");
      }
      const later = await Promise.all(Array.from({ length: 20 }, balanceOnB));
      assert.deepEqual(
        later.filter((answer) => answer.accepted || answer.status !== 401),
        [],
        "requests after the other instance's first refusal, accepted or not 401",
      );
      t.diagnostic(
        `${during.length} requests during the revocation, ${during.filter((answer) => answer.accepted).length} accepted; ${untilRefused} accepted after its answer`,
      );
    });

    test("the event stream: events made through one instance reach the other's subscribers, once each", async () => {
      const [a, b] = instances as [Instance, Instance];
      const seller = await trader(a);
      const onB = await StreamClient.withToken(b.url, seller.token);
      const granted = (
        await call(a, ADMIN, "POST", `/sandbox/platform/accounts/${seller.platformid}/items`, {
          market_hash_name: STICKER,
          count: 1,
        })
      ).body as { assets: Array<{ assetid: string; goods_id: number }> };
      const goodsId = granted.assets[0]!.goods_id;
      const subscribed = await onB.subscribe({ channels: ["account", `book:${goodsId}`] });
      assert.equal(subscribed.type, "subscribed");
      await call(a, ADMIN, "POST", `/sandbox/users/${seller.user_id}/funds`, {
        account: "balance",
        amount: "3",
      });
      const listed = await call(a, seller.token, "POST", "/api/market/developer/sell_order/items", {
        game: "cs2",
        assets: [{ assetid: granted.assets[0]!.assetid, price: 9 }],
      });
      assert.equal(listed.status, 200);
      const funded = await onB.next((message) => message.event?.type === "balance.changed");
      assert.equal(funded.channel, "account");
      assert.equal(funded.event!.data.market_balance, "3.00");
      const created = await onB.next((message) => message.event?.type === "listing.created");
      assert.equal(created.channel, "account");
      const added = await onB.next((message) => message.event?.type === "market.listing_added");
      assert.equal(added.channel, `book:${goodsId}`);
      // What B sent is what the log holds for the account, polled through A: no gap, no duplicate.
      const polled = (await call(a, seller.token, "GET", "/api/market/developer/events?limit=1000")).body as {
        items: Array<{ id: string }>;
      };
      const lastAccountId = polled.items.at(-1)!.id;
      const streamed = (await onB.eventsUpTo(Number(lastAccountId)))
        .filter((message) => message.channel === "account")
        .map((message) => message.event!.id);
      const since = polled.items.map((item) => item.id).filter((id) => Number(id) > Number(subscribed.after));
      assert.deepEqual(streamed, since);
      assert.ok(streamed.length >= 2);
      await onB.close();
    });

    test("concurrent purchases through both instances sell each listing exactly once", async () => {
      const [a, b] = instances as [Instance, Instance];
      const seller = await trader(a);
      const granted = (
        await call(a, ADMIN, "POST", `/sandbox/platform/accounts/${seller.platformid}/items`, {
          market_hash_name: STICKER,
          count: 20,
        })
      ).body as { assets: Array<{ assetid: string; goods_id: number }> };
      const listed = await call(a, seller.token, "POST", "/api/market/developer/sell_order/items", {
        game: "cs2",
        assets: granted.assets.map((asset) => ({ assetid: asset.assetid, price: 1 })),
      });
      assert.equal(listed.status, 200);
      const goodsId = granted.assets[0]!.goods_id;
      const buyers = await Promise.all(Array.from({ length: 8 }, (_, index) => trader(index % 2 ? a : b)));
      for (const buyer of buyers)
        await call(a, ADMIN, "POST", `/sandbox/users/${buyer.user_id}/funds`, {
          account: "balance",
          amount: "100",
        });
      const bought = await Promise.all(
        buyers.map((buyer, index) =>
          call(index % 2 ? a : b, buyer.token, "POST", "/api/market/developer/purchase/orders", {
            game: "cs2",
            items: [{ goods_id: goodsId, max_price: 1, quantity: 5 }],
          }),
        ),
      );
      const units = bought.reduce(
        (sum, answer) =>
          sum +
          ((answer.body.result as Record<string, { success_num: number }>)[String(goodsId)]?.success_num ??
            0),
        0,
      );
      assert.equal(units, 20);
      const trades = await runOnServer(
        databaseUrl,
        "SELECT count(*)::int AS n, count(DISTINCT listing_id)::int AS d FROM trades",
      );
      assert.deepEqual(trades.rows[0], { n: 20, d: 20 });
    });

    test("a listing made through one instance shows in the other's whole-market prices", async () => {
      const [a, b] = instances as [Instance, Instance];
      const seller = await trader(a);
      const viewer = await trader(b);
      const wholeMarket = async () => {
        const response = await fetch(`${b.url}/api/market/items?game=cs2`, {
          headers: { authorization: `Bearer ${viewer.token}` },
        });
        const body = (await response.json()) as { info: Array<{ goods_id: number }>; stat_time: number };
        return { etag: response.headers.get("etag"), body };
      };
      // The other instance rebuilds after the earlier tests' changes without being asked: once
      // nothing changes any more, it keeps its snapshot and its validator.
      let before = await wholeMarket();
      let unchanged = before;
      for (let attempt = 0; attempt < 10; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 1200));
        unchanged = await wholeMarket();
        if (unchanged.etag === before.etag) break;
        before = unchanged;
      }
      assert.equal(unchanged.etag, before.etag);
      assert.equal(unchanged.body.stat_time, before.body.stat_time);

      const [asset] = (
        (
          await call(a, ADMIN, "POST", `/sandbox/platform/accounts/${seller.platformid}/items`, {
            market_hash_name: "Sticker | Howling Dawn",
            count: 1,
          })
        ).body as { assets: Array<{ assetid: string; goods_id: number }> }
      ).assets;
      assert.ok(!before.body.info.some((entry) => entry.goods_id === asset!.goods_id));
      const listed = await call(a, seller.token, "POST", "/api/market/developer/sell_order/items", {
        game: "cs2",
        assets: [{ assetid: asset!.assetid, price: 5 }],
      });
      assert.equal(listed.status, 200);
      const started = Date.now();
      let after = await wholeMarket();
      while (
        !after.body.info.some((entry) => entry.goods_id === asset!.goods_id) &&
        Date.now() - started < 10_000
      ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        after = await wholeMarket();
      }
      assert.ok(
        after.body.info.some((entry) => entry.goods_id === asset!.goods_id),
        "the listing shows",
      );
      assert.notEqual(after.etag, before.etag);
    });

    test("a listing made through one instance shows in the other's single-goods price after the notice", async () => {
      const [a, b] = instances as [Instance, Instance];
      const seller = await trader(a);
      const viewer = await trader(b);
      const [asset] = (
        (
          await call(a, ADMIN, "POST", `/sandbox/platform/accounts/${seller.platformid}/items`, {
            market_hash_name: "Sticker | Titan (Holo) | Katowice 2014",
            count: 1,
          })
        ).body as { assets: Array<{ assetid: string; goods_id: number }> }
      ).assets;
      const price = async (instance: Instance) => {
        const answer = await call(
          instance,
          viewer.token,
          "GET",
          `/api/market/items?game=cs2&goods_id=${asset!.goods_id}`,
        );
        return (answer.body.info as Array<{ sales: Array<{ min_price: string }> }>)[0]!.sales[0]!.min_price;
      };
      // Both instances have a snapshot without the listing.
      assert.equal(await price(b), "0.00");
      assert.equal(await price(a), "0.00");
      const listed = await call(a, seller.token, "POST", "/api/market/developer/sell_order/items", {
        game: "cs2",
        assets: [{ assetid: asset!.assetid, price: 6 }],
      });
      assert.equal(listed.status, 200);
      assert.equal(await price(a), "6.00", "the instance that made the change answers it at once");
      // The other instance answers it once the change notice arrives: no rebuild is awaited.
      let seen = await price(b);
      for (let attempt = 0; attempt < 100 && seen !== "6.00"; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        seen = await price(b);
      }
      assert.equal(seen, "6.00");
    });

    test("the clock moved on one instance is seen by the other; the timeout job on both fails a trade once", async () => {
      const [a, b] = instances as [Instance, Instance];
      const seller = await trader(a);
      const buyer = await trader(b);
      const [asset] = (
        (
          await call(a, ADMIN, "POST", `/sandbox/platform/accounts/${seller.platformid}/items`, {
            market_hash_name: STICKER,
            count: 1,
          })
        ).body as { assets: Array<{ assetid: string; goods_id: number }> }
      ).assets;
      await call(a, seller.token, "POST", "/api/market/developer/sell_order/items", {
        game: "cs2",
        assets: [{ assetid: asset!.assetid, price: 3 }],
      });
      await call(a, ADMIN, "POST", `/sandbox/users/${buyer.user_id}/funds`, {
        account: "balance",
        amount: "10",
      });
      const bought = await call(b, buyer.token, "POST", "/api/market/developer/purchase/orders", {
        game: "cs2",
        items: [{ goods_id: asset!.goods_id, max_price: 3, quantity: 1 }],
      });
      const tradeId = (bought.body.result as Record<string, { bill_order_ids: string[] }>)[
        String(asset!.goods_id)
      ]!.bill_order_ids[0]!;

      const moved = await call(a, ADMIN, "POST", "/sandbox/clock/advance", { seconds: 13 * 3600 });
      let seen = 0;
      for (let attempt = 0; attempt < 50 && seen < (moved.body.offset_seconds as number); attempt++) {
        seen = (await call(b, ADMIN, "GET", "/sandbox/clock")).body.offset_seconds as number;
        if (seen < (moved.body.offset_seconds as number))
          await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(seen, moved.body.offset_seconds, "the other instance follows the clock");

      const runs = await Promise.all(
        [a, b].map((instance) => call(instance, ADMIN, "POST", "/sandbox/jobs/run")),
      );
      const processed = runs
        .flatMap((run) => run.body.jobs as Array<{ name: string; processed: number }>)
        .filter((job) => job.name === "sync-trades")
        .reduce((sum, job) => sum + job.processed, 0);
      // Every trade waiting for its seller (this one and the earlier test's) timed out: each was
      // processed by one instance only and refunded exactly once.
      const timedOut = await runOnServer(
        databaseUrl,
        `SELECT count(*)::int AS n FROM trades WHERE state = 'FAIL' AND rollback_by = 'seller_timeout'`,
      );
      assert.ok(processed >= 1);
      assert.equal(processed, timedOut.rows[0].n);
      const refunds = await runOnServer(
        databaseUrl,
        `SELECT reference, count(*)::int AS n FROM journal_entries WHERE kind = 'trade_refund' GROUP BY reference`,
      );
      assert.equal(refunds.rows.length, processed);
      assert.ok(refunds.rows.every((row) => row.n === 1));
      assert.ok(refunds.rows.some((row) => row.reference === `trade:${tradeId}`));
      const balance = await call(a, buyer.token, "GET", "/api/market/developer/balance");
      assert.equal(balance.body.market_balance, "10.00");
    });

    test("webhooks: events made through both instances reach the receiver once each, in order, by the servers' own workers", async () => {
      const [a, b] = instances as [Instance, Instance];
      const received: Array<{ id: string; body: string; signature: string }> = [];
      let arrived: () => void = () => undefined;
      const receiver = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on("data", (chunk: Buffer) => chunks.push(chunk));
        request.on("end", () => {
          const body = Buffer.concat(chunks).toString("utf8");
          received.push({
            id: String(request.headers["skinmarket-event-id"]),
            body,
            signature: String(request.headers["skinmarket-signature"]),
          });
          response.end();
          arrived();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
      try {
        const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
        const user = (await call(a, ADMIN, "POST", "/sandbox/users", {})).body as {
          user_id: string;
          token: string;
        };
        const endpoint = (
          await call(b, user.token, "POST", "/api/market/developer/webhooks", {
            url,
            types: ["balance.changed"],
          })
        ).body as { id: string; secret: string };
        const deposits = 10;
        await Promise.all(
          Array.from({ length: deposits }, (_, index) =>
            call(index % 2 === 0 ? a : b, ADMIN, "POST", `/sandbox/users/${user.user_id}/funds`, {
              account: "balance",
              amount: 1,
            }),
          ),
        );
        // No job run: each server's worker is woken by the events it hears of.
        while (received.length < deposits) await new Promise<void>((resolve) => (arrived = resolve));
        const events = (await call(a, user.token, "GET", "/api/market/developer/events?limit=100")).body as {
          items: Array<{ id: string }>;
        };
        assert.deepEqual(
          received.map((request) => request.id),
          events.items.map((event) => event.id),
          "every event once, in the log's order",
        );
        const deliveries = (
          await call(
            a,
            user.token,
            "GET",
            `/api/market/developer/webhooks/${endpoint.id}/deliveries?page_size=100`,
          )
        ).body as { items: Array<{ state: string; attempts: number }> };
        assert.equal(deliveries.items.length, deposits);
        assert.ok(
          deliveries.items.every((delivery) => delivery.state === "delivered" && delivery.attempts === 1),
          "no delivery was sent twice",
        );
        for (const request of received) {
          const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(request.signature) ?? [];
          const expected = createHmac("sha256", endpoint.secret).update(`${t}.${request.body}`).digest("hex");
          assert.equal(v1, expected, "signed with the endpoint's secret");
        }
      } finally {
        await new Promise((resolve) => receiver.close(resolve));
      }
    });
  },
);
