import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { describeOrSkip, EMBEDDED_ONLY } from "../../server/test/support/describe-or-skip.ts";
import { assertAccessible, assertNoSidewaysScroll, type PageGlobals } from "./axe.ts";
import {
  ADMIN_TOKEN,
  buildWebsite,
  launchChromium,
  newTrader,
  NO_CHROMIUM,
  openAt,
  type RunningServer,
  startServer,
} from "./browser.ts";

/**
 * The console as an operator uses it, at a desktop's and a phone's width
 * (docs/design/website-console.md#the-console): money moves only by an explicit Deposit or Withdraw of a
 * positive amount (a wrong one is refused next to its field, a withdrawal confirmed); items are
 * granted by choosing a goods from suggestions, in English or Chinese, with the keyboard; the trade
 * offers table holds the chosen user's offers only, under the pager. axe runs on every state.
 */
describeOrSkip("the console as an operator uses it", { skip: NO_CHROMIUM || EMBEDDED_ONLY }, () => {
  const STICKER = "Sticker | Crown (Foil)";
  const SIZES = [
    { width: 1366, height: 900 },
    { width: 390, height: 844 },
  ];
  let server: RunningServer;
  let browser: Browser;

  before(async () => {
    buildWebsite();
    server = await startServer({ DEMO: "off" });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** `count` offers from `from` to `to`, one item each. */
  async function sendOffers(
    from: Awaited<ReturnType<typeof newTrader>>,
    to: Awaited<ReturnType<typeof newTrader>>,
    count: number,
  ) {
    const { assets } = await server.sandbox.grantItems(from.account.platformid, {
      market_hash_name: STICKER,
      count,
    });
    for (const asset of assets)
      await server.sandbox.createOffer({
        platformid: from.account.platformid,
        trade_url: to.account.trade_url,
        assetids: [asset.assetid],
      });
  }

  async function idle(page: Page) {
    await page.waitForFunction(
      () => !(globalThis as unknown as PageGlobals).document.querySelector('[aria-busy="true"]'),
    );
  }

  for (const size of SIZES) {
    test(`money, granting and offers at ${size.width}x${size.height}`, async () => {
      const operator = await newTrader(server, `operator${size.width}`);
      const partner = await newTrader(server, `partner${size.width}`);
      const stranger = await newTrader(server, `stranger${size.width}`);
      await sendOffers(operator, partner, 21);
      await sendOffers(stranger, partner, 1);
      const { context, page } = await openAt(browser, size);
      const what = (state: string) => `the console, ${state} (${size.width} px)`;
      await page.goto(server.url + "/console");
      await page.getByLabel("Sandbox admin token").fill(ADMIN_TOKEN);
      await page.getByRole("button", { name: "Open the console" }).click();
      const users = page.getByRole("region", { name: "Users" });
      await users.getByRole("combobox", { name: "User" }).selectOption({ value: operator.user.user_id });
      await idle(page);
      await assertAccessible(page, what("a user chosen"));
      await assertNoSidewaysScroll(page, what("a user chosen"));

      // "Deposit -5" is refused beside the field and moves nothing.
      const funds = users.getByRole("form", { name: "Move money" });
      const amount = funds.getByLabel("Amount (yuan)");
      await amount.fill("-5");
      await funds.getByRole("button", { name: "Deposit" }).click();
      await funds
        .getByRole("alert")
        .getByText("Amount: enter a positive amount; to take money out, use Withdraw funds.")
        .waitFor();
      assert.equal(await amount.getAttribute("aria-invalid"), "true");
      await assertAccessible(page, what("a refused amount"));
      await amount.fill("1.005");
      await funds.getByRole("button", { name: "Deposit" }).click();
      await funds
        .getByRole("alert")
        .getByText(/at most 2 decimals/)
        .waitFor();
      assert.equal((await server.sandbox.getBalances(operator.user.user_id)).balance, "0.00");

      await amount.fill("12.50");
      await funds.getByRole("button", { name: "Deposit" }).click();
      await funds.getByRole("status").getByText("¥ 12.50 deposited into Balance.").waitFor();
      assert.equal(await amount.getAttribute("aria-invalid"), null);
      assert.equal((await server.sandbox.getBalances(operator.user.user_id)).balance, "12.50");

      // A withdrawal is its own button and asks first; declining the question changes nothing.
      await amount.fill("2.50");
      page.once("dialog", (dialog) => void dialog.dismiss());
      await funds.getByRole("button", { name: "Withdraw funds" }).click();
      assert.equal((await server.sandbox.getBalances(operator.user.user_id)).balance, "12.50");
      let asked = "";
      page.once("dialog", (dialog) => {
        asked = dialog.message();
        void dialog.accept();
      });
      await funds.getByRole("button", { name: "Withdraw funds" }).click();
      await funds.getByRole("status").getByText("¥ 2.50 withdrawn from Balance.").waitFor();
      assert.equal(asked, "Withdraw ¥ 2.50 from Balance?");
      assert.equal((await server.sandbox.getBalances(operator.user.user_id)).balance, "10.00");

      // Granting: a forgiving English search, chosen with the keyboard.
      const grant = users.getByRole("form", { name: "Grant items" });
      const item = grant.getByRole("combobox", { name: "Item" });
      await assertNoSidewaysScroll(page, what("money moved"));
      await grant.getByRole("button", { name: "Grant items" }).click();
      await grant.getByRole("alert").getByText("Item: choose one of the suggestions.").waitFor();
      await item.fill("ak47 redline ft");
      const options = grant.getByRole("listbox", { name: "Suggestions" });
      await options.getByRole("option").first().waitFor();
      assert.equal(await item.getAttribute("aria-expanded"), "true");
      await assertAccessible(page, what("the item suggestions open"));
      await item.press("ArrowDown");
      const first = options.getByRole("option").first();
      assert.equal(await first.getAttribute("aria-selected"), "true");
      assert.equal(await item.getAttribute("aria-activedescendant"), await first.getAttribute("id"));
      const name = (await first.locator(".name").innerText()).trim();
      await item.press("Enter");
      assert.equal(await item.inputValue(), name);
      assert.equal(await item.getAttribute("aria-expanded"), "false");
      await grant.getByLabel("Count", { exact: true }).fill("2");
      await grant.getByRole("button", { name: "Grant items" }).click();
      await grant.getByRole("status").getByText(`2 × ${name} granted.`).waitFor();
      assert.match(name, /Redline/);

      // In Chinese: the Chinese name finds it too, chosen with the mouse.
      await page.getByRole("button", { name: "中文" }).click();
      const grantZh = page.getByRole("form", { name: "发放饰品" });
      const itemZh = grantZh.getByRole("combobox", { name: "饰品" });
      await itemZh.fill("红线 久经沙场");
      const zhOption = grantZh.getByRole("option").filter({ hasText: "AK-47 | 红线 (久经沙场)" });
      await zhOption.first().click();
      await grantZh.getByRole("button", { name: "发放饰品" }).click();
      await grantZh.getByRole("status").getByText("已发放 2 件 AK-47 | 红线 (久经沙场)。").waitFor();
      await assertAccessible(page, what("in Chinese"));
      await page.getByRole("button", { name: "English" }).click();

      // The offers table: the chosen user's 21 offers, 20 a page; the stranger's is not among them.
      const offers = page.getByRole("region", { name: "Trade offers" });
      const pager = offers.getByRole("navigation", { name: "Pages of Trade offers" });
      await pager.getByText("1–20 of 21").waitFor();
      const table = offers.getByRole("table", { name: "Trade offers" });
      assert.equal(await table.getByRole("row").count(), 21, "a header and 20 offers");
      assert.equal(await table.getByText(stranger.account.platformid).count(), 0);
      await pager.getByRole("button", { name: "Next" }).click();
      await pager.getByText("21–21 of 21").waitFor();
      assert.equal(await table.getByRole("row").count(), 2);
      // Declining asks first.
      page.once("dialog", (dialog) => void dialog.accept());
      await table.getByRole("button", { name: /^Decline offer / }).click();
      await offers.getByRole("status").filter({ hasText: "declined" }).waitFor();
      await idle(page);
      await assertAccessible(page, what("the offers paged"));
      await assertNoSidewaysScroll(page, what("the offers paged"));
      await context.close();
    });
  }
});
