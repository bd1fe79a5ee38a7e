import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { describeOrSkip, EMBEDDED_ONLY } from "../../server/test/support/describe-or-skip.ts";
import {
  ADMIN_TOKEN,
  buildWebsite,
  launchChromium,
  NO_CHROMIUM,
  startServer,
  type RunningServer,
} from "./browser.ts";

/**
 * The console's living-market panel in a real browser against a real server: the person starts a
 * simulation, sees it step, runs a built-in scenario and sees its progress until it finishes, then
 * stops the simulation. Elements are found by role and label.
 */
describeOrSkip("the console's living market in Chromium", { skip: NO_CHROMIUM || EMBEDDED_ONLY }, () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    buildWebsite();
    server = await startServer({ DEMO: "off" });
    browser = await launchChromium();
    page = await (
      await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" })
    ).newPage();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  test("start a simulation, run a scenario, see it progress and finish, stop", async () => {
    await page.goto(server.url + "/console");
    await page.getByLabel("Sandbox admin token").fill(ADMIN_TOKEN);
    await page.getByRole("button", { name: "Open the console" }).click();
    const panel = page.getByRole("region", { name: "Living market" });
    const state = panel.getByRole("status", { name: "Simulation state" });
    await state.getByText(/Not started/).waitFor();

    const start = panel.getByRole("form", { name: "Start the simulation" });
    await start.getByLabel("Seed").fill("3");
    await start.getByLabel("Actions per second").fill("5");
    await start.getByLabel("Goods").fill("2");
    await start.getByLabel("Clock speed").fill("600");
    await start.getByRole("button", { name: "Start simulation" }).click();
    await state.getByText(/Running, ([1-9]\d*) steps/).waitFor({ timeout: 60_000 });
    const goods = panel.getByRole("table", { name: "Goods and fair values" });
    assert.equal(await goods.getByRole("row").count(), 3, "a header and two goods");

    const scenarios = panel.getByRole("form", { name: "Run a scenario" });
    await scenarios.getByLabel("Scenario").selectOption("knife-crash");
    await scenarios.getByRole("button", { name: "Run scenario" }).click();
    await panel.getByRole("status").getByText("Scenario knife-crash started.").waitFor();
    const progress = panel.getByRole("group", { name: "Scenario progress" });
    // Two minutes of sandbox time a step: the hour's crash moves on and ends within seconds.
    await progress.getByText(/Scenario knife-crash: ([1-9]\d*) %/).waitFor({ timeout: 60_000 });
    await progress.getByText("Scenario knife-crash: finished").waitFor({ timeout: 120_000 });
    assert.match(
      await progress.getByRole("listitem").first().innerText(),
      /price_shift \(Done\): goods .*: -30 %/,
    );
    // The knives joined the goods; actions and recent actions are counted.
    assert.ok((await goods.getByRole("row").count()) >= 5, "the knives joined");
    const actions = panel.getByRole("table", { name: "Actions by type" });
    await actions.getByRole("cell", { name: "price_shift", exact: true }).waitFor();
    const recent = panel.getByRole("table", { name: "Recent actions" });
    assert.ok((await recent.getByRole("row").count()) > 1);

    await start.getByRole("button", { name: "Stop simulation" }).click();
    await state.getByText(/Stopped/).waitFor();
    const status = await server.sandbox.getSimulation();
    assert.equal(status.running, false);
    assert.equal(status.scenario?.finished, true);
  });
});
