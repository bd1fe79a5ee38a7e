import { spawnSync, type ChildProcess } from "node:child_process";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { MarketClient, SandboxClient } from "@skinmarket/client";
import type { Kysely } from "kysely";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { openPGliteDatabase } from "../../server/src/storage/pglite.ts";
import type { Database } from "../../server/src/storage/schema.ts";
import { CHROMIUM } from "../../server/test/support/describe-or-skip.ts";
import { freePort, seededDataDir, startSkinmarket } from "../../server/test/support/skinmarket-process.ts";

export { CHROMIUM, NO_CHROMIUM } from "../../server/test/support/describe-or-skip.ts";

export const ADMIN_TOKEN = "website-tests-admin-token";

/** Builds the website when its build is missing or out of date, as `npm start` does. */
export function buildWebsite(): void {
  const result = spawnSync(process.execPath, [join(import.meta.dirname, "../scripts/build-if-stale.ts")], {
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("the website did not build");
}

/**
 * A headless Chromium with a fresh profile and nothing it would fetch on its own; `args` adds
 * switches (a proxy, a certificate key to accept).
 */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      ...args,
    ],
  });
}

/** The two window sizes every page is tested at: a desktop's and a phone's. */
export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * A new browser context at this window's size and its page: below 640 px as a phone shows a page
 * (a mobile viewport, touch, a dense screen), in British English.
 */
export async function openAt(
  browser: Browser,
  size: { width: number; height: number },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: size.width, height: size.height },
    locale: "en-GB",
    ...(size.width < 640 ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
  });
  return { context, page: await context.newPage() };
}

export interface RunningServer {
  url: string;
  dataDir: string;
  sandbox: SandboxClient;
  stop(): Promise<void>;
}

/**
 * `skinmarket serve` on an embedded database of its own (migrated, the catalog loaded), sandbox on;
 * `prepare` writes to that database before the server opens it (what no route sets, such as the
 * sandbox's Steam market prices, which only the demo market writes).
 */
export async function startServer(
  env: Record<string, string> = {},
  prepare?: (db: Kysely<Database>) => Promise<void>,
): Promise<RunningServer> {
  const dataDir = await seededDataDir("skinmarket-web-");
  if (prepare) {
    // The server keeps its embedded database in DATA_DIR/pglite.
    const database = await openPGliteDatabase(join(dataDir, "pglite"));
    try {
      await prepare(database.db);
    } finally {
      await database.close();
    }
  }
  const port = await freePort();
  const { server, url } = await startSkinmarket([], {
    PORT: String(port),
    DATA_DIR: dataDir,
    SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN,
    ...env,
  });
  return {
    url,
    dataDir,
    sandbox: new SandboxClient({ baseUrl: url, token: ADMIN_TOKEN }),
    stop: async () => {
      await stopProcess(server);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function stopProcess(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
}

/** A user with a password and a bound, set-up platform account, as a person would have. */
export async function newTrader(server: RunningServer, nickname: string) {
  const password = `${nickname}-password`;
  const user = await server.sandbox.createUser({ nickname, password });
  const account = await server.sandbox.createPlatformAccount(user.user_id);
  const market = new MarketClient({ baseUrl: server.url, token: user.token });
  await market.uploadPlatformCookies(account.platformid, account.cookies);
  await market.setupPlatformAccount(account.platformid);
  return { user, account, market, nickname, password };
}
