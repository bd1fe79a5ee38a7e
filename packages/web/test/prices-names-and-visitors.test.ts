import assert from "node:assert/strict";
import { after, before, test } from "node:test";
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
 * What a trader reads (docs/design/website.md#prices-names-and-nothing): the price chart with no
 * sale, one sale and sales on days with gaps between, with the day's sales as bars; "none" where
 * there is no listing or buy order, a listing in trade cooldown counted; buy orders by goods name
 * with their state and progress in words, in English and Chinese; money with thousands
 * separators, debits and credits apart. A visitor's pages ask for nothing that answers 401 and log
 * no error; an unknown address is the site's 404 page, while /api keeps its JSON. Each at a
 * desktop's and a phone's width, with axe. One server, several pages a test.
 */
describeOrSkip("prices, names and a visitor's pages", { skip: NO_CHROMIUM || EMBEDDED_ONLY }, () => {
  const STICKER = "Sticker | Crown (Foil)";
  const REDLINE = "AK-47 | Redline (Field-Tested)";
  const ASIIMOV = "AWP | Asiimov (Field-Tested)";
  const UNTRADED = "AK-47 | Redline (Minimal Wear)";
  const DAY = 86_400;
  let server: RunningServer;
  let browser: Browser;
  let seller: Awaited<ReturnType<typeof newTrader>>;
  let buyer: Awaited<ReturnType<typeof newTrader>>;
  const ids = { sticker: 0, redline: 0, untraded: 0 };

  /** Sends the offers of every sale waiting for one; the buyer's platform accepts them. */
  async function deliver(): Promise<void> {
    for (const sale of (await seller.market.sellOrderHistory({ state: "SELLER_TO_SEND_OFFER" })).items)
      await seller.market.sendOffer(sale.id);
    for (const order of (await buyer.market.listPurchaseOrders({ state: "PAYING" })).items)
      if (order.tradeofferid) await server.sandbox.acceptOffer(order.tradeofferid);
    await server.sandbox.runJobs();
  }

  /** The seller lists items of the goods at these prices; the buyer buys them all; they are delivered. */
  async function trade(name: string, prices: number[]): Promise<number> {
    const { assets } = await server.sandbox.grantItems(seller.account.platformid, {
      market_hash_name: name,
      count: prices.length,
    });
    await seller.market.listItems(
      assets.map((asset, index) => ({ assetid: asset.assetid, price: prices[index]!.toFixed(2) })),
    );
    const goodsId = assets[0]!.goods_id;
    await buyer.market.purchase({
      items: [{ goods_id: goodsId, max_price: String(Math.max(...prices)), quantity: prices.length }],
    });
    await deliver();
    return goodsId;
  }

  before(async () => {
    buildWebsite();
    server = await startServer({ DEMO: "off" });
    seller = await newTrader(server, "seller");
    buyer = await newTrader(server, "buyer");
    await server.sandbox.fundAccount(buyer.user.user_id, { account: "balance", amount: "20000" });
    // The sticker sells twice, then once three days later: two days with sales, two without
    // between. The sandbox's clock is then three days ahead of the browser's.
    ids.sticker = await trade(STICKER, [2, 4]);
    await server.sandbox.advanceClock(3 * DAY);
    await trade(STICKER, [3]);
    // Its only listing now is in trade cooldown: still the lowest listing.
    const cooling = await server.sandbox.grantItems(seller.account.platformid, {
      market_hash_name: STICKER,
      count: 1,
      cooldown_days: 7,
    });
    await seller.market.listItems([{ assetid: cooling.assets[0]!.assetid, price: "9.00" }]);
    // A bid that buys a listing at once, and one that waits.
    const redline = await server.sandbox.grantItems(seller.account.platformid, {
      market_hash_name: REDLINE,
      count: 1,
    });
    ids.redline = redline.assets[0]!.goods_id;
    await seller.market.listItems([{ assetid: redline.assets[0]!.assetid, price: "11.00" }]);
    await buyer.market.createBuyOrder({ goods_id: ids.redline, price: "12.00", num: 1 });
    const asiimov = await server.sandbox.grantItems(seller.account.platformid, {
      market_hash_name: ASIIMOV,
      count: 1,
    });
    await buyer.market.createBuyOrder({ goods_id: asiimov.assets[0]!.goods_id, price: "1234.50", num: 2 });
    // Goods nobody lists, bids on or ever sold.
    const untraded = await server.sandbox.grantItems(seller.account.platformid, {
      market_hash_name: UNTRADED,
      count: 1,
    });
    ids.untraded = untraded.assets[0]!.goods_id;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const open = (size: { width: number; height: number }) => openAt(browser, size);

  /** Opens a page and waits until what it loads is drawn (nothing left busy). */
  async function visit(page: Page, path: string, ready: (page: Page) => Locator): Promise<void> {
    await page.goto(server.url + path);
    await ready(page).first().waitFor();
    await page.waitForFunction(
      () => !(globalThis as unknown as PageGlobals).document.querySelector('[aria-busy="true"]'),
    );
  }

  async function checkPage(page: Page, what: string): Promise<void> {
    await assertAccessible(page, what);
    await assertNoSidewaysScroll(page, what);
  }

  const heading = (name: string | RegExp) => (page: Page) => page.getByRole("heading", { name, level: 1 });
  const section = (name: string) => (page: Page) => page.getByRole("heading", { name, level: 2 });
  /** The value the item's figures show beside a label ("Lowest listing"). */
  const figure = (page: Page, label: string) =>
    page.locator(".figures > div").filter({ has: page.getByRole("term").getByText(label, { exact: true }) });

  for (const size of [DESKTOP, PHONE]) {
    test(`a visitor's pages make no 401 and log no error; an unknown address is a 404 page, /api keeps JSON (${size.width} px)`, async () => {
      const { context, page } = await open(size);
      const problems: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") problems.push(`console error on ${page.url()}: ${message.text()}`);
      });
      page.on("response", (response) => {
        if (response.status() === 401) problems.push(`401 from ${response.url()}`);
      });
      await visit(page, "/", heading("Market"));
      await visit(page, "/signin", heading("Sign in"));
      await visit(page, `/goods/${ids.sticker}`, (page) =>
        page.getByRole("img", { name: /^Median price by day/ }),
      );
      await visit(page, `/goods/${ids.untraded}`, (page) => page.getByText("No sales yet."));
      await visit(page, "/console", heading("Developer console"));
      assert.deepEqual(problems, []);

      const answer = await page.goto(server.url + "/markt/ak-47");
      assert.equal(answer?.status(), 404);
      assert.match(answer?.headers()["content-type"] ?? "", /^text\/html/);
      await heading("No such page")(page).waitFor();
      assert.equal(await page.title(), "No such page · skinmarket");
      await checkPage(page, `the 404 page (${size.width} px)`);
      await page.getByRole("link", { name: "Go to the market" }).click();
      await heading("Market")(page).waitFor();
      // Addresses under the site's own page paths that name nothing: the same page.
      for (const path of ["/me/nothing", "/goods/not-a-number"]) {
        await visit(page, path, heading("No such page"));
        assert.equal(await page.title(), "No such page · skinmarket", path);
      }
      const api = await page.request.get(server.url + "/api/market/nothing", {
        headers: { accept: "text/html" },
      });
      assert.equal(api.status(), 404);
      assert.equal((await api.json()).code, "Path Not Found");
      await context.close();
    });
  }

  test("buy orders by name, state and progress in words, in English and Chinese; the wallet's money with separators, debits and credits apart", async () => {
    for (const size of [DESKTOP, PHONE]) {
      const { context, page } = await open(size);
      await page.goto(server.url + "/signin");
      await page.getByLabel("Nickname").fill(buyer.nickname);
      await page.getByLabel("Password").fill(buyer.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("button", { name: "Sign out" }).waitFor();

      await visit(page, "/me/buy-orders", (page) => page.getByRole("table", { name: "Buy orders" }));
      const row = (name: string) =>
        page
          .getByRole("table", { name: "Buy orders" })
          .getByRole("row")
          .filter({
            has: page.getByRole("link", { name, exact: true }),
          });
      await row(REDLINE).getByText("1 bought, awaiting delivery").waitFor();
      await row(REDLINE).getByRole("cell", { name: "Open", exact: true }).waitFor();
      await row(ASIIMOV).getByText("2 of 2 still wanted").waitFor();
      await row(ASIIMOV).getByText("¥ 1,234.50").waitFor();
      await checkPage(page, `the buy orders (${size.width} px)`);
      // In Chinese the goods go by their Chinese names, the states and progress in Chinese too.
      await page.getByRole("button", { name: "中文" }).click();
      const chinese = page.getByRole("table", { name: "求购" });
      await chinese.getByText("已购 1 件，等待交付").waitFor();
      await chinese.getByText("仍求购 2 件（共 2 件）").waitFor();
      assert.equal(await chinese.getByRole("cell", { name: "进行中", exact: true }).count(), 2);
      await checkPage(page, `the buy orders in Chinese (${size.width} px)`);
      await page.getByRole("button", { name: "English" }).click();

      await visit(page, "/me/wallet", (page) => page.getByRole("table", { name: "Movements" }));
      const movements = page.getByRole("table", { name: "Movements" });
      const credit = movements.getByRole("cell", { name: "+¥ 20,000.00", exact: true });
      const debit = movements.getByRole("cell", { name: "−¥ 4.00", exact: true }).first();
      const colour = (cell: Locator) =>
        cell.evaluate(
          (element) =>
            (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(
              element,
            ).color,
        );
      assert.notEqual(await colour(credit), await colour(debit), "a debit and a credit differ in colour too");
      await checkPage(page, `the wallet (${size.width} px)`);
      await context.close();
    }
    // The bid that bought at once is delivered: it leaves the orders waiting, and the Redline has its one sale.
    await deliver();
    assert.equal((await buyer.market.listBuyOrders({ order_state: "progressing" })).total_count, 1);
  });

  for (const size of [DESKTOP, PHONE]) {
    test(`the price chart with no sale, one sale and sales with empty days between; "none" for what is not there (${size.width} px)`, async () => {
      const { context, page } = await open(size);
      await visit(page, `/goods/${ids.untraded}`, heading(UNTRADED));
      await page.getByText("No sales yet.").waitFor();
      assert.equal(
        await page.getByRole("img", { name: /^Median price by day/ }).count(),
        0,
        "no empty chart",
      );
      assert.equal(await figure(page, "Lowest listing").getByRole("definition").textContent(), "none");
      assert.equal(await figure(page, "Highest buy order").getByRole("definition").textContent(), "none");
      await checkPage(page, `goods with no sale (${size.width} px)`);

      await visit(page, `/goods/${ids.sticker}`, section("Price history"));
      const chart = page.getByRole("img", {
        name: "Median price by day: 2 of 30 days with sales, from ¥ 2.00 to ¥ 3.00",
      });
      await chart.locator("canvas").waitFor();
      // The chart takes its column's width.
      const [chartBox, columnBox] = await Promise.all([
        chart.locator(".uplot").boundingBox(),
        page.getByRole("region", { name: "Price history" }).boundingBox(),
      ]);
      assert.ok(
        chartBox && columnBox && chartBox.width >= columnBox.width - 2,
        `${chartBox?.width} of ${columnBox?.width} px`,
      );
      await page.getByText(/median ¥ 3\.00, 1 sold$/).waitFor();
      await page.getByText("Sales per day").waitFor();
      assert.equal(await figure(page, "Lowest listing").getByRole("definition").textContent(), "¥ 9.00");
      assert.equal(await figure(page, "Highest buy order").getByRole("definition").textContent(), "none");
      await checkPage(page, `the chart of sales on two days (${size.width} px)`);
      await page.getByRole("button", { name: "180 days" }).click();
      await page.getByRole("img", { name: /^Median price by day: 2 of 180 days with sales/ }).waitFor();

      await visit(page, `/goods/${ids.redline}`, section("Price history"));
      // One sale: one dot, the readout names its day, price and count.
      await page
        .getByRole("img", { name: /^Median price by day: 1 of 30 days with sales, from (¥ [\d.]+) to \1$/ })
        .locator("canvas")
        .waitFor();
      await page.getByText(/: median ¥ [\d.]+, 1 sold$/).waitFor();
      await checkPage(page, `the chart of one sale (${size.width} px)`);
      await context.close();
    });
  }
});
