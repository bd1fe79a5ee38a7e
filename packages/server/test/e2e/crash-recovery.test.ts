import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { sql } from "kysely";
import { findLedgerViolations } from "../../src/domain/wallet/check-ledger-invariants.ts";
import { openDatabase, type DatabaseHandle } from "../../src/storage/database.ts";
import { runOnServer, urlOfDatabase } from "../../src/storage/postgres-admin.ts";

const MAIN = join(import.meta.dirname, "../../src/main.ts");
const DATABASE_URL = process.env.TEST_DATABASE_URL;
/** Kills per run; CRASH_ROUNDS raises it for a longer soak. */
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 2);
const ADMIN = `sma_${randomBytes(24).toString("hex")}`;
const BUYERS = 8;
/** The crossing: one bid at 5.00 for as many units as there are listings at 5.00. */
const CROSSING_UNITS = 150;
const CROSSING_PRICE_FEN = 500;

interface Server {
  process: ChildProcess;
  url: string;
  output: string;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  replayed: boolean;
}

/** A keyed write sent during the burst, with what came back before the kill (if anything). */
interface Sent {
  token: string;
  path: string;
  body: unknown;
  key: string;
  requestId: string;
  answer?: Answer;
}

interface Trader {
  user_id: string;
  token: string;
  platformid: string;
}

/** Units a purchase answer says were bought. */
function boughtIn(body: Record<string, unknown>): number {
  const result = body.result as Record<string, { success_num: number }>;
  return Object.values(result).reduce((sum, entry) => sum + entry.success_num, 0);
}

/**
 * `kill -9` in the middle of purchase bursts and of a buy order crossing 150 listings, on
 * PostgreSQL, then a restart (docs/design/recovery.md#recovery-at-start and "An idempotency
 * key's life when its request dies"): the ledger and every item are consistent before and after,
 * the crossing is finished by the restart, keys of killed requests let a retry through once their
 * lease passes (no "still being answered", no effect twice), and trades go on.
 */
