/**
 * Lighthouse's performance and accessibility scores of the catalog and an item page
 * (`npm run lighthouse`), with the machine's Chromium: a server on a new embedded database with the
 * demo market, the catalog seen by a signed-in demo trader, the item page by a
 * visitor. Mobile (Lighthouse's default: a mid-range phone on a throttled network, simulated) and
 * desktop. `SKINMARKET_URL` (with `DATA_DIR`) measures a running server with the demo market
 * instead. The budget is 90 for each (docs/design/website.md#the-website); the script exits 1 below it.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig } from "lighthouse";
import { buildWebsite, CHROMIUM, startServer } from "../test/browser.ts";

const BUDGET = 90;
/** The demo market's most traded goods for the default seed (README, "The demo market"). */
const RICH_GOODS = 13918;

buildWebsite();
// A running server with the demo market may be named (SKINMARKET_URL and its DATA_DIR); else one is started.
const server: { url: string; dataDir: string; stop(): Promise<void> } = process.env.SKINMARKET_URL
  ? { url: process.env.SKINMARKET_URL, dataDir: process.env.DATA_DIR ?? "data", stop: async () => {} }
  : (console.error("starting a server with the demo market (about a minute)"),
    await startServer({ DEMO: "on" }));
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM,
  chromeFlags: [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
});
let failed = false;
try {
  const { traders } = JSON.parse(await readFile(join(server.dataDir, "demo-traders.json"), "utf8")) as {
    traders: Array<{ nickname: string; password: string }>;
  };
  const signIn = await fetch(`${server.url}/account/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ nickname: traders[1]!.nickname, password: traders[1]!.password }),
  });
  const session = /session=([^;]+)/.exec(signIn.headers.get("set-cookie") ?? "")?.[1];
  if (!session) throw new Error(`no session: ${signIn.status}`);

  const pages: Array<{ name: string; url: string; headers: Record<string, string> }> = [
    { name: "catalog", url: `${server.url}/`, headers: { Cookie: `session=${session}` } },
    { name: "item", url: `${server.url}/goods/${RICH_GOODS}`, headers: {} },
  ];
  for (const form of ["mobile", "desktop"] as const) {
    for (const page of pages) {
      const result = await lighthouse(
        page.url,
        {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance", "accessibility"],
          extraHeaders: page.headers,
        },
        form === "desktop" ? desktopConfig : undefined,
      );
      if (!result) throw new Error(`lighthouse gave no result for ${page.url}`);
      const { categories, audits } = result.lhr;
      const performance = Math.round((categories.performance?.score ?? 0) * 100);
      const accessibility = Math.round((categories.accessibility?.score ?? 0) * 100);
      const metric = (id: string) => audits[id]?.displayValue ?? "?";
      console.log(
        `${form} ${page.name}: performance ${performance}, accessibility ${accessibility}` +
          ` (FCP ${metric("first-contentful-paint")}, LCP ${metric("largest-contentful-paint")},` +
          ` TBT ${metric("total-blocking-time")}, CLS ${metric("cumulative-layout-shift")})`,
      );
      for (const [id, audit] of Object.entries(audits))
        if (
          audit.score !== null &&
          audit.score < 1 &&
          result.lhr.categories.accessibility?.auditRefs.some((ref) => ref.id === id)
        )
          console.log(`  accessibility: ${id}: ${audit.title}`);
      if (performance < BUDGET || accessibility < BUDGET) failed = true;
    }
  }
} finally {
  chrome.kill();
  await server.stop();
}
if (failed) {
  console.error(`a score is below ${BUDGET}`);
  process.exit(1);
}
