import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
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
 * Selling help and outcomes beside their controls (docs/design/website-actions.md), at a
 * desktop's and a phone's width: the fee, what the seller receives and a warning below the
 * purchase price as an item is priced; selling an item to the highest buy order from its row; a
 * purchase's cancel offered only once it can succeed, its outcome in its row; the catalog naming
 * a price range it cannot search; live events reloading only the inventory page they concern.
 */
describeOrSkip(
  "selling help and outcomes beside their controls",
  { skip: NO_CHROMIUM || EMBEDDED_ONLY },
  () => {
    const CROWN = "Sticker | Crown (Foil)";
    const CASE = "Operation Phoenix Weapon Case";
    let server: RunningServer;
    let browser: Browser;
    let trader: Awaited<ReturnType<typeof newTrader>>;
    let other: Awaited<ReturnType<typeof newTrader>>;
    let waitingPurchase: string;
    let bidder: Awaited<ReturnType<typeof newTrader>>;
    let caseGoodsId = 0;

    /** `other` lists one case at `price` and the trader buys it; answers the trade's id. */
    async function buyCase(price: string): Promise<string> {
      const [asset] = (
        await server.sandbox.grantItems(other.account.platformid, { market_hash_name: CASE, count: 1 })
      ).assets;
      caseGoodsId = asset!.goods_id;
      await other.market.listItems([{ assetid: asset!.assetid, price }]);
      const bought = await trader.market.purchase({
        items: [{ goods_id: asset!.goods_id, max_price: price, quantity: 1 }],
      });
      assert.equal(bought.result[String(asset!.goods_id)]!.success_num, 1, JSON.stringify(bought));
      const sales = await other.market.sellOrderHistory();
      return sales.items.find((sale) => sale.state === "SELLER_TO_SEND_OFFER")!.id;
    }

    before(async () => {
      buildWebsite();
      server = await startServer({ DEMO: "off" });
      trader = await newTrader(server, "helptrader");
      other = await newTrader(server, "helpother");
      bidder = await newTrader(server, "helpbidder");
      await server.sandbox.fundAccount(trader.user.user_id, { account: "balance", amount: "500" });
      await server.sandbox.fundAccount(bidder.user.user_id, { account: "balance", amount: "100" });
      // Two Crowns to sell to a buy order, one at each width.
      const crowns = await server.sandbox.grantItems(trader.account.platformid, {
        market_hash_name: CROWN,
        count: 2,
      });
      await bidder.market.createBuyOrder({ goods_id: crowns.assets[0]!.goods_id, price: "9.00", num: 2 });
      // A case bought here for 20.00 and delivered: its purchase price is known.
      const delivered = await buyCase("20.00");
      await other.market.sendOffer(delivered);
      const offers = await server.sandbox.listOffers(other.account.platformid);
      for (const offer of offers.items.filter((entry) => entry.state === "active"))
        await server.sandbox.acceptOffer(offer.tradeofferid);
      await server.sandbox.runJobs();
      // A purchase the seller has not delivered yet: within the seller's 30 minutes.
      waitingPurchase = await buyCase("15.00");
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      await server?.stop();
    });

    async function open(size: {
      width: number;
      height: number;
    }): Promise<{ context: BrowserContext; page: Page }> {
      const { context, page } = await openAt(browser, size);
      await page.goto(server.url + "/signin");
      await page.getByLabel("Nickname").fill(trader.nickname);
      await page.getByLabel("Password").fill(trader.password);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("button", { name: "Sign out" }).waitFor();
      return { context, page };
    }

    async function visit(page: Page, path: string, ready: (page: Page) => Locator): Promise<void> {
      await page.goto(server.url + path);
      await ready(page).first().waitFor();
      await page.waitForFunction(
        () => !(globalThis as unknown as PageGlobals).document.querySelector('[aria-busy="true"]'),
      );
    }

    const table = (name: string) => (page: Page) => page.getByRole("table", { name, exact: true });

    for (const size of [DESKTOP, PHONE]) {
      const what = (state: string) => `${state} (${size.width} px)`;

      test(`pricing shows the fee, what the seller receives and a warning below the purchase price; an item sells now to the highest buy order, at ${size.width} px`, async () => {
        const { context, page } = await open(size);
        await visit(page, "/me/inventory", table("Inventory"));
        const price = page.getByLabel(`Price for ${CASE}`);
        await price.fill("10.00");
        const row = page.getByRole("row").filter({ has: price });
        await row.getByText("Fee ¥ 0.25 · you receive ¥ 9.75").waitFor();
        await row.getByText("Below the ¥ 20.00 you paid for it").waitFor();
        assert.match(
          (await price.getAttribute("aria-describedby")) ?? "",
          /^sale-/,
          "the field is described by its preview",
        );
        await price.fill("25.00");
        await row.getByText("Fee ¥ 0.63 · you receive ¥ 24.37").waitFor();
        assert.equal(
          await row.getByText(/you paid for it/).count(),
          0,
          "no warning above the purchase price",
        );
        await assertAccessible(page, what("an inventory item priced"));
        await assertNoSidewaysScroll(page, what("an inventory item priced"));

        await page
          .getByRole("button", { name: `Sell now for ¥ 9.00: ${CROWN} to the highest buy order` })
          // One Crown for each width: the desktop's, sold first, stays in the inventory until
          // delivered, but is no longer offered for sale.
          .first()
          .click();
        const dialog = page.getByRole("dialog", { name: `Sell ${CROWN} now` });
        await dialog.getByText("¥ 8.77").waitFor();
        await dialog.getByText("¥ 0.23").waitFor();
        await assertAccessible(page, what("the sell-now dialog"), "dialog[open]");
        await dialog.getByRole("button", { name: "Sell for ¥ 9.00" }).click();
        await dialog
          .getByRole("status")
          .filter({ hasText: `Sold ${CROWN} for ¥ 9.00` })
          .waitFor();
        await assertAccessible(page, what("the sell-now dialog, sold"), "dialog[open]");
        await dialog.getByRole("button", { name: "Close" }).click();
        await dialog.waitFor({ state: "detached" });
        // Both widths' Crowns are sold once the phone's is: each row then says so.
        await page
          .getByRole("link", { name: "Sold, awaiting delivery" })
          .nth(size === DESKTOP ? 0 : 1)
          .waitFor();
        assert.equal(
          await page
            .getByRole("button", { name: /^Sell now for ¥ 9\.00: Sticker \| Crown \(Foil\)/ })
            .count(),
          size === DESKTOP ? 1 : 0,
          "a sold Crown is not offered for sale again",
        );
        await context.close();
      });

      test(`a purchase's cancel is not offered while the seller's 30 minutes run; a bad price range names the field, at ${size.width} px`, async () => {
        const { context, page } = await open(size);
        await visit(page, "/me/purchases", table("Purchases"));
        const row = page.getByRole("row").filter({ hasText: waitingPurchase });
        await row.getByText(/You can cancel in \d+ min if no offer comes\./).waitFor();
        assert.equal(
          await row.getByRole("button", { name: /Cancel purchase/ }).count(),
          0,
          "no cancel that must fail",
        );
        await assertAccessible(page, what("a purchase within the seller's window"));

        await visit(page, "/", (page) => page.getByRole("heading", { name: "Market", level: 1 }));
        await page.getByLabel("Min price").fill("50");
        await page.getByLabel("Max price").fill("10");
        await page.getByRole("button", { name: "Apply filters" }).click();
        await page.getByRole("alert").filter({ hasText: "Min price must not be above Max price." }).waitFor();
        assert.equal(await page.getByLabel("Min price").getAttribute("aria-invalid"), "true");
        assert.ok(!page.url().includes("min_price"), "the refused range is not searched");
        await assertAccessible(page, what("the catalog with a refused price range"));
        await assertNoSidewaysScroll(page, what("the catalog with a refused price range"));
        await context.close();
      });
    }

    test("an account event reloads only the inventory page it concerns, from the platform only after a trade", async () => {
      const { context, page } = await open(DESKTOP);
      const reads: string[] = [];
      page.on("request", (request) => {
        if (request.url().includes("/api/market/steam_inventory")) reads.push(request.url());
      });
      await visit(page, "/me/inventory", table("Inventory"));
      assert.equal(reads.length, 1);
      assert.match(reads[0]!, /force=1/, "the first read asks the platform");
      assert.match(reads[0]!, /page_size=50/, "one page, not the whole inventory");
      // A balance movement does not concern the inventory.
      await server.sandbox.fundAccount(trader.user.user_id, { account: "balance", amount: "1" });
      await page.waitForTimeout(1500);
      assert.equal(reads.length, 1, "no reload for a balance event");
      // A listing of the trader's does: the page is read again from the marketplace's records.
      const [asset] = (
        await server.sandbox.grantItems(trader.account.platformid, { market_hash_name: CROWN, count: 1 })
      ).assets;
      await trader.market.listItems([{ assetid: asset!.assetid, price: "30.00" }]);
      await page.waitForFunction(() => true);
      const deadline = Date.now() + 5000;
      while (reads.length < 2 && Date.now() < deadline) await page.waitForTimeout(100);
      assert.ok(reads.length >= 2, "a listing event reloads the page");
      assert.match(reads[1]!, /force=0/);
      assert.match(reads[1]!, /page_size=50/);
      await context.close();
    });

    test("a listing's refused reprice shows in its row by goods name, at both widths; a withdrawal's outcome stays in view", async () => {
      for (const size of [PHONE, DESKTOP]) {
        const { context, page } = await open(size);
        await visit(page, "/me/listings", table("My listings"));
        const price = page.getByLabel(`New price for ${CROWN}`);
        const row = page.getByRole("row").filter({ has: price });
        await price.fill("0.001");
        await row.getByRole("button", { name: "Reprice" }).click();
        const refusal = row.getByRole("alert");
        await refusal.waitFor();
        assert.match(
          (await refusal.textContent()) ?? "",
          new RegExp(`^0 done · ${CROWN.replace(/[|()]/g, "\\$&")}: `),
        );
        assert.equal(await refusal.getAttribute("aria-live"), "assertive");
        await assertAccessible(page, `a refused reprice (${size.width} px)`);
        await assertNoSidewaysScroll(page, `a refused reprice (${size.width} px)`);
        if (size === DESKTOP) {
          await row.getByRole("button", { name: "Withdraw" }).click();
          await page.getByRole("status").filter({ hasText: "1 done" }).waitFor();
          await page.getByText("Nothing on sale.").waitFor();
        }
        await context.close();
      }
    });

    test("once the seller's 30 minutes have passed, the cancel is offered and its outcome shows in its row", async () => {
      await server.sandbox.advanceClock(31 * 60);
      const { context, page } = await open(DESKTOP);
      await visit(page, "/me/purchases", table("Purchases"));
      const row = page.getByRole("row").filter({ hasText: waitingPurchase });
      await row.getByRole("button", { name: `Cancel purchase ${waitingPurchase}` }).click();
      await row
        .getByRole("status")
        .filter({ hasText: `Purchase ${waitingPurchase} cancelled` })
        .waitFor();
      await assertAccessible(page, "a purchase cancelled (1366 px)");
      await context.close();
    });

    test("Sell now is never offered to the user's own buy order, only at another user's best bid", async () => {
      // The trader bids for the case they hold, above anyone: no buyer for them to sell to.
      await trader.market.createBuyOrder({ goods_id: caseGoodsId, price: "12.00", num: 1 });
      const { context, page } = await open(DESKTOP);
      await visit(page, "/me/inventory", table("Inventory"));
      const row = page.getByRole("row").filter({ has: page.getByLabel(`Price for ${CASE}`) });
      assert.equal(await row.getByRole("button", { name: /^Sell now/ }).count(), 0, "no Sell now to oneself");
      // Another user's lower bid is the one a sale would go to.
      await bidder.market.createBuyOrder({ goods_id: caseGoodsId, price: "3.00", num: 1 });
      await visit(page, "/me/inventory", table("Inventory"));
      await row
        .getByRole("button", { name: `Sell now for ¥ 3.00: ${CASE} to the highest buy order` })
        .waitFor();
      await assertAccessible(page, "Sell now at another user's bid (1366 px)");
      await context.close();
    });
  },
);