describe("a server killed in the middle of purchases and a crossing", () => {
  const databaseName = `skinmarket_crash_${process.pid}_${Date.now()}`;
  let databaseUrl: string;
  let server: Server;
  let database: DatabaseHandle;

  async function start(): Promise<Server> {
    const child = spawn(process.execPath, [MAIN, "serve", "--port", "0", "--log-level", "info"], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        REDIS_URL: "",
        SANDBOX: "on",
        SANDBOX_ADMIN_TOKEN: ADMIN,
        SECRET_KEY: "cd".repeat(32),
        DEMO: "off",
        LIMITS: "off",
        // No job runs by itself: what the restart finishes, recovery at start finished.
        JOBS_INTERVAL_MS: "3600000",
      },
      stdio: "pipe",
    });
    const started: Server = { process: child, url: "", output: "" };
    started.url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start:\n${started.output}`)), 90_000);
      child.stdout?.on("data", (chunk: Buffer) => {
        started.output += chunk;
        const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)".*skinmarket is serving/.exec(started.output);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.stderr?.on("data", (chunk: Buffer) => (started.output += chunk));
      child.on("exit", (code) => reject(new Error(`exited with ${code}:\n${started.output}`)));
    });
    return started;
  }

  async function kill(): Promise<void> {
    const exited = new Promise((resolve) => server.process.once("exit", resolve));
    server.process.kill("SIGKILL");
    await exited;
  }

  const call = async (
    token: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: response.status,
      body: (await response.json()) as Record<string, unknown>,
      replayed: response.headers.get("idempotent-replayed") === "true",
    };
  };
  const ok = async (token: string, method: string, path: string, body?: unknown) => {
    const answer = await call(token, method, path, body);
    assert.equal(answer.status, 200, `${method} ${path}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  /** Sends a keyed write, remembering its answer; a connection cut by the kill leaves none. */
  const send = async (sent: Sent): Promise<void> => {
    try {
      sent.answer = await call(sent.token, "POST", sent.path, sent.body, {
        "idempotency-key": sent.key,
        "x-request-id": sent.requestId,
      });
    } catch {
      // The server died while the request was in flight.
    }
  };

  async function trader(funds = 0): Promise<Trader> {
    const user = (await ok(ADMIN, "POST", "/sandbox/users", {})) as { user_id: string; token: string };
    const account = (await ok(ADMIN, "POST", "/sandbox/platform/accounts", { user_id: user.user_id })) as {
      platformid: string;
      cookies: string;
    };
    await ok(user.token, "POST", "/api/market/developer/platform/cookie", {
      platformid: account.platformid,
      platform_cookies: account.cookies,
    });
    await ok(user.token, "POST", "/api/market/developer/platform/setup", {
      platformid: account.platformid,
    });
    if (funds > 0)
      await ok(ADMIN, "POST", `/sandbox/users/${user.user_id}/funds`, {
        account: "balance",
        amount: funds,
      });
    return { ...user, platformid: account.platformid };
  }

  async function list(seller: Trader, goodsId: number, count: number, price: number): Promise<void> {
    const granted = (await ok(ADMIN, "POST", `/sandbox/platform/accounts/${seller.platformid}/items`, {
      goods_id: goodsId,
      count,
      random_extras: false,
    })) as { assets: Array<{ assetid: string }> };
    for (let start = 0; start < granted.assets.length; start += 200) {
      await ok(seller.token, "POST", "/api/market/developer/sell_order/items", {
        game: "cs2",
        assets: granted.assets.slice(start, start + 200).map((asset) => ({ assetid: asset.assetid, price })),
      });
    }
  }

  /** Everything that must hold whatever moment the process died at. */
  async function assertConsistent(when: string): Promise<void> {
    assert.deepEqual(await findLedgerViolations(database.db), [], `${when}: ledger invariants`);
    const items = await sql<{ problem: string }>`
        SELECT 'listing ' || l.listing_id || ' is SOLD with ' || count(t.trade_id) || ' trades' AS problem
        FROM listings l LEFT JOIN trades t ON t.listing_id = l.listing_id
        WHERE l.state = 'SOLD' GROUP BY l.listing_id HAVING count(t.trade_id) <> 1
        UNION ALL
        SELECT 'trade ' || t.trade_id || ' of a listing ' || l.state FROM trades t
        JOIN listings l ON l.listing_id = t.listing_id WHERE l.state <> 'SOLD'
        UNION ALL
        SELECT 'listing ' || l.listing_id || ' on sale with its item in a live trade' FROM listings l
        WHERE l.state = 'ON_SALE' AND EXISTS (SELECT 1 FROM trades t WHERE t.assetid = l.assetid
          AND t.state IN ('PAYING', 'SELLER_TO_SEND_OFFER', 'TRADING'))
        UNION ALL
        SELECT 'asset ' || assetid || ' on sale ' || count(*) || ' times' FROM listings
        WHERE state = 'ON_SALE' GROUP BY assetid HAVING count(*) > 1
      `.execute(database.db);
    assert.deepEqual(
      items.rows.map((row) => row.problem),
      [],
      `${when}: every item in one place`,
    );
  }

  /** Orders of the public book that a listing on sale matches by price: the book is crossed. */
  async function crossedOrders(): Promise<number> {
    const crossed = await sql<{ count: string }>`
        SELECT count(*) AS count FROM buy_orders b JOIN users u ON u.user_id = b.user_id
        WHERE b.state = 'progressing' AND u.buy_order_status = 'online'
          AND b.real_num + b.frozen_num < b.num
          AND EXISTS (SELECT 1 FROM listings l WHERE l.goods_id = b.goods_id AND l.state = 'ON_SALE'
            AND l.price <= b.price AND l.user_id <> b.user_id AND NOT l.force_buyer_send_offer
            AND (b.allow_tradable_cooldown OR l.tradable_after IS NULL))
      `.execute(database.db);
    return Number(crossed.rows[0]!.count);
  }

  /** Trades opened by one request, told apart by the request id their audit rows carry. */
  async function tradesOfRequest(requestId: string): Promise<number> {
    const trades = await sql<{ count: string }>`
        SELECT count(*) AS count FROM audit_events WHERE action = 'trade.create' AND request_id = ${requestId}
      `.execute(database.db);
    return Number(trades.rows[0]!.count);
  }

  // Without PostgreSQL the test is reported as skipped (a skipped suite would count no test).
  before(async () => {
    if (!DATABASE_URL) return;
    await runOnServer(DATABASE_URL!, `CREATE DATABASE ${databaseName}`);
    databaseUrl = urlOfDatabase(DATABASE_URL!, databaseName);
    server = await start();
    database = await openDatabase({ kind: "postgres", url: databaseUrl });
  });

  after(async () => {
    if (!DATABASE_URL) return;
    if (server.process.exitCode === null && server.process.signalCode === null) {
      const exited = new Promise((resolve) => server.process.once("exit", resolve));
      server.process.kill("SIGTERM");
      await exited;
    }
    await database?.close();
    await runOnServer(DATABASE_URL!, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  });

  test(
    `${ROUNDS} kills mid-burst and mid-crossing: consistent, crossing finished, keys retried once, trades resumed`,
    { skip: !DATABASE_URL && "needs TEST_DATABASE_URL (PostgreSQL)" },
    async (t) => {
      const goods = await sql<{ goods_id: number }>`
        SELECT goods_id FROM goods WHERE is_standard ORDER BY goods_id LIMIT ${2 * ROUNDS}
      `.execute(database.db);
      const seller = await trader();
      const buyers = await Promise.all(Array.from({ length: BUYERS }, () => trader(10_000)));
      for (let round = 0; round < ROUNDS; round++) {
        const burstGoods = goods.rows[2 * round]!.goods_id;
        const crossGoods = goods.rows[2 * round + 1]!.goods_id;
        await list(seller, burstGoods, 100, 1);
        const listed = performance.now();
        await list(seller, crossGoods, CROSSING_UNITS, CROSSING_PRICE_FEN / 100);
        const bidder = await trader(1_000);
        t.diagnostic(`round ${round}: listed in ${Math.round(performance.now() - listed)} ms`);

        // Purchases keep coming from every buyer until the kill; the bid crosses 150 listings.
        const sent: Sent[] = [];
        let alive = true;
        const bursts = buyers.map(async (buyer) => {
          while (alive) {
            const purchase: Sent = {
              token: buyer.token,
              path: "/api/market/developer/purchase/orders",
              body: { game: "cs2", items: [{ goods_id: burstGoods, max_price: 1, quantity: 3 }] },
              key: `purchase-${randomUUID()}`,
              requestId: `crash-${randomUUID()}`,
            };
            sent.push(purchase);
            await send(purchase);
          }
        });
        // The burst runs a moment before the bid, so that the kill finds purchases at every stage.
        while (sent.filter((request) => request.answer).length < 2 * BUYERS)
          await new Promise((resolve) => setTimeout(resolve, 10));
        const bid: Sent = {
          token: bidder.token,
          path: "/api/market/developer/buy_order",
          body: { game: "cs2", goods_id: crossGoods, price: CROSSING_PRICE_FEN / 100, num: CROSSING_UNITS },
          key: `bid-${round}`,
          requestId: `crash-bid-${randomUUID()}`,
        };
        sent.push(bid);
        const bidding = send(bid);
        // Kill once the crossing has filled some units (1 to 100, at random): surely in the middle.
        const killAt = 1 + Math.floor(Math.random() * 100);
        const deadline = Date.now() + 20_000;
        let filled = 0;
        while (filled < killAt && Date.now() < deadline) {
          const order = await database.db
            .selectFrom("buy_orders")
            .select("frozen_num")
            .where("user_id", "=", Number(bidder.user_id))
            .executeTakeFirst();
          filled = order?.frozen_num ?? 0;
        }
        await kill();
        alive = false;
        await Promise.all([...bursts, bidding]);

        const [order] = await database.db
          .selectFrom("buy_orders")
          .selectAll()
          .where("user_id", "=", Number(bidder.user_id))
          .execute();
        assert.ok(order, `round ${round}: the bid was committed before the kill`);
        assert.ok(
          order.frozen_num >= 1 && order.frozen_num < CROSSING_UNITS,
          `round ${round}: killed mid-crossing (${order.frozen_num} of ${CROSSING_UNITS} filled)`,
        );
        assert.ok((await crossedOrders()) >= 1, `round ${round}: the kill left the book crossed`);
        await assertConsistent(`round ${round}, after the kill`);

        const restarting = performance.now();
        server = await start();
        t.diagnostic(`round ${round}: restarted in ${Math.round(performance.now() - restarting)} ms`);
        // Recovery at start ran before the server listened.
        assert.equal(await crossedOrders(), 0, `round ${round}: no crossed order after the restart`);
        const finished = await database.db
          .selectFrom("buy_orders")
          .select("frozen_num")
          .where("buy_order_id", "=", order.buy_order_id)
          .executeTakeFirstOrThrow();
        assert.equal(finished.frozen_num, CROSSING_UNITS, `round ${round}: the crossing took every listing`);
        await assertConsistent(`round ${round}, after the restart`);

        // Keys of killed requests: after their 30-second lease (marketplace clock) a retry goes
        // through, once; answered keys replay their answer.
        await ok(ADMIN, "POST", "/sandbox/clock/advance", { seconds: 31 });
        const killed = sent.filter((request) => request.answer === undefined);
        let tookOver = 0;
        const retries: Sent[] = sent.map((request) => ({
          ...request,
          requestId: `crash-retry-${randomUUID()}`,
          answer: undefined,
        }));
        await Promise.all(retries.map(send));
        for (const [index, request] of sent.entries()) {
          const retry = retries[index]!;
          const answer = retry.answer!;
          if (request.answer) {
            assert.equal(answer.replayed, true, `${request.key}: an answered key replays`);
            assert.equal(answer.status, request.answer.status);
            assert.deepEqual(answer.body, request.answer.body);
            continue;
          }
          assert.ok(answer.status < 500, `${request.key}: ${JSON.stringify(answer.body)}`);
          assert.doesNotMatch(String(answer.body.msg), /still being answered/, request.key);
          const first = await tradesOfRequest(request.requestId);
          if (answer.replayed) {
            // The killed request's answer was stored (it died while sending it), or the key says
            // that it committed changes: either way the retry did nothing.
            assert.equal(await tradesOfRequest(retry.requestId), 0, `${request.key}: the retry did nothing`);
            if (answer.status === 409)
              assert.match(String(answer.body.msg), /failed after committing changes, which stand/);
            else if (request.path.endsWith("purchase/orders"))
              assert.equal(
                boughtIn(answer.body),
                first,
                `${request.key}: the stored answer names its trades`,
              );
          } else {
            assert.equal(answer.status, 200, `${request.key}: ${JSON.stringify(answer.body)}`);
            assert.equal(first, 0, `${request.key}: taken over only when the killed request bought nothing`);
            tookOver += 1;
          }
        }
        const bids = await database.db
          .selectFrom("buy_orders")
          .select("buy_order_id")
          .where("user_id", "=", Number(bidder.user_id))
          .execute();
        assert.equal(bids.length, 1, `round ${round}: the bid was placed once`);
        await assertConsistent(`round ${round}, after the retries`);

        // Trades go on: a trade opened before the kill is delivered and paid out.
        const trade = await database.db
          .selectFrom("trades")
          .select("trade_id")
          .where("buy_order_id", "=", order.buy_order_id)
          .orderBy("trade_id")
          .executeTakeFirstOrThrow();
        await ok(seller.token, "POST", "/api/market/developer/sell_order/send_offer", {
          order_id: String(trade.trade_id),
        });
        const { tradeofferid } = await database.db
          .selectFrom("trades")
          .select("tradeofferid")
          .where("trade_id", "=", trade.trade_id)
          .executeTakeFirstOrThrow();
        await ok(ADMIN, "POST", `/sandbox/platform/offers/${tradeofferid}/accept`);
        await ok(ADMIN, "POST", "/sandbox/jobs/run");
        const delivered = await database.db
          .selectFrom("trades")
          .select("state")
          .where("trade_id", "=", trade.trade_id)
          .executeTakeFirstOrThrow();
        assert.equal(delivered.state, "SUCCESS", `round ${round}: a trade from before the kill completes`);
        await assertConsistent(`round ${round}, after a delivery`);
        t.diagnostic(
          `round ${round}: ${sent.length} keyed requests, ${killed.length} killed in flight ` +
            `(${tookOver} retried afresh), crossing killed at ${order.frozen_num}/${CROSSING_UNITS}`,
        );
      }
    },
  );
});
