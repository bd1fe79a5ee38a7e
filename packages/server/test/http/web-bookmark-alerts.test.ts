import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { listBookmarks, setBookmarkAlert } from "@skinmarket/contract";
import type { TSchema } from "typebox";
import { Value } from "typebox/value";
import { createReadyTrader, goodsIdOf, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { createWebTrader, listNew, type WebTrader } from "../support/web-trader.ts";

const STICKER = "Sticker | Crown (Foil)";
const REDLINE = "AK-47 | Redline (Field-Tested)";
const ALERT = "/api/market/goods/bookmark/alert";

function assertSchema(schema: TSchema, value: unknown): void {
  const errors = [...Value.Errors(schema, value)].map((error) => `${error.instancePath} ${error.message}`);
  assert.deepEqual(errors, [], JSON.stringify(value));
}

/**
 * POST /api/market/goods/bookmark/alert and the `bookmark.price_alert` event
 * (docs/design/events.md#price-alerts-on-bookmarks): happy, error and security cases, and the
 * event's webhook delivery.
 */
describe("price alerts on bookmarks over HTTP", () => {
  let t: TestApp;
  let watcher: WebTrader;
  let other: WebTrader;
  let seller: PlatformFixture;
  let stickerId: number;
  let redlineId: number;

  const bookmark = async (trader: WebTrader, goodsId: number) => {
    const response = await t.web(trader.session, "POST", "/api/market/goods/bookmark", {
      type: "goods",
      id: String(goodsId),
    });
    assert.equal(response.statusCode, 200, response.body);
  };
  const setAlert = (trader: WebTrader, body: Record<string, unknown>) =>
    t.web(trader.session, "POST", ALERT, body);

  before(async () => {
    t = await createTestApp({ catalog: true, webhookAllowPrivateUrls: true });
    stickerId = await goodsIdOf(t, STICKER);
    redlineId = await goodsIdOf(t, REDLINE);
    seller = await createReadyTrader(t, "alert-http-seller");
    watcher = await createWebTrader(t, "alert-http-watcher");
    other = await createWebTrader(t, "alert-http-other");
    await bookmark(watcher, stickerId);
    await bookmark(other, redlineId);
  });
  after(() => t.close());

  test("happy: set on a bookmarked goods, answered as the record, shown in the bookmarks list", async () => {
    await listNew(t, seller, { market_hash_name: STICKER }, [12]);
    const set = await setAlert(watcher, { id: String(stickerId), sell_at: "10.5", buy_at: 3 });
    assert.equal(set.statusCode, 200, set.body);
    assertSchema(setBookmarkAlert.response, set.json());
    const alert = set.json().data.alert;
    assert.deepEqual(
      [
        alert.goods_id,
        alert.market_hash_name,
        alert.sell_at,
        alert.buy_at,
        alert.sell_reached,
        alert.buy_reached,
      ],
      [String(stickerId), STICKER, "10.50", "3.00", false, false],
    );
    assert.equal(alert.fired_at, null);
    const listed = await t.web(watcher.session, "GET", "/api/market/goods/bookmark?game=csgo&type=goods");
    assert.equal(listed.statusCode, 200, listed.body);
    assertSchema(listBookmarks.response, listed.json());
    assert.deepEqual(listed.json().data.items[0].alert, alert);

    const cleared = await setAlert(watcher, { id: String(stickerId), sell_at: null });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.deepEqual([cleared.json().data.alert.sell_at, cleared.json().data.alert.buy_at], [null, null]);
    const relisted = await t.web(watcher.session, "GET", "/api/market/goods/bookmark?game=csgo&type=goods");
    assert.equal(relisted.json().data.items[0].alert, null, "no prices: no alert");
  });

  test("error: bad prices and ids are 400 naming the field; goods not bookmarked is 404 naming id", async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ id: String(stickerId), sell_at: "-1" }, /^sell_at: must not be negative/],
      [{ id: String(stickerId), sell_at: 0 }, /^sell_at: must be greater than 0/],
      [{ id: String(stickerId), buy_at: "1.234" }, /^buy_at: /],
      [{ id: String(stickerId), buy_at: "ten" }, /^buy_at: /],
      [{ id: "abc", sell_at: "1" }, /^id/],
      [{ sell_at: "1" }, /id/],
      [{ id: String(stickerId), sell_at: "1", target: "x" }, /target/],
    ];
    for (const [body, message] of cases) {
      const response = await setAlert(watcher, body);
      assert.equal(response.statusCode, 400, `${JSON.stringify(body)} ${response.body}`);
      assert.equal(response.json().code, "Invalid Argument");
      assert.match(response.json().error, message, JSON.stringify(body));
    }
    const notBookmarked = await setAlert(watcher, { id: String(redlineId), sell_at: "1" });
    assert.equal(notBookmarked.statusCode, 404, notBookmarked.body);
    assert.match(notBookmarked.json().error, /^id: /);
    const tooLarge = await setAlert(watcher, { id: "999999999999", sell_at: "1" });
    assert.equal(tooLarge.statusCode, 404, tooLarge.body);
  });

  test("security: another user's bookmark is Not Found and keeps its alert; no session or no CSRF token writes nothing", async () => {
    const own = await setAlert(other, { id: String(redlineId), sell_at: "20.00" });
    assert.equal(own.statusCode, 200, own.body);
    const foreign = await setAlert(watcher, { id: String(redlineId), sell_at: "1.00" });
    assert.equal(foreign.statusCode, 404, foreign.body);
    assert.equal(foreign.json().code, "Not Found");
    const anonymous = await t.app.inject({ method: "POST", url: ALERT, payload: { id: String(redlineId) } });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.json().code, "Login Required");
    const noCsrf = await t.app.inject({
      method: "POST",
      url: ALERT,
      headers: { cookie: watcher.session.cookie.replace(/;?\s*csrf_token=[^;]*/, "") },
      payload: { id: String(stickerId), sell_at: "1.00" },
    });
    assert.notEqual(noCsrf.statusCode, 200, noCsrf.body);
    const kept = await t.database.db
      .selectFrom("bookmarks")
      .select(["user_id", "alert_sell_at"])
      .where("target_id", "in", [redlineId, stickerId])
      .orderBy("user_id")
      .execute();
    assert.deepEqual(
      kept.map((row) => [String(row.user_id), row.alert_sell_at === null ? null : Number(row.alert_sell_at)]),
      [
        [watcher.userId, null],
        [other.userId, 2000],
      ],
    );
  });

  test("webhook: an endpoint for bookmark.price_alert receives the crossing once, signed, with its record", async () => {
    const received: Array<{ headers: Record<string, unknown>; event: Record<string, unknown> }> = [];
    const server: Server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        received.push({
          headers: request.headers,
          event: JSON.parse(Buffer.concat(chunks).toString("utf8")),
        });
        response.end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      const hook = await t.as(watcher.token, "POST", "/api/market/developer/webhooks", {
        url,
        types: ["bookmark.price_alert"],
      });
      assert.equal(hook.statusCode, 200, hook.body);
      const set = await setAlert(watcher, { id: String(stickerId), sell_at: "9.00" });
      assert.equal(set.statusCode, 200, set.body);
      await listNew(t, seller, { market_hash_name: STICKER }, [8.8]);
      await t.admin("POST", "/sandbox/jobs/run");
      await listNew(t, seller, { market_hash_name: STICKER }, [8.7]);
      const jobs = await t.admin("POST", "/sandbox/jobs/run");
      assert.equal(jobs.statusCode, 200, jobs.body);
      assert.equal(received.length, 1, JSON.stringify(received.map((request) => request.event)));
      const [delivery] = received;
      assert.equal(delivery!.event.type, "bookmark.price_alert");
      assert.equal(delivery!.event.goods_id, stickerId);
      assert.match(String(delivery!.headers["skinmarket-signature"]), /^t=\d+,v1=[0-9a-f]{64}$/);
      assert.equal(delivery!.headers["skinmarket-event-id"], delivery!.event.id);
      const data = delivery!.event.data as { crossed: string; price: string; alert: Record<string, unknown> };
      assert.deepEqual(
        [data.crossed, data.price, data.alert.sell_at, data.alert.sell_reached],
        ["sell", "8.80", "9.00", true],
      );
      // The other user's alert on other goods owes this endpoint nothing.
      const owed = await t.database.db.selectFrom("webhook_deliveries").select("event_id").execute();
      assert.equal(owed.length, 1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
