import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestApp, type TestApp } from "../support/test-app.ts";

describe("GET /api/market/developer/balance", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test("happy: a new user has zero in every account, as two-decimal strings", async () => {
    const user = await t.createUser();
    const response = await t.as(user.token, "GET", "/api/market/developer/balance");
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), {
      market_balance: "0.00",
      margin_balance: "0.00",
      wallet_balance: "0.00",
      frozen_amount: "0.00",
    });
    await t.assertLedger();
  });

  test("happy: deposits to balance, margin and wallet show in their fields", async () => {
    const user = await t.createUser();
    await t.fund(user.userId, "balance", "100.5");
    await t.assertLedger();
    await t.fund(user.userId, "margin", 20);
    await t.assertLedger();
    await t.fund(user.userId, "wallet", "0.07");
    await t.assertLedger();
    const response = await t.as(user.token, "GET", "/api/market/developer/balance");
    assert.deepEqual(response.json(), {
      market_balance: "100.50",
      margin_balance: "20.00",
      wallet_balance: "0.07",
      frozen_amount: "0.00",
    });
  });

  test("error: query parameters it does not use are ignored, the answer is unchanged", async () => {
    const user = await t.createUser();
    const response = await t.as(user.token, "GET", "/api/market/developer/balance?game=cs2&_=1");
    assert.equal(response.statusCode, 200);
    assert.equal(response.json().market_balance, "0.00");
  });

  test("security: each caller sees only their own money", async () => {
    const rich = await t.createUser();
    const poor = await t.createUser();
    await t.fund(rich.userId, "balance", 999);
    const response = await t.as(poor.token, "GET", "/api/market/developer/balance");
    assert.equal(response.json().market_balance, "0.00");
    const own = await t.as(rich.token, "GET", "/api/market/developer/balance");
    assert.equal(own.json().market_balance, "999.00", "the funded user sees the money");
  });
});
