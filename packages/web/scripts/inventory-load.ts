/**
 * How long the inventory of the demo market's largest trader takes to load in the website
 * (`node packages/web/scripts/inventory-load.ts [runs]`): a server on a new embedded database with
 * the demo market; the demo database is asked which trader that one can sign in as holds the most
 * items; then Chromium opens `/me/inventory` as that trader, at a desktop's 1366x900 and as a phone
 * at 390x844, the phone also with Lighthouse's mobile throttling (CPU 4x slower, 150 ms round trip,
 * 1.6 Mbit/s down), each first (empty cache) and repeated (the hashed script and style cached).
 * A load is timed from the navigation's start to the first frame whose inventory table has rows,
 * with the inventory request's own time and size; the median of the runs (5 unless told) is printed.
 * Wall times on a machine that may be busy: compare runs of one machine, not figures across machines.
 */
import type { ChildProcess } from "node:child_process";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { openPGliteDatabase } from "../../server/src/storage/pglite.ts";
import { freePort, seededDataDir, startSkinmarket } from "../../server/test/support/skinmarket-process.ts";
import { ADMIN_TOKEN, buildWebsite, DESKTOP, launchChromium, PHONE } from "../test/browser.ts";

const runs = Number(process.argv[2] ?? 5);

/** What the page records: when the inventory's first row was drawn, and its request. */
interface LoadGlobals {
  __inventoryDrawnAt?: number;
  document: { querySelector(selector: string): unknown };
  performance: {
    now(): number;
    getEntriesByType(type: string): Array<{ name: string; duration: number; transferSize: number }>;
  };
  requestAnimationFrame(callback: () => void): void;
}

async function serve(dataDir: string): Promise<{ server: ChildProcess; url: string }> {
  const port = await freePort();
  return startSkinmarket([], {
    PORT: String(port),
    DATA_DIR: dataDir,
    DEMO: "on",
    SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN,
  });
}

async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
}

/** The credentialed demo traders by items held on their bound platform accounts, most first. */
async function largestTrader(dataDir: string) {
  const { traders } = JSON.parse(await readFile(join(dataDir, "demo-traders.json"), "utf8")) as {
    traders: Array<{ user_id: number; nickname: string; password: string }>;
  };
  const database = await openPGliteDatabase(join(dataDir, "pglite"));
  try {
    const rows = await database.db
      .selectFrom("sandbox_assets as asset")
      .innerJoin("bound_platform_accounts as bound", "bound.platformid", "asset.platformid")
      .select((eb) => ["bound.user_id", eb.fn.countAll<string>().as("items")])
      .groupBy("bound.user_id")
      .orderBy("items", "desc")
      .execute();
    const counts = { rows: rows.map((row) => ({ user_id: Number(row.user_id), items: Number(row.items) })) };
    const held = new Map(counts.rows.map((row) => [Number(row.user_id), row.items]));
    const [trader] = traders
      .map((trader) => ({ ...trader, items: held.get(trader.user_id) ?? 0 }))
      .sort((a, b) => b.items - a.items);
    const [overall] = counts.rows;
    return { trader: trader!, overall: overall! };
  } finally {
    await database.close();
  }
}

/** One load of the inventory: milliseconds to its first drawn row, and its request. */
async function loadOnce(page: Page, url: string) {
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForFunction(() => (globalThis as unknown as LoadGlobals).__inventoryDrawnAt !== undefined, {
    timeout: 120_000,
  });
  return page.evaluate(() => {
    const globals = globalThis as unknown as LoadGlobals;
    const request = globals.performance
      .getEntriesByType("resource")
      .find((entry) => entry.name.includes("/api/market/steam_inventory"));
    return {
      drawn: globals.__inventoryDrawnAt!,
      request: request?.duration ?? 0,
      bytes: request?.transferSize ?? 0,
    };
  });
}

async function measure(context: BrowserContext, url: string, throttled: boolean) {
  await context.addInitScript(() => {
    const globals = globalThis as unknown as LoadGlobals;
    const watch = () => {
      if (globals.document.querySelector('main table[aria-label="Inventory"] tbody tr'))
        globals.__inventoryDrawnAt = globals.performance.now();
      else globals.requestAnimationFrame(watch);
    };
    globals.requestAnimationFrame(watch);
  });
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const result: Record<string, { drawn: number; request: number; bytes: number }> = {};
  for (const visit of ["first", "repeat"] as const) {
    const loads = [];
    for (let run = 0; run < runs; run += 1) {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      // A first load starts with nothing cached; a repeat one keeps what the previous load cached.
      if (visit === "first") await cdp.send("Network.clearBrowserCache");
      else await page.goto(url, { waitUntil: "load" });
      if (throttled) {
        await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
        await cdp.send("Network.emulateNetworkConditions", {
          offline: false,
          latency: 150,
          downloadThroughput: (1.6 * 1024 * 1024) / 8,
          uploadThroughput: (750 * 1024) / 8,
        });
      }
      loads.push(await loadOnce(page, url));
      await page.close();
    }
    result[visit] = {
      drawn: median(loads.map((load) => load.drawn)),
      request: median(loads.map((load) => load.request)),
      bytes: median(loads.map((load) => load.bytes)),
    };
  }
  return result;
}

buildWebsite();
const dataDir = await seededDataDir("skinmarket-inventory-load-");
console.error("building the demo market (about a minute)");
const first = await serve(dataDir);
await stop(first.server);
const { trader, overall } = await largestTrader(dataDir);
console.log(
  `largest demo trader one can sign in as: ${trader.nickname} (user ${trader.user_id}), ${trader.items} items;` +
    ` largest of all: user ${overall.user_id}, ${overall.items} items`,
);
const { server, url } = await serve(dataDir);
const browser = await launchChromium();
try {
  const signIn = await fetch(`${url}/account/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ nickname: trader.nickname, password: trader.password }),
  });
  const session = /session=([^;]+)/.exec(signIn.headers.get("set-cookie") ?? "")?.[1];
  if (!session) throw new Error(`no session: ${signIn.status}`);
  const forms = [
    { name: "desktop 1366x900", size: DESKTOP, throttled: false },
    { name: "phone 390x844", size: PHONE, throttled: false },
    { name: "phone 390x844, throttled", size: PHONE, throttled: true },
  ];
  for (const form of forms) {
    const context = await browser.newContext({
      viewport: form.size,
      locale: "en-GB",
      ...(form.size === PHONE ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
    });
    await context.addCookies([{ name: "session", value: session, url }]);
    const result = await measure(context, `${url}/me/inventory`, form.throttled);
    for (const [visit, figures] of Object.entries(result))
      console.log(
        `${form.name}, ${visit} load: list drawn at ${Math.round(figures.drawn)} ms` +
          ` (inventory request ${Math.round(figures.request)} ms, ${(figures.bytes / 1024).toFixed(1)} kB)`,
      );
    await context.close();
  }
} finally {
  await browser.close();
  await stop(server);
  await rm(dataDir, { recursive: true, force: true });
}
