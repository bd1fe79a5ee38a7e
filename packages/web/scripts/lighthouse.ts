/**
 * Lighthouse's performance, accessibility and best-practices scores of every page of the website
 * (`npm run lighthouse`), with the machine's Chromium: a server on a new embedded database with the
 * demo market; the catalog, an item page and sign-in as a visitor sees them, the
 * catalog, every account section and the console as a signed-in demo trader sees them. Mobile
 * (Lighthouse's default: a mid-range phone on a throttled network, simulated) and desktop.
 * The 404 page is not measured: Lighthouse refuses a document answered with an error status, and
 * the server answers a mistyped address with 404, as it should.
 * `SKINMARKET_URL` (with `DATA_DIR`) measures a running server with the demo market instead.
 * The budgets (docs/design/website.md#the-website): performance 95, accessibility and best
 * practices 100 on each page and form; the script exits 1 below one. `--only <name>` measures the
 * pages whose name contains it.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig } from "lighthouse";
import { ACCOUNT_SECTIONS } from "../src/pages/account/sections.ts";
import { buildWebsite, CHROMIUM, startServer } from "../test/browser.ts";

const BUDGETS = { performance: 95, accessibility: 100, "best-practices": 100 } as const;
/** The demo market's most traded goods for the default seed (README, "The demo market"). */
const RICH_GOODS = 13719;
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;

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

  const signedIn = { Cookie: `session=${session}` };
  const pages: Array<{ name: string; url: string; headers: Record<string, string> }> = [
    { name: "catalog (visitor)", url: `${server.url}/`, headers: {} },
    { name: "catalog", url: `${server.url}/`, headers: signedIn },
    { name: "item (visitor)", url: `${server.url}/goods/${RICH_GOODS}`, headers: {} },
    { name: "item", url: `${server.url}/goods/${RICH_GOODS}`, headers: signedIn },
    { name: "sign in", url: `${server.url}/signin`, headers: {} },
    ...ACCOUNT_SECTIONS.map(([section]) => ({
      name: `me/${section}`,
      url: `${server.url}/me/${section}`,
      headers: signedIn,
    })),
    { name: "console", url: `${server.url}/console`, headers: signedIn },
  ].filter((page) => only === undefined || page.name.includes(only));
  for (const form of ["mobile", "desktop"] as const) {
    for (const page of pages) {
      const result = await lighthouse(
        page.url,
        {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: Object.keys(BUDGETS),
          extraHeaders: page.headers,
        },
        form === "desktop" ? desktopConfig : undefined,
      );
      if (!result) throw new Error(`lighthouse gave no result for ${page.url}`);
      const { categories, audits } = result.lhr;
      const scores = Object.fromEntries(
        Object.keys(BUDGETS).map((id) => [id, Math.round((categories[id]?.score ?? 0) * 100)]),
      ) as Record<keyof typeof BUDGETS, number>;
      const metric = (id: string) => audits[id]?.displayValue ?? "?";
      console.log(
        `${form} ${page.name}: performance ${scores.performance}, accessibility ${scores.accessibility},` +
          ` best practices ${scores["best-practices"]}` +
          ` (FCP ${metric("first-contentful-paint")}, LCP ${metric("largest-contentful-paint")},` +
          ` TBT ${metric("total-blocking-time")}, CLS ${metric("cumulative-layout-shift")},` +
          ` JS ${metric("total-byte-weight")})`,
      );
      for (const category of ["accessibility", "best-practices"] as const)
        for (const ref of categories[category]?.auditRefs ?? []) {
          const audit = audits[ref.id];
          if (audit && audit.score !== null && audit.score < 1 && ref.weight > 0)
            console.log(`  ${category}: ${ref.id}: ${audit.title}`);
        }
      for (const [id, budget] of Object.entries(BUDGETS))
        if (scores[id as keyof typeof BUDGETS] < budget) failed = true;
    }
  }
} finally {
  chrome.kill();
  await server.stop();
}
if (failed) {
  console.error(`a score is below its budget (${JSON.stringify(BUDGETS)})`);
  process.exit(1);
}
