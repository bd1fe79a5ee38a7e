import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { systemClock } from "../../server/src/domain/clock.ts";
import { DEFAULT_MARKET_RULES } from "../../server/src/domain/context.ts";
import { createFirstAdmin } from "../../server/src/domain/staff/create-staff.ts";
import { describeOrSkip, EMBEDDED_ONLY } from "../../server/test/support/describe-or-skip.ts";
import { silentLog, testPlatform } from "../../server/test/support/test-context.ts";
import { assertAccessible, assertNoSidewaysScroll, type PageGlobals } from "./axe.ts";
import {
  ADMIN_TOKEN,
  buildWebsite,
  DESKTOP,
  launchChromium,
  NO_CHROMIUM,
  openAt,
  PHONE,
  startServer,
  type RunningServer,
} from "./browser.ts";

/** Waits until nothing on the page is loading. */
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

/**
 * Accounts for people in Chromium, sandbox on: sign up, the mailed link confirms, sign in, the
 * sign-in history and closing; each page at a desktop's and a phone's width with axe.
 */
describeOrSkip("accounts for people in Chromium", { skip: NO_CHROMIUM || EMBEDDED_ONLY }, () => {
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

  test("a person signs up, confirms, signs in, reads their sign-ins and closes the account", async () => {
    const desktop = await openAt(browser, DESKTOP);
    const phone = await openAt(browser, PHONE);
    const nickname = "web-person";
    const email = "web-person@example.com";
    const password = "web person password";
    for (const { page } of [desktop, phone]) {
      await page.goto(server.url + "/signup");
      await page.getByRole("heading", { name: "Sign up" }).waitFor();
      await checkPage(page, `sign-up at ${page.viewportSize()!.width} px`);
    }
    const page = desktop.page;
    await page.getByLabel("Nickname").fill(nickname);
    await page.getByLabel("Email address").fill(email);
    await page.getByLabel("Password (at least 10 characters)").fill(password);
    await page.getByRole("button", { name: "Sign up" }).click();
    await page.getByRole("status").getByText(`A link to confirm ${email} is on its way`).waitFor();

    // The console's mailbox shows the mail a developer follows.
    for (const { page: each } of [desktop, phone]) {
      await each.goto(server.url + "/console");
      await each.getByLabel("Sandbox admin token").fill(ADMIN_TOKEN);
      await each.getByRole("button", { name: "Open the console" }).click();
      await each.getByRole("heading", { name: "Mailbox" }).waitFor();
      await each.getByRole("row").filter({ hasText: "Confirm your skinmarket address" }).first().waitFor();
      await checkPage(each, `the console's mailbox at ${each.viewportSize()!.width} px`);
    }
    const [mail] = (await server.sandbox.listMails({ to: email })).items;
    const link = /http\S+\/confirm-email\?code=\S+/.exec(mail!.text)![0];
    assert.ok(link.startsWith(server.url), `${link} is on the server's own origin`);
    for (const { page: each } of [desktop, phone]) {
      await each.goto(link);
      await each.getByRole("button", { name: "Confirm my address" }).waitFor();
      await checkPage(each, `address confirmation at ${each.viewportSize()!.width} px`);
    }
    await phone.page.getByRole("button", { name: "Confirm my address" }).click();
    await phone.page.getByRole("status").getByText(`${email} is confirmed`).waitFor();

    await page.goto(server.url + "/signin");
    await page.getByLabel("Nickname").fill(nickname);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    await page.goto(server.url + "/me/security");
    const row = page.getByRole("row").filter({ hasText: "Password" });
    await row.first().waitFor();
    assert.match((await row.first().textContent()) ?? "", /127\.0\.0\.1/);
    await checkPage(page, "sign-ins at the desktop's width");
    await page.setViewportSize(PHONE);
    await checkPage(page, "sign-ins at the phone's width");

    await page.getByLabel(`Type your nickname, ${nickname}, to close the account`).fill(nickname);
    await page.getByRole("button", { name: "Close the account" }).click();
    await page.waitForURL(server.url + "/");
    await page.getByRole("link", { name: "Sign in" }).first().waitFor();
    await desktop.context.close();
    await phone.context.close();
  });
});

