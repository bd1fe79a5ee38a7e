import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { openSteamFaceWorld } from "../support/steam-face-world.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../support/test-app.ts";

const ROOT = join(import.meta.dirname, "../../../..");

function runExample(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, "examples", script)], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

/** The README's examples (`npm run example:*`), run as written against a listening server. */
describe("examples/", () => {
  let t: TestApp;
  let env: Record<string, string>;
  before(async () => {
    t = await createTestApp({ catalog: true });
    const baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    env = { SKINMARKET_URL: baseUrl, SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN };
  });
  after(() => t.close());

  test("first-bot-buys: a sale from listing to the seller's pay", async () => {
    const { code, output } = await runExample("first-bot-buys.ts", env);
    assert.equal(code, 0, output);
    assert.match(output, /listed asset \d+ \(goods \d+\) at 20\.00/);
    assert.match(output, /bought: order \d+/);
    assert.match(output, /trade \d+ SUCCESS; seller balance 19\.50/);
    await t.assertLedger();
  });

  test("list-and-reprice: one listing repriced, the other taken off sale", async () => {
    const { code, output } = await runExample("list-and-reprice.ts", env);
    assert.equal(code, 0, output);
    assert.match(output, /on sale now: \d+ at 27\.50\n/);
    await t.assertLedger();
  });

  test("buy-orders: a bid, one unit supplied, the rest cancelled", async () => {
    const { code, output } = await runExample("buy-orders.ts", env);
    assert.equal(code, 0, output);
    assert.match(output, /buy order \d+: progressing, 2 units at 10\.00/);
    assert.match(output, /cancelled: \{ '\d+': 'OK' \}/);
    await t.assertLedger();
  });

  test("steam-bot: delivered through Steam's routes, confirmed, accepted, paid", async () => {
    const world = await openSteamFaceWorld({ on: { ctx: t.ctx, database: t.database } });
    try {
      // What `eval "$(skinmarket steam env)"` sets in proxy mode.
      const { code, output } = await runExample("steam-bot.ts", {
        ...env,
        HTTPS_PROXY: world.proxyUrl,
        NODE_USE_ENV_PROXY: "1",
        NODE_EXTRA_CA_CERTS: world.authority.certFile,
      });
      assert.equal(code, 0, output);
      assert.match(output, /offer \d+ pending\nconfirmed on the authenticator\n/);
      assert.match(output, /trade \d+ SUCCESS; seller balance 19\.50/);
      await t.assertLedger();
    } finally {
      await world.close();
    }
  });

  test("an example without a server says so and fails", async () => {
    const { code, output } = await runExample("first-bot-buys.ts", {
      SKINMARKET_URL: "http://127.0.0.1:9",
      SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN,
    });
    assert.notEqual(code, 0);
    assert.match(output, /fetch failed|ECONNREFUSED/);
  });
});
