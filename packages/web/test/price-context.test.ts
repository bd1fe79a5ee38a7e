import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { sql } from "kysely";
import type { Browser, Locator, Page } from "playwright-core";
import { describeOrSkip, EMBEDDED_ONLY } from "../../server/test/support/describe-or-skip.ts";
import { assertAccessible, assertNoSidewaysScroll, type PageGlobals } from "./axe.ts";
import {
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

/**
 * Price context and orientation (docs/design/website.md#price-context-and-orientation): the
 * Steam price beside ours, the buy orders summed by price and each listing's float rank on the
 * item page; the catalog's float, paint seed and sticker filters; the balance and the to-do
 * counts in the header of every page, kept current by live events. At a desktop's and a phone's
 * width, with axe.
 */
describeOrSkip(
  "price context, listing filters and the header's to-do",
  { skip: NO_CHROMIUM || EMBEDDED_ONLY },
  () => {
    const REDLINE = "AK-47 | Redline (Field-Tested)";
    const STICKER = "Sticker | Crown (Foil)";
    let server: RunningServer;
    let browser: Browser;
    let seller: Awaited<ReturnType<typeof newTrader>>;
    let buyer: Awaited<ReturnType<typeof newTrader>>;
    let redlineId = 0;

    before(async () => {
      buildWebsite();
      // The Redline's Steam price, which the demo market would write: ¥ 12.50.
      server = await startServer({ DEMO: "off" }, async (db) => {
        await sql`INSERT INTO sandbox_steam_market_prices (goods_id, price, volume, updated_at)
        SELECT goods_id, 1250, 40, now() FROM goods WHERE market_hash_name = ${REDLINE}`.execute(db);
      });
      seller = await newTrader(server, "ctx-seller");
      buyer = await newTrader(server, "ctx-buyer");
      await server.sandbox.fundAccount(buyer.user.user_id, { account: "balance", amount: "1000" });
      const wears = ["0.2", "0.16", "0.3"];
      for (const [index, paintwear] of wears.entries()) {
        const { assets } = await server.sandbox.grantItems(seller.account.platformid, {
          market_hash_name: REDLINE,
          count: 1,
          paintwear,
          paintseed: 7 + index,
          random_extras: false,
        });
        redlineId = assets[0]!.goods_id;
        await seller.market.listItems([{ assetid: assets[0]!.assetid, price: `${10 + index}.00` }]);
      }
      // Bids below every listing: 8.00 twice (2 + 1 units), 7.00 once (3 units).
      await buyer.market.createBuyOrder({ goods_id: redlineId, price: "8.00", num: 2 });
      await buyer.market.createBuyOrder({ goods_id: redlineId, price: "8.00", num: 1 });
      await buyer.market.createBuyOrder({ goods_id: redlineId, price: "7.00", num: 3 });
      // One sale of another goods, for the seller to deliver.
      const sticker = await server.sandbox.grantItems(seller.account.platformid, {
        market_hash_name: STICKER,
        count: 1,
      });
      await seller.market.listItems([{ assetid: sticker.assets[0]!.assetid, price: "3.00" }]);
      await buyer.market.purchase({
        items: [{ goods_id: sticker.assets[0]!.goods_id, max_price: "3.00", quantity: 1 }],
      });
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      await server?.stop();
    });

    const open = (size: { width: number; height: number }) => openAt(browser, size);

    async function settled(page: Page): Promise<void> {
      await page.waitForFunction(
        () => !(globalThis as unknown as PageGlobals).document.querySelector('[aria-busy="true"]'),
      );
    }

    async function checkPage(page: Page, what: string): Promise<void> {
      await settled(page);
      await assertAccessible(page, what);
      await assertNoSidewaysScroll(page, what);
    }

    async function signIn(page: Page, who: { nickname: string; password: string }): Promise<void> {
      await page.goto(server.url + "/signin");
      await page.getByLabel("Nickname").fill(who.nickname);
      await page.getByLabel("Password").fill(who.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("button", { name: "Sign out" }).waitFor();
    }

    const figure = (page: Page, label: string): Locator =>
      page
        .locator(".figures > div")
        .filter({ has: page.getByRole("term").getByText(label, { exact: true }) })
        .getByRole("definition");

    for (const size of [DESKTOP, PHONE]) {
      test(`an item shows the Steam price beside ours, the buy orders by price and each listing's float rank (${size.width} px)`, async () => {
        const { context, page } = await open(size);
        await page.goto(`${server.url}/goods/${redlineId}`);
        await page.getByRole("heading", { name: REDLINE, level: 1 }).waitFor();
        await figure(page, "Steam price").getByText("¥ 12.50 (20% below Steam)").waitFor();
        const listings = page.getByRole("table", { name: "Listings" });
        const rowOf = (price: string) =>
          listings.getByRole("row").filter({ has: page.getByRole("cell", { name: price }) });
        await rowOf("¥ 11.00").getByText("#1 lowest float of 3 listings").waitFor();
        await rowOf("¥ 10.00").getByText("#2 lowest float of 3 listings").waitFor();
        await rowOf("¥ 12.00").getByText("#3 lowest float of 3 listings").waitFor();
        await checkPage(page, `the listings with float ranks (${size.width} px)`);

        await page.getByRole("tab", { name: /^Buy orders/ }).click();
        const depth = page.getByRole("table", { name: "Bids by price" });
        await depth.waitFor();
        const cells = async (row: Locator) =>
          (await row.getByRole("cell").allTextContents()).map((text) => text.trim());
        const rows = depth.getByRole("row");
        assert.deepEqual(await cells(rows.nth(1)), ["¥ 8.00", "3", "2", "3"]);
        assert.deepEqual(await cells(rows.nth(2)), ["¥ 7.00", "3", "1", "6"]);
        await page.getByText("6 wanted at 2 prices").waitFor();
        await checkPage(page, `the buy orders by price (${size.width} px)`);
        await context.close();
      });

      test(`the catalog filters by float range, paint seed and sticker, an item found so lists the listings that match, and a refused field is named (${size.width} px)`, async () => {
        const { context, page } = await open(size);
        await page.goto(server.url + "/");
        await page.getByRole("heading", { name: "Market", level: 1 }).waitFor();
        const filters = page.getByRole("form", { name: "Filters" });
        await filters.getByRole("textbox", { name: "Min float", exact: true }).fill("0.15");
        await filters.getByRole("textbox", { name: "Max float", exact: true }).fill("0.17");
        await filters.getByRole("button", { name: "Apply filters" }).click();
        await page.getByText("1 goods", { exact: true }).waitFor();
        await page.getByRole("list", { name: "Goods" }).getByRole("link", { name: REDLINE }).waitFor();
        assert.match(page.url(), /min_paintwear=0\.15&max_paintwear=0\.17/);
        await checkPage(page, `the catalog filtered by float (${size.width} px)`);

        // The goods found by its listings' float lists those listings, until the filter is dropped.
        await page.getByRole("list", { name: "Goods" }).getByRole("link", { name: REDLINE }).click();
        await page.getByText("Listings with float 0.15–0.17, as the market was filtered.").waitFor();
        const listings = page.getByRole("table", { name: "Listings" });
        await listings.getByRole("cell", { name: "¥ 11.00" }).waitFor();
        assert.equal(
          await listings.getByRole("row").count(),
          2,
          "the header and the one listing of float 0.16",
        );
        await checkPage(page, `an item's listings filtered from the catalog (${size.width} px)`);
        await page.getByRole("link", { name: "Show every listing" }).click();
        await listings.getByRole("cell", { name: "¥ 12.00" }).waitFor();
        assert.equal(await listings.getByRole("row").count(), 4);
        await page.goto(`${server.url}/?min_paintwear=0.15&max_paintwear=0.17`);

        await filters.getByRole("textbox", { name: "Min float", exact: true }).fill("");
        await filters.getByRole("textbox", { name: "Max float", exact: true }).fill("");
        await filters.getByRole("textbox", { name: "Paint seed", exact: true }).fill("9");
        await filters.getByRole("button", { name: "Apply filters" }).click();
        await page.waitForURL(/paintseed=9/);
        await page.getByText("1 goods", { exact: true }).waitFor();

        await filters.getByRole("textbox", { name: "Paint seed", exact: true }).fill("");
        await filters.getByRole("textbox", { name: "Sticker", exact: true }).fill("no such sticker name");
        await filters.getByRole("button", { name: "Apply filters" }).click();
        await page
          .getByRole("alert")
          .getByText(/^sticker: /)
          .waitFor();
        await checkPage(page, `the catalog refusing a sticker (${size.width} px)`);
        await context.close();
      });

      test(`the header shows the balance and what to do, each a link to where one acts (${size.width} px)`, async () => {
        const { context, page } = await open(size);
        await signIn(page, seller);
        const header = page.getByRole("banner");
        await header.getByRole("link", { name: /^Balance ¥ [\d,.]+$/ }).waitFor();
        await header.getByRole("link", { name: "To deliver 1" }).click();
        await page.waitForURL(/\/me\/sales$/);
        await page.getByRole("table", { name: "Sales" }).waitFor();
        await checkPage(page, `the header with a sale to deliver (${size.width} px)`);
        await context.close();
      });
    }

    test("the header follows live events: the balance when money moves, an offer to accept when the seller sends it", async () => {
      const { context, page } = await open(DESKTOP);
      await signIn(page, buyer);
      const header = page.getByRole("banner");
      const balance = header.getByRole("link", { name: /^Balance / });
      await balance.waitFor();
      const before = (await balance.textContent())!;
      assert.equal(await header.getByRole("link", { name: /^Offers to accept/ }).count(), 0);
      await server.sandbox.fundAccount(buyer.user.user_id, { account: "balance", amount: "100" });
      await header.getByRole("link", { name: before, exact: true }).waitFor({ state: "detached" });
      assert.match((await balance.textContent())!, /^Balance ¥ [\d,.]+$/);
      const [sale] = (await seller.market.sellOrderHistory({ state: "SELLER_TO_SEND_OFFER" })).items;
      await seller.market.sendOffer(sale!.id);
      await header.getByRole("link", { name: "Offers to accept 1" }).click();
      await page.waitForURL(/\/me\/purchases$/);
      await checkPage(page, "the header with an offer to accept");
      await context.close();
    });
  },
);
