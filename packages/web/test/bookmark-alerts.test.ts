import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { WebClient } from "@skinmarket/client";
import type { Browser, Page } from "playwright-core";
import { describeOrSkip, EMBEDDED_ONLY } from "../../server/test/support/describe-or-skip.ts";
import { assertAccessible, assertNoSidewaysScroll } from "./axe.ts";
import {
  buildWebsite,
  launchChromium,
  newTrader,
  NO_CHROMIUM,
  openAt,
  type RunningServer,
  startServer,
} from "./browser.ts";

/**
 * Price alerts on the bookmarks page (docs/design/website.md#price-alerts), at a desktop's and a
 * phone's width: the trader sets an alert in place, the market crosses it, and the fired alert
 * appears without a reload; axe checks the page with the form open and after the alert.
 */
describeOrSkip("price alerts on the bookmarks page", { skip: NO_CHROMIUM || EMBEDDED_ONLY }, () => {
  const CROWN = "Sticker | Crown (Foil)";
  const SIZES = [
    { width: 1366, height: 900, sell: ["15.00", "9.50"], target: "10" },
    { width: 390, height: 844, sell: ["15.00", "10.50"], target: "11" },
  ];
  let server: RunningServer;
  let browser: Browser;
  let watcher: Awaited<ReturnType<typeof newTrader>>;
  let seller: Awaited<ReturnType<typeof newTrader>>;
  let listingId: string;

  before(async () => {
    buildWebsite();
    server = await startServer({ DEMO: "off" });
    watcher = await newTrader(server, "watcher");
    seller = await newTrader(server, "alert-seller");
    const [crown] = (
      await server.sandbox.grantItems(seller.account.platformid, { market_hash_name: CROWN, count: 1 })
    ).assets;
    const listed = await seller.market.listItems([{ assetid: crown!.assetid, price: "12.00" }]);
    listingId = listed.sell_orders[crown!.assetid]!.sell_order_id!;
    const web = new WebClient({ baseUrl: server.url });
    await web.login(watcher.nickname, watcher.password);
    await web.addBookmark("goods", String(crown!.goods_id));
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function signIn(page: Page): Promise<void> {
    await page.goto(server.url + "/signin");
    await page.getByLabel("Nickname").fill(watcher.nickname);
    await page.getByLabel("Password").fill(watcher.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
  }

  for (const size of SIZES) {
    test(`at ${size.width}x${size.height}: set an alert on a bookmark, see it fire live`, async () => {
      const { context, page } = await openAt(browser, size);
      try {
        // The market is above any target first: a saved alert is armed, not reached.
        await seller.market.repriceItems([{ sell_order_id: listingId, price: size.sell[0]! }]);
        await signIn(page);
        await page.goto(server.url + "/me/bookmarks");
        const list = page.getByRole("list", { name: "Bookmarks" });
        await list.getByRole("link", { name: CROWN }).waitFor();
        await page.getByRole("button", { name: `Price alert for ${CROWN}` }).click();
        const form = page.getByRole("form", { name: `Price alert for ${CROWN}` });
        await form.waitFor();
        await assertAccessible(page, `bookmarks with the alert form open (${size.width} px)`);
        await assertNoSidewaysScroll(page, `bookmarks with the alert form open (${size.width} px)`);
        await form.getByLabel("Alert when the lowest listing is at or below (¥)").fill(size.target);
        await form.getByLabel("Alert when the highest buy order is at or above (¥)").fill("");
        await form.getByRole("button", { name: "Save alert" }).click();
        await page.getByRole("status").filter({ hasText: "Price alert saved." }).waitFor();
        const target = `¥ ${Number(size.target).toFixed(2)}`;
        await list.getByText(`Price alert: lowest listing ≤ ${target} · watching`).waitFor();

        // The seller reprices below the target: the alert arrives on the open page, without a reload.
        await seller.market.repriceItems([{ sell_order_id: listingId, price: size.sell[1]! }]);
        const received = page.getByRole("list", { name: "Price alerts received" });
        await received
          .getByRole("listitem")
          .filter({ hasText: `lowest listing ¥ ${size.sell[1]}, at or below ${target}` })
          .waitFor();
        await list.getByText(`lowest listing ≤ ${target} · reached`).waitFor();
        await assertAccessible(page, `bookmarks after an alert (${size.width} px)`);
        await assertNoSidewaysScroll(page, `bookmarks after an alert (${size.width} px)`);
        assert.equal(
          await received
            .getByRole("listitem")
            .filter({ hasText: `lowest listing ¥ ${size.sell[1]},` })
            .count(),
          1,
          "one alert for one crossing",
        );
      } finally {
        await context.close();
      }
    });
  }

  test("received alerts outlive the session: read from the server, with a header notice until listed", async () => {
    const { context, page } = await openAt(browser, { width: 1366, height: 900 });
    try {
      // A new browser and session: both alerts fired above come from the server's log.
      await signIn(page);
      const notice = page.getByRole("link", { name: "Price alerts 2" });
      await notice.click();
      const received = page.getByRole("list", { name: "Price alerts received" });
      await received.getByRole("listitem").nth(1).waitFor();
      assert.equal(await received.getByRole("listitem").count(), 2);
      // Listed, they are seen: the notice goes, and stays gone on the next page.
      await notice.waitFor({ state: "detached" });
      await page.goto(server.url + "/");
      await page.getByRole("heading", { name: "Market", level: 1 }).waitFor();
      assert.equal(await page.getByRole("link", { name: /^Price alerts/ }).count(), 0);
      await assertAccessible(page, "the market after the alerts were seen (1366 px)");
    } finally {
      await context.close();
    }
  });

  test("removing the alert leaves the bookmark without one", async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: "en-GB" });
    const page = await context.newPage();
    try {
      await signIn(page);
      await page.goto(server.url + "/me/bookmarks");
      await page.getByRole("button", { name: `Price alert for ${CROWN}` }).click();
      await page
        .getByRole("form", { name: `Price alert for ${CROWN}` })
        .getByRole("button", { name: "Remove alert" })
        .click();
      await page.getByRole("status").filter({ hasText: "Price alert removed." }).waitFor();
      await page.getByRole("list", { name: "Bookmarks" }).getByText("No price alert").waitFor();
    } finally {
      await context.close();
    }
  });
});
