/**
 * Saves a screenshot of each main page to docs/screenshots/ (`npm run screenshots`): a server on a
 * new embedded database with the demo market, a demo trader signed in, Chromium at a desktop's
 * 1366x900 (`docs/screenshots/<page>.png`) and a phone's 390x844 (`docs/screenshots/phone/<page>.png`),
 * the two sizes the browser tests check. Chinese text needs a CJK font where it runs (Debian:
 * `apt-get install fonts-noto-cjk`).
 */
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { ADMIN_TOKEN, buildWebsite, DESKTOP, launchChromium, PHONE, startServer } from "../test/browser.ts";

const OUT = join(import.meta.dirname, "../../../docs/screenshots");
/** Each size and the folder its screenshots go to. */
const SIZES = [
  { size: DESKTOP, folder: OUT },
  { size: PHONE, folder: join(OUT, "phone") },
];
/** The demo market's most traded goods for the default seed (README, "The demo market"). */
const RICH_GOODS = 13918;

buildWebsite();
for (const { folder } of SIZES) await mkdir(folder, { recursive: true });
console.error("starting a server with the demo market (about a minute)");
// The endpoint nobody answers is on this machine, which a server refuses unless told.
const server = await startServer({ DEMO: "on", WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
const browser = await launchChromium();
try {
  const traders = JSON.parse(await readFile(join(server.dataDir, "demo-traders.json"), "utf8")) as {
    traders: Array<{ nickname: string; password: string }>;
  };
  const trader = traders.traders[1]!;
  // One context (the session and the console's token kept) resized between the two sizes: at 390 px
  // the style sheet's phone layout applies as on a phone.
  const context = await browser.newContext({ viewport: DESKTOP, locale: "en-GB" });
  const page = await context.newPage();
  /** Saves what `take` shows at each size, under `name`. */
  const atBothSizes = async (name: string, take: (path: string) => Promise<unknown>) => {
    for (const { size, folder } of SIZES) {
      await page.setViewportSize(size);
      const path = join(folder, `${name}.png`);
      await take(path);
      console.error(path);
    }
  };
  const shoot = (name: string, path: string, ready: () => Promise<unknown>) =>
    atBothSizes(name, async (file) => {
      await page.goto(server.url + path);
      await ready();
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: file });
    });

  await shoot("home-visitor", "/", () => page.getByRole("heading", { name: "Popular listings" }).waitFor());
  await page.goto(server.url + "/signin");
  await page.getByLabel("Nickname").fill(trader.nickname);
  await page.getByLabel("Password").fill(trader.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor();
  await shoot("catalog", "/", () => page.getByRole("list", { name: "Goods" }).waitFor());
  await shoot("item", `/goods/${RICH_GOODS}`, () => page.getByRole("table", { name: "Listings" }).waitFor());
  await shoot("inventory", "/me/inventory", () => page.getByRole("table", { name: "Inventory" }).waitFor());
  await shoot("purchases", "/me/purchases", () => page.getByRole("table", { name: "Purchases" }).waitFor());
  await shoot("wallet", "/me/wallet", () => page.getByRole("table", { name: "Movements" }).waitFor());
  await page.goto(server.url + "/console");
  await page.getByLabel("Sandbox admin token").fill(ADMIN_TOKEN);
  await page.getByRole("button", { name: "Open the console" }).click();
  // The token is kept once the server accepted it: wait for the console before loading it again.
  await page.getByRole("button", { name: "Forget the admin token" }).waitFor();
  await shoot("console", "/console", () => page.getByRole("region", { name: "Users" }).waitFor());
  // The events and webhooks of the signed-in trader: two deposits, and an endpoint nobody answers,
  // so the delivery log shows attempts failing and the next one scheduled.
  const panel = page.getByRole("region", { name: "Events and webhooks" });
  const { user_id: userId } = await page.evaluate(async () => {
    const answer = (await fetch("/account/api/user/info").then((response) => response.json())) as {
      data: { user_id: string };
    };
    return answer.data;
  });
  await panel.getByLabel("Events and webhooks of").fill(userId);
  await panel.getByRole("button", { name: "Show", exact: true }).click();
  await panel.getByRole("table", { name: "Live event log" }).waitFor();
  const register = panel.getByRole("form", { name: "Register a webhook endpoint" });
  await register.getByLabel("Endpoint URL").fill("http://127.0.0.1:9/skinmarket/events");
  await register.getByLabel("Event types").fill("balance.changed, trade.*");
  await register.getByRole("button", { name: "Register endpoint" }).click();
  // A refusal is said in the panel: name it rather than wait for a secret that will not come.
  const refused = panel.getByRole("alert").first();
  await Promise.race([
    panel.getByRole("group", { name: "Signing secret" }).waitFor(),
    refused.waitFor().then(async () => {
      throw new Error(`registering the endpoint: ${await refused.innerText()}`);
    }),
  ]);
  await panel.getByRole("group", { name: "Signing secret" }).getByRole("button", { name: "Done" }).click();
  // Registering opens the endpoint's delivery log.
  for (const amount of ["25.00", "12.50"])
    await server.sandbox.fundAccount(userId, { account: "balance", amount });
  await panel
    .getByRole("table", { name: /^Deliveries of endpoint / })
    .getByText("balance.changed")
    .first()
    .waitFor();
  await panel
    .getByRole("row")
    .filter({ hasText: "balance.changed" })
    .first()
    .getByText(/^Data of event/)
    .click();
  await page.waitForTimeout(3500);
  await atBothSizes("console-events", (file) => panel.screenshot({ path: file }));
  await page.getByRole("button", { name: "中文" }).click();
  await shoot("catalog-zh", "/", () => page.getByRole("list", { name: "商品" }).waitFor());
} finally {
  await browser.close();
  await server.stop();
}
