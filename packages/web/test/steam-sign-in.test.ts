import assert from "node:assert/strict";
import { createHash, X509Certificate } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { connect } from "node:tls";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { describeOrSkip, EMBEDDED_ONLY } from "../../server/test/support/describe-or-skip.ts";
import { freePort } from "../../server/test/support/skinmarket-process.ts";
import { steamGuardCode } from "../../server/src/platform/sandbox/steam-guard.ts";
import { buildWebsite, launchChromium, NO_CHROMIUM, startServer, type RunningServer } from "./browser.ts";

/**
 * "Sign in through Steam" in a real browser: the sign-in page's button sends it to Steam's OpenID
 * page (the sandbox's Steam face, reached by Steam's name through the face's proxy), where it signs
 * in with the account's name, password and Steam Guard code, and comes back signed in to a
 * marketplace account made for that Steam account.
 */
describeOrSkip("sign in through Steam in Chromium", { skip: NO_CHROMIUM || EMBEDDED_ONLY }, () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let facePort: number;

  before(async () => {
    buildWebsite();
    facePort = await freePort();
    server = await startServer({ DEMO: "off", STEAM_FACE_PORT: String(facePort) });
    // Chromium keeps its own trust store, which a test cannot add a CA to without NSS's tools: it
    // is told to accept the face's certificate for steamcommunity.com by its key, and no other.
    const ca = await readFile(join(server.dataDir, "steam-face", "ca.pem"), "utf8");
    browser = await launchChromium([
      `--proxy-server=http://127.0.0.1:${facePort}`,
      `--ignore-certificate-errors-spki-list=${await communityKeyHash(facePort, ca)}`,
    ]);
    page = await (await browser.newContext({ locale: "en-GB" })).newPage();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signInThroughSteam(secrets: {
    account_name: string;
    password: string;
    shared_secret: string;
  }) {
    await page.goto(server.url + "/signin");
    await page.getByRole("button", { name: "Sign in through Steam" }).click();
    await page.waitForURL(/^https:\/\/steamcommunity\.com\/openid\/login\?/);
    await page.getByLabel("Steam account name").fill(secrets.account_name);
    await page.getByLabel("Password").fill(secrets.password);
    await page
      .getByLabel("Steam Guard code")
      .fill(steamGuardCode(secrets.shared_secret, Math.floor(Date.now() / 1000)));
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
  }

  test("the first sign-in through Steam makes the account; signed out and in again, it is the same", async () => {
    const account = await server.sandbox.createPlatformAccount();
    const secrets = await server.sandbox.steamSecrets(account.platformid);
    await signInThroughSteam(secrets);
    const nickname = `steam-${account.platformid}`;
    await page.getByText(nickname, { exact: true }).waitFor();
    const first = await userInfo(page);
    assert.equal(first.steamid, account.platformid);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in" }).first().waitFor();
    await signInThroughSteam(secrets);
    assert.equal((await userInfo(page)).user_id, first.user_id);
  });

  test("a wrong Steam Guard code keeps the browser on Steam's page", async () => {
    const account = await server.sandbox.createPlatformAccount();
    const secrets = await server.sandbox.steamSecrets(account.platformid);
    await page.goto(server.url + "/signin");
    await page.getByRole("button", { name: "Sign in through Steam" }).click();
    await page.waitForURL(/^https:\/\/steamcommunity\.com\/openid\/login\?/);
    await page.getByLabel("Steam account name").fill(secrets.account_name);
    await page.getByLabel("Password").fill(secrets.password);
    await page.getByLabel("Steam Guard code").fill("AAAAA");
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.getByRole("alert").getByText("Steam Guard code").waitFor();
    assert.match(page.url(), /^https:\/\/steamcommunity\.com\/openid\/login/);
  });
});

/** The signed-in user as the page's own session reads it. */
async function userInfo(page: Page): Promise<{ user_id: string; steamid: string }> {
  return page.evaluate(async () => {
    const answer = await fetch("/account/api/user/info", { credentials: "same-origin" });
    return ((await answer.json()) as { data: { user_id: string; steamid: string } }).data;
  });
}

/** SHA-256 of the public key of the face's certificate for steamcommunity.com, checked against its CA. */
function communityKeyHash(port: number, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, servername: "steamcommunity.com", ca }, () => {
      const certificate = new X509Certificate(socket.getPeerCertificate().raw);
      socket.end();
      const key = certificate.publicKey.export({ type: "spki", format: "der" });
      resolve(createHash("sha256").update(key).digest("base64"));
    });
    socket.on("error", reject);
  });
}
