import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import createClient from "openapi-fetch";
import { OPENAPI_TYPES_FILE, openApiTypesSource } from "../../scripts/openapi-types.ts";
import type { paths } from "../support/openapi-paths.ts";
import { createReadyTrader, goodsIdOf } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

/**
 * A client generated from the served document, as a bot developer would make one: openapi-typescript
 * turns /openapi.json into types (committed, so that `npm run typecheck` checks the calls below
 * against them), openapi-fetch calls a listening server with them. Optional parameters are left
 * out: what has a default must not be demanded by a generated client.
 */
describe("a typed client generated from /openapi.json", () => {
  let t: TestApp;
  let baseUrl: string;
  before(async () => {
    t = await createTestApp({ catalog: true });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(() => t.close());

  test("the committed types are what openapi-typescript makes of the served document (npm run openapi:types)", async () => {
    const document = await (await fetch(`${baseUrl}/openapi.json`)).json();
    const expected = await openApiTypesSource(document as object);
    assert.equal(await readFile(OPENAPI_TYPES_FILE, "utf8"), expected, "run `npm run openapi:types`");
  });

  test("reads a balance, places a buy order and finds it in the public book, through the generated client", async () => {
    // A trader whose platform account is set up: a buy order needs somewhere to deliver to.
    const user = await createReadyTrader(t);
    await t.fund(user.userId, "balance", "100.00");
    const goodsId = await goodsIdOf(t, "AK-47 | Redline (Field-Tested)");
    const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${user.token}` } });

    const balance = await client.GET("/api/market/developer/balance");
    assert.equal(balance.response.status, 200, JSON.stringify(balance.error));
    assert.equal(balance.data?.market_balance, "100.00");

    // pay_method, specific, allow_tradable_cooldown, platformid and trade_url left out.
    const created = await client.POST("/api/market/developer/buy_order", {
      body: { game: "cs2", goods_id: goodsId, price: "12.50", num: 2 },
    });
    assert.equal(created.response.status, 200, JSON.stringify(created.error));
    assert.equal(created.data?.state, "progressing");
    assert.equal(created.data?.num, 2);
    await t.assertLedger();

    // page_num and page_size left out: their defaults apply.
    const book = await client.GET("/api/market/goods/buy_order", {
      params: { query: { game: "csgo", goods_id: goodsId } },
    });
    assert.equal(book.response.status, 200, JSON.stringify(book.error));
    assert.equal(book.data?.data.page_num, 1);
    assert.deepEqual(
      book.data?.data.items.map((order) => [order.id, order.price, order.num]),
      [[created.data?.id, "12.50", 2]],
    );
  });

  test("a refusal comes back typed as the documented error body", async () => {
    const client = createClient<paths>({ baseUrl, headers: { authorization: "Bearer smk_not-a-token" } });
    const refused = await client.GET("/api/market/developer/balance");
    assert.equal(refused.response.status, 401);
    assert.equal(refused.error?.code, "Unauthorized");
  });
});