/**
 * The back office in Chromium with the sandbox off: the first admin (made as the command line
 * makes it) signs in at /ops, reads the audit, and a refusal shows beside its form.
 */
describeOrSkip("the back office in Chromium, sandbox off", { skip: NO_CHROMIUM || EMBEDDED_ONLY }, () => {
  let server: RunningServer;
  let browser: Browser;
  before(async () => {
    buildWebsite();
    server = await startServer({ DEMO: "off", SANDBOX: "off" }, async (db) => {
      const made = await createFirstAdmin(
        {
          db,
          clock: systemClock,
          actor: { kind: "system" },
          log: silentLog,
          ...testPlatform(),
          rules: DEFAULT_MARKET_RULES,
        },
        { email: "admin@ops.example", password: "admin password 1" },
      );
      assert.ok(made.ok);
      const user = await db
        .insertInto("users")
        .values({
          nickname: "OpsPageUser",
          password_hash: "x",
          access_level: "developer",
          created_at: new Date(),
          updated_at: new Date(),
        })
        .returning("user_id")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("ledger_accounts")
        .values(
          (["balance", "margin", "wallet", "escrow"] as const).map((kind) => ({
            user_id: user.user_id,
            kind,
          })),
        )
        .execute();
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test("the admin signs in, finds a user, credits them by hand, reads the audit and is told why a sign-out was refused", async () => {
    for (const size of [DESKTOP, PHONE]) {
      const { context, page } = await openAt(browser, size);
      await page.goto(server.url + "/ops");
      await page.getByRole("heading", { name: "Back office sign-in" }).waitFor();
      await checkPage(page, `back-office sign-in at ${size.width} px`);
      await page.getByLabel("Staff email address").fill("admin@ops.example");
      await page.getByLabel("Password").fill("admin password 1");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByText("Signed in as admin@ops.example, role admin.").waitFor();
      const firstAdmin = page.getByRole("row").filter({ hasText: "staff.create" });
      await firstAdmin.first().waitFor();
      assert.match((await firstAdmin.first().textContent()) ?? "", /command line/);
      await checkPage(page, `back office at ${size.width} px`);

      await page.getByLabel("Nickname, user id or platform id").fill("opspage");
      await page.getByRole("button", { name: "Search" }).click();
      await page.getByRole("button", { name: "Open OpsPageUser" }).click();
      await page.getByRole("heading", { name: /^User OpsPageUser/ }).waitFor();
      const adjust = page.getByRole("form", { name: "Adjust the balance by hand" });
      await adjust.getByLabel("Amount (yuan)").fill("12.50");
      await adjust.getByLabel("Reason (kept in the audit)").fill("goodwill, ticket 31");
      await adjust.getByRole("button", { name: "Adjust" }).click();
      await adjust
        .getByRole("status")
        .getByText(/→ ¥ 12\.50|→ ¥ 25\.00/)
        .waitFor();
      await page.getByRole("row").filter({ hasText: "goodwill, ticket 31" }).first().waitFor();
      await checkPage(page, `a user's page in the back office at ${size.width} px`);

      await page
        .getByRole("form", { name: "Sign a user out everywhere" })
        .getByLabel("User id")
        .fill("999999");
      await page
        .getByRole("form", { name: "Sign a user out everywhere" })
        .getByLabel("Reason (kept in the audit)")
        .fill("ticket 12");
      await page.getByRole("button", { name: "Sign out everywhere" }).click();
      await page.getByRole("alert").getByText("user 999999 does not exist").waitFor();
      await page.getByRole("button", { name: "Sign out of the back office" }).click();
      await page.getByRole("heading", { name: "Back office sign-in" }).waitFor();
      await context.close();
    }
  });
});
