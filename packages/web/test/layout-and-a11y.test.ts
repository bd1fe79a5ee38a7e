import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Locator, Page } from "playwright-core";
import { describeOrSkip, EMBEDDED_ONLY } from "../../server/test/support/describe-or-skip.ts";
import { assertAccessible, assertNoSidewaysScroll, type PageGlobals } from "./axe.ts";
import {
  ADMIN_TOKEN,
  buildWebsite,
  DESKTOP,
  launchChromium,
  newTrader,
  NO_CHROMIUM,
  openAt,
  PHONE,
  type RunningServer,
  startServer,
} from "./browser.ts";
import { assertNoLayoutShift, recordLayoutShifts } from "./layout-shift.ts";

/**
 * Every page at a desktop's and a phone's width (docs/design/website.md#the-accessibility-gate):
 * axe finds no serious or critical violation, the page never scrolls sideways, nothing moves as it
 * loads, each page has its own title; the lists page through every row; the buy dialog is a real
 * modal; the item's tabs answer the arrow keys. One server, two browser contexts, several pages a test.
 */
describeOrSkip("every page on a desktop and a phone", { skip: NO_CHROMIUM || EMBEDDED_ONLY }, () => {
  const REDLINE = "AK-47 | Redline (Field-Tested)";
  let server: RunningServer;
  let browser: Browser;
  let trader: Awaited<ReturnType<typeof newTrader>>;
  let redlineId: number;

  before(async () => {
    buildWebsite();
    server = await startServer({ DEMO: "off" });
    trader = await newTrader(server, "trader");
    const other = await newTrader(server, "other");
    // The trader holds more items than a page shows; the other user lists more than a page of one goods.
    await server.sandbox.grantItems(trader.account.platformid, { market_hash_name: REDLINE, count: 55 });
    const { assets } = await server.sandbox.grantItems(other.account.platformid, {
      market_hash_name: REDLINE,
      count: 12,
    });
    redlineId = assets[0]!.goods_id;
    await other.market.listItems(
      assets.map((asset, index) => ({ assetid: asset.assetid, price: `${20 + index}.00` })),
    );
    await server.sandbox.fundAccount(trader.user.user_id, { account: "balance", amount: "500" });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = (size: { width: number; height: number }) => openAt(browser, size);

  async function signIn(page: Page): Promise<void> {
    await page.goto(server.url + "/signin");
    await page.getByLabel("Nickname").fill(trader.nickname);
    await page.getByLabel("Password").fill(trader.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
  }

  /** Opens a page and waits until what it loads is drawn (nothing left busy). */
  async function visit(page: Page, path: string, ready: (page: Page) => Locator): Promise<void> {
    await page.goto(server.url + path);
    await ready(page).first().waitFor();
    await page.waitForFunction(
      () => !(globalThis as unknown as PageGlobals).document.querySelector('[aria-busy="true"]'),
    );
  }

  /** Whether the element lies within the window without panning. */
  async function inView(locator: Locator, width: number): Promise<boolean> {
    const box = await locator.boundingBox();
    return box !== null && box.x >= 0 && box.x + box.width <= width;
  }

  const heading = (name: string | RegExp) => (page: Page) => page.getByRole("heading", { name, level: 1 });
  const section = (name: string) => (page: Page) => page.getByRole("heading", { name, level: 2 });
  const table = (name: string) => (page: Page) => page.getByRole("table", { name, exact: true });

  for (const size of [DESKTOP, PHONE]) {
    test(`every page at ${size.width}x${size.height}: no serious axe violation, no sideways scroll, no layout shift, a title of its own`, async () => {
      const { context, page } = await open(size);
      await recordLayoutShifts(context);
      const titles = new Map<string, string>();
      const check = async (path: string, ready: (page: Page) => Locator, who: string) => {
        await visit(page, path, ready);
        const what = `${path} (${who}, ${size.width} px)`;
        await assertAccessible(page, what);
        await assertNoSidewaysScroll(page, what);
        await assertNoLayoutShift(page, what);
        const title = await page.title();
        const holder = titles.get(title);
        assert.ok(holder === undefined || holder === path, `${what} has the title of ${holder}: "${title}"`);
        titles.set(title, path);
      };
      await check("/", heading("Market"), "visitor");
      if (size === PHONE) {
        // The phone's header keeps its rows: Sign in and the language switch are in view.
        assert.ok(
          await inView(page.getByRole("link", { name: "Sign in" }).first(), size.width),
          "Sign in in view",
        );
        assert.ok(
          await inView(page.getByRole("button", { name: "中文" }), size.width),
          "the language switch in view",
        );
      }
      await check("/signin", heading("Sign in"), "visitor");
      await check("/signup", heading("Sign up"), "visitor");
      await check("/confirm-email?code=x", heading("Confirm your address"), "visitor");
      await check("/ops", heading("Back office sign-in"), "visitor");
      await check(`/goods/${redlineId}`, table("Listings"), "visitor");
      await check("/console", heading("Developer console"), "visitor");
      await signIn(page);
      await check("/", heading("Market"), "trader");
      await check(`/goods/${redlineId}`, table("Listings"), "trader");
      await check("/me/inventory", table("Inventory"), "trader");
      await check("/me/listings", section("My listings"), "trader");
      await check("/me/purchases", section("Purchases"), "trader");
      await check("/me/sales", section("Sales"), "trader");
      await check("/me/buy-orders", section("Buy orders"), "trader");
      await check("/me/wallet", table("Movements"), "trader");
      await check("/me/bookmarks", section("Bookmarks"), "trader");
      await check("/me/security", section("Sign-ins"), "trader");
      await visit(page, "/console", heading("Developer console"));
      await page.getByLabel("Sandbox admin token").fill(ADMIN_TOKEN);
      await page.getByRole("button", { name: "Open the console" }).click();
      await page.getByRole("region", { name: "Living market" }).waitFor();
      await page.waitForFunction(
        () => !(globalThis as unknown as PageGlobals).document.querySelector('[aria-busy="true"]'),
      );
      await assertAccessible(page, `the open console (${size.width} px)`);
      await assertNoSidewaysScroll(page, `the open console (${size.width} px)`);
      await context.close();
    });
  }

  test("lists page through every row: the inventory's 55 items, 50 a page, and an item's 13 listings, 10 a page", async () => {
    const { context, page } = await open(DESKTOP);
    await signIn(page);
    await visit(page, "/me/inventory", table("Inventory"));
    const pager = page.getByRole("navigation", { name: "Pages of Inventory" });
    await pager.getByText("1–50 of 55").waitFor();
    assert.equal(await table("Inventory")(page).getByRole("checkbox").count(), 50);
    assert.ok(await pager.getByRole("button", { name: "Previous" }).isDisabled(), "no page before the first");
    await pager.getByRole("button", { name: "Next" }).click();
    await pager.getByText("51–55 of 55").waitFor();
    assert.ok(await pager.getByRole("button", { name: "Next" }).isDisabled(), "no page after the last");
    const rows = table("Inventory")(page).getByRole("checkbox");
    assert.equal(await rows.count(), 5);
    // An item of the last page is listed from the website.
    const last = rows.first();
    await last.check();
    const name = (await last.getAttribute("aria-label"))!.replace(/^Select /, "");
    await page.getByLabel(`Price for ${name}`).first().fill("30.00");
    await page.getByRole("button", { name: "List 1 selected for sale" }).click();
    await page.getByRole("status").getByText("1 done").waitFor();
    await visit(page, "/me/listings", table("My listings"));
    await page.getByRole("navigation", { name: "Pages of My listings" }).getByText("1–1 of 1").waitFor();

    await visit(page, `/goods/${redlineId}`, table("Listings"));
    const listingPager = page.getByRole("navigation", { name: "Pages of Listings" });
    await listingPager.getByText("1–10 of 13").waitFor();
    await listingPager.getByRole("button", { name: "Next" }).click();
    await listingPager.getByText("11–13 of 13").waitFor();
    await context.close();
  });

  for (const size of [DESKTOP, PHONE]) {
    test(`the buy dialog is a modal and the item's tabs follow the arrow keys, at ${size.width} px`, async () => {
      const { context, page } = await open(size);
      await signIn(page);
      await visit(page, `/goods/${redlineId}`, table("Listings"));
      const buy = page.getByRole("button", { name: "Buy for ¥ 20.00" });
      assert.ok(await inView(buy, size.width), "the Buy button is in view without panning");
      await buy.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Buy for ¥ 20.00" });
      await dialog.getByRole("radio", { name: /Balance/ }).waitFor();
      const focusInDialog = () =>
        page.evaluate(
          () => !!(globalThis as unknown as PageGlobals).document.activeElement?.closest("dialog[open]"),
        );
      assert.ok(await focusInDialog(), "focus moved into the dialog");
      for (let step = 0; step < 8; step += 1) {
        await page.keyboard.press(step % 3 === 2 ? "Shift+Tab" : "Tab");
        assert.ok(await focusInDialog(), `Tab ${step + 1} stays in the dialog`);
      }
      await assertAccessible(page, `the buy dialog (${size.width} px)`, "dialog[open]");
      await assertNoSidewaysScroll(page, `the buy dialog (${size.width} px)`);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.textContent),
        "Buy for ¥ 20.00",
        "focus went back to the button that opened it",
      );

      const tab = (name: RegExp) => page.getByRole("tab", { name });
      await tab(/^Listings/).focus();
      const selected = async () =>
        page.evaluate(() => {
          const { document } = globalThis as unknown as PageGlobals;
          return [
            document.querySelector('[role="tab"][aria-selected="true"]')?.textContent,
            document.activeElement?.textContent,
          ];
        });
      await page.keyboard.press("ArrowRight");
      assert.deepEqual(await selected(), ["Buy orders (0)", "Buy orders (0)"]);
      await page.getByRole("tabpanel", { name: /Buy orders/ }).waitFor();
      await page.keyboard.press("End");
      assert.deepEqual(await selected(), ["Recent sales", "Recent sales"]);
      await page.keyboard.press("ArrowRight");
      assert.deepEqual(await selected(), ["Listings (13)", "Listings (13)"]);
      await page.keyboard.press("ArrowLeft");
      assert.deepEqual(await selected(), ["Recent sales", "Recent sales"]);
      await page.keyboard.press("Home");
      assert.deepEqual(await selected(), ["Listings (13)", "Listings (13)"]);
      await context.close();
    });
  }
});
