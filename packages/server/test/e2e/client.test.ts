import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  MarketApiError,
  MarketClient,
  MarketTransportError,
  SandboxClient,
  WebClient,
} from "@skinmarket/client";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../support/test-app.ts";

/** The client package against a listening server, over real HTTP. */
describe("MarketClient, SandboxClient and WebClient end to end", () => {
  let t: TestApp;
  let baseUrl: string;
  let sandbox: SandboxClient;
  before(async () => {
    t = await createTestApp();
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    sandbox = new SandboxClient({ baseUrl, token: ADMIN_TOKEN });
  });
  after(() => t.close());

  test("a bot developer funds a user and reads the balance and settings through the SDK", async () => {
    const user = await sandbox.createUser({ nickname: "sdk-user", password: "sdk-password" });
    await sandbox.fundAccount(user.user_id, { account: "balance", amount: "250.75" });
    await sandbox.fundAccount(user.user_id, { account: "margin", amount: 10 });
    const market = new MarketClient({ baseUrl, token: user.token });
    assert.deepEqual(await market.getBalance(), {
      market_balance: "250.75",
      margin_balance: "10.00",
      wallet_balance: "0.00",
      frozen_amount: "0.00",
    });
    const movements = await market.listLedgerEntries({ limit: 1 });
    assert.deepEqual(
      [movements.items.map((entry) => [entry.kind, entry.lines]), movements.has_more],
      [[["deposit", [{ account: "margin_balance", amount: "10.00", balance_after: "10.00" }]]], true],
    );
    const older = await market.listLedgerEntries({ before: movements.items[0]!.id });
    assert.deepEqual(
      older.items.map((entry) => entry.lines[0]),
      [{ account: "market_balance", amount: "250.75", balance_after: "250.75" }],
    );
    assert.deepEqual(await market.setBuyOrderStatus({ buy_order_status: "offline" }), {
      buy_order_auto_offline: false,
      buy_order_status: "offline",
    });
    assert.equal((await market.getBuyOrderStatus()).buy_order_status, "offline");
    assert.deepEqual(await sandbox.getBalances(user.user_id), {
      balance: "250.75",
      margin: "10.00",
      wallet: "0.00",
      escrow: "0.00",
    });
    await t.assertLedger();
  });

  test("failures raise MarketApiError with code, msg and HTTP status", async () => {
    const user = await sandbox.createUser();
    await sandbox.revokeToken(user.token_id);
    const market = new MarketClient({ baseUrl, token: user.token });
    await assert.rejects(market.getBalance(), (error: unknown) => {
      assert.ok(error instanceof MarketApiError);
      assert.equal(error.code, "Unauthorized");
      assert.equal(error.status, 401);
      assert.equal(error.msg, "this token has been revoked");
      assert.ok(error.requestId);
      return true;
    });
    const fresh = await sandbox.createToken(user.user_id);
    const refreshed = new MarketClient({ baseUrl, token: fresh.token });
    await assert.rejects(
      refreshed.setBuyOrderStatus({ buy_order_status: "sleeping" as "online" }),
      (error: unknown) =>
        error instanceof MarketApiError && error.code === "Invalid Argument" && error.status === 400,
    );
    await assert.rejects(
      sandbox.withdrawFunds(user.user_id, { account: "wallet", amount: "1" }),
      (error: unknown) =>
        error instanceof MarketApiError && error.code === "Insufficient Balance" && error.status === 409,
    );
  });

  test("the web client signs in, keeps the session cookie, and signs out", async () => {
    await sandbox.createUser({ nickname: "web-sdk", password: "web-password" });
    const web = new WebClient({ baseUrl });
    await assert.rejects(
      web.getUserInfo(),
      (error: unknown) => error instanceof MarketApiError && error.code === "Login Required",
    );
    const signedIn = await web.login("web-sdk", "web-password");
    assert.equal(signedIn.data.nickname, "web-sdk");
    assert.equal((await web.getUserInfo()).data.nickname, "web-sdk");
    // The session's own state, as real tools probe it.
    assert.deepEqual((await web.getSteamTrades()).data, []);
    assert.deepEqual((await web.getNotification()).data.to_deliver_order, { csgo: 0, dota2: 0 });
    assert.equal((await web.getBriefAsset()).data.cash_amount, "0.00");
    await web.logout();
    await assert.rejects(
      web.getSteamTrades(),
      (error: unknown) => error instanceof MarketApiError && error.code === "Login Required",
    );
    assert.equal(web.signedIn, false);
  });

  test("the sandbox client moves the clock, runs jobs and resets the world", async () => {
    const before = await sandbox.getClock();
    const after = await sandbox.advanceClock(7 * 24 * 3600);
    assert.equal(after.offset_seconds - before.offset_seconds, 7 * 24 * 3600);
    assert.ok((await sandbox.runJobs()).jobs.length >= 1);
    await sandbox.updateUserSettings((await sandbox.createUser()).user_id, { buy_order_auto_offline: true });
    assert.deepEqual(await sandbox.reset(), { reset: true });
    assert.equal((await sandbox.getClock()).offset_seconds, 0);
  });

  test("an unreachable server raises MarketTransportError", async () => {
    const nowhere = new MarketClient({ baseUrl: "http://127.0.0.1:1", token: "smk_x" });
    await assert.rejects(nowhere.getBalance(), MarketTransportError);
  });
});
