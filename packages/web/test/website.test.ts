import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, test } from "node:test";
import type { Browser, Page, WebSocketRoute } from "playwright-core";
import { describeOrSkip, EMBEDDED_ONLY } from "../../server/test/support/describe-or-skip.ts";
import {
  ADMIN_TOKEN,
  buildWebsite,
  launchChromium,
  newTrader,
  NO_CHROMIUM,
  startServer,
  type RunningServer,
} from "./browser.ts";

/**
 * The website in a real browser against a real server: a person signs in, searches, opens an
 * item, buys a listing, has it delivered (the seller's offer accepted from the developer console)
 * and sees the purchase complete; lists an item; places and cancels a buy order; switches
 * language. Elements are found by role and label, as a person finds them.
 */
describeOrSkip("the website in Chromium", { skip: NO_CHROMIUM || EMBEDDED_ONLY }, () => {
  const REDLINE = "AK-47 | Redline (Field-Tested)";
  const CROWN = "Sticker | Crown (Foil)";
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let buyer: Awaited<ReturnType<typeof newTrader>>;
  let seller: Awaited<ReturnType<typeof newTrader>>;
  let redlineId: number;

  before(async () => {
    buildWebsite();
    server = await startServer({ DEMO: "off", WEBHOOK_ALLOW_PRIVATE_URLS: "true" });
    seller = await newTrader(server, "seller");
    buyer = await newTrader(server, "buyer");
    const [redline] = (
      await server.sandbox.grantItems(seller.account.platformid, { market_hash_name: REDLINE, count: 1 })
    ).assets;
    redlineId = redline!.goods_id;
    await seller.market.listItems([{ assetid: redline!.assetid, price: "12.00" }]);
    await server.sandbox.fundAccount(buyer.user.user_id, { account: "balance", amount: "100" });
    await server.sandbox.grantItems(buyer.account.platformid, { market_hash_name: CROWN, count: 1 });
    browser = await launchChromium();
    page = await (
      await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-GB" })
    ).newPage();
    // What the page's event stream is subscribed to, from the server's answers.
    page.on("websocket", (socket) => {
      subscribed.clear();
      socket.on("framereceived", ({ payload }) => {
        const frame = JSON.parse(String(payload)) as { type: string; channels?: string[] };
        for (const channel of frame.channels ?? []) {
          if (frame.type === "subscribed") subscribed.add(channel);
          if (frame.type === "unsubscribed") subscribed.delete(channel);
        }
        for (const waiter of [...waiters]) waiter();
      });
    });
  });

  const subscribed = new Set<string>();
  const waiters = new Set<() => void>();
  /** Resolves once the page's stream is subscribed to `channel`. */
  function streamSubscribed(channel: string): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!subscribed.has(channel)) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  }

  /** Counts the page's loads from now on (a reload or a navigation outside the app). */
  function countLoads(target: Page): () => number {
    let loads = 0;
    target.on("load", () => (loads += 1));
    return () => loads;
  }

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A suggestion by its goods' name (its accessible name goes on with the lowest price). */
  const suggestion = (name: string) =>
    page.getByRole("option", { name: new RegExp(`^${name.replace(/[|()]/g, "\\$&")}\\s*(¥|No listings)`) });

  test('a visitor searches the catalog without signing in: "ak47 redline" finds the Redline', async () => {
    await page.goto(server.url + "/");
    await page.getByRole("heading", { name: "Market" }).waitFor();
    await page.getByRole("heading", { name: "Popular listings" }).waitFor();
    await page.getByRole("combobox", { name: "Search the market" }).fill("ak47 redline");
    const option = suggestion(REDLINE);
    await option.waitFor();
    assert.match((await option.textContent()) ?? "", /¥ 12\.00/);
    await page.getByRole("combobox", { name: "Search the market" }).press("Escape");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByRole("list", { name: "Goods" }).getByText(REDLINE, { exact: true }).first().waitFor();
    assert.equal(new URL(page.url()).searchParams.get("search"), "ak47 redline");
  });

  test("signs in with nickname and password", async () => {
    await page.getByRole("link", { name: "Sign in" }).first().click();
    await page.getByLabel("Nickname").fill(buyer.nickname);
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("alert").waitFor();
    await page.getByLabel("Password").fill(buyer.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    await page.getByText(buyer.nickname, { exact: true }).waitFor();
  });

  test("searches with suggestions as one types, and opens the item", async () => {
    await page.getByRole("combobox", { name: "Search the market" }).fill("Redline (Field");
    const option = suggestion(REDLINE);
    await option.waitFor();
    await option.click();
    await page.getByRole("heading", { name: REDLINE, level: 1 }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/goods/${redlineId}`);
  });

  test("buys the listing with the balance", async () => {
    await page.getByRole("button", { name: "Buy for ¥ 12.00" }).click();
    const dialog = page.getByRole("dialog", { name: "Buy for ¥ 12.00" });
    await dialog.getByRole("radio", { name: /Balance/ }).check();
    await dialog.getByRole("button", { name: "Confirm purchase" }).click();
    await dialog.getByRole("status").filter({ hasText: "Bought" }).waitFor();
    await dialog.getByRole("button", { name: "Close" }).click();
  });

  test("the purchase waits for the seller's offer, which the console accepts; the page shows it complete without a reload", async () => {
    await page.getByRole("link", { name: "My account" }).click();
    await page.getByRole("link", { name: "Purchases" }).click();
    const row = page.getByRole("row").filter({ hasText: REDLINE });
    await row.getByText("Waiting for the seller's offer").waitFor();
    await streamSubscribed("account");
    const loads = countLoads(page);

    const [sale] = (await seller.market.sellOrderHistory({ state: "SELLER_TO_SEND_OFFER" })).items;
    assert.ok(sale, "the seller has a sale to deliver");
    await seller.market.sendOffer(sale.id);
    await row.getByText("Offer sent", { exact: true }).waitFor();

    // The console in another tab of the same browser; the account page stays as it is.
    const consolePage = await page.context().newPage();
    await consolePage.goto(server.url + "/console");
    await consolePage.getByLabel("Sandbox admin token").fill(ADMIN_TOKEN);
    await consolePage.getByRole("button", { name: "Open the console" }).click();
    // The offers table lists the chosen user's offers: the seller's.
    const users = consolePage.getByRole("region", { name: "Users" });
    await users.getByRole("combobox", { name: "User" }).selectOption({ value: seller.user.user_id });
    const offers = consolePage.getByRole("region", { name: "Trade offers" });
    await offers.getByRole("button", { name: /^Accept offer / }).click();
    await offers.getByRole("status").filter({ hasText: "accepted" }).waitFor();
    const clock = consolePage.getByRole("region", { name: "Clock and jobs" });
    await clock.getByRole("button", { name: "Run due jobs" }).click();
    await clock.getByRole("status").waitFor();
    // The seller's platform account shows the Steam secrets its bot holds.
    await users.getByRole("button", { name: "Show Steam secrets" }).click();
    const secrets = users.getByRole("definition");
    await secrets.first().waitFor();
    const shown = await secrets.allTextContents();
    const expected = await server.sandbox.steamSecrets(seller.account.platformid);
    assert.deepEqual(shown, [
      expected.account_name,
      expected.password,
      expected.shared_secret,
      expected.identity_secret,
    ]);
    await consolePage.close();

    await row.getByText("Completed", { exact: true }).first().waitFor();
    assert.equal(loads(), 0, "the account page was not reloaded");
  });

  test("a listing another user makes through the API appears on the item page without a reload", async () => {
    await page.goto(`${server.url}/goods/${redlineId}`);
    await page.getByRole("heading", { name: REDLINE, level: 1 }).waitFor();
    await streamSubscribed(`book:${redlineId}`);
    const loads = countLoads(page);
    const [another] = (
      await server.sandbox.grantItems(seller.account.platformid, { market_hash_name: REDLINE, count: 1 })
    ).assets;
    await seller.market.listItems([{ assetid: another!.assetid, price: "14.50" }]);
    await page.getByRole("button", { name: "Buy for ¥ 14.50" }).waitFor();
    assert.equal(loads(), 0, "the item page was not reloaded");
    await page.getByRole("link", { name: "My account" }).click();
  });

  test("a stream that drops is opened again and resumes: a listing made meanwhile still appears", async () => {
    // The page's streams go through the test: the first is cut once subscribed; the next is held
    // until the listing exists, so only the resume can bring it.
    const streams: WebSocketRoute[] = [];
    let listed!: () => void;
    const listingMade = new Promise<void>((resolve) => (listed = resolve));
    let bookSubscribed!: () => void;
    const firstSubscribed = new Promise<void>((resolve) => (bookSubscribed = resolve));
    await page.routeWebSocket(/\/api\/market\/developer\/stream$/, async (stream) => {
      streams.push(stream);
      const first = streams.length === 1;
      if (!first) await listingMade;
      const upstream = stream.connectToServer();
      stream.onMessage((message) => upstream.send(message));
      upstream.onMessage((message) => {
        stream.send(message);
        if (
          first &&
          String(message).includes(`"subscribed"`) &&
          String(message).includes(`book:${redlineId}`)
        )
          bookSubscribed();
      });
    });
    await page.goto(`${server.url}/goods/${redlineId}`);
    await page.getByRole("heading", { name: REDLINE, level: 1 }).waitFor();
    await firstSubscribed;
    const loads = countLoads(page);

    await streams[0]!.close({ code: 4000, reason: "cut by the test" });
    const [another] = (
      await server.sandbox.grantItems(seller.account.platformid, { market_hash_name: REDLINE, count: 1 })
    ).assets;
    await seller.market.listItems([{ assetid: another!.assetid, price: "16.25" }]);
    listed();

    await page.getByRole("button", { name: "Buy for ¥ 16.25" }).waitFor();
    assert.equal(streams.length, 2, "the stream was opened once more");
    assert.equal(loads(), 0, "the item page was not reloaded");
    await page.unrouteAll();
    await page.getByRole("link", { name: "My account" }).click();
  });

  test("lists an item of the inventory, showing the current lowest price", async () => {
    await page.getByRole("link", { name: "Inventory" }).click();
    await page.getByRole("checkbox", { name: `Select ${CROWN}` }).check();
    await page.getByLabel(`Price for ${CROWN}`).fill("3.50");
    await page.getByRole("button", { name: "List 1 selected for sale" }).click();
    await page.getByRole("status").filter({ hasText: "1 done" }).waitFor();
    await page.getByRole("link", { name: "My listings" }).click();
    const row = page.getByRole("row").filter({ hasText: CROWN });
    await row.getByText("¥ 3.50").waitFor();
  });

  test("places a buy order with a float condition, cancels it and takes buy orders offline, all without an API token", async () => {
    await page.goto(`${server.url}/goods/${redlineId}`);
    await page.getByRole("tab", { name: /Buy orders/ }).click();
    const form = page.getByRole("form", { name: "Place a buy order" });
    assert.equal(await form.getByLabel("API token").count(), 0, "no token is asked for");
    await form.getByLabel("Price", { exact: true }).fill("5.00");
    await form.getByLabel("Max float").fill("0.25");
    await form.getByRole("button", { name: "Place buy order" }).click();
    await form.getByRole("status").filter({ hasText: "placed" }).waitFor();
    await page.getByRole("table", { name: "Buy orders" }).getByText("¥ 5.00").waitFor();

    await page.getByRole("link", { name: "My account" }).click();
    await page.getByRole("link", { name: "Buy orders" }).click();
    const cancel = page.getByRole("button", { name: /^Cancel order / });
    await cancel.click();
    await page.getByRole("status").filter({ hasText: "1 done" }).waitFor();
    const { items } = await buyer.market.listBuyOrders({ order_state: "progressing" });
    assert.equal(items.length, 0, "no buy order left open");

    await page.getByRole("button", { name: "Take buy orders offline" }).click();
    await page.getByRole("button", { name: "Put buy orders online" }).waitFor();
    assert.equal((await buyer.market.getBuyOrderStatus()).buy_order_status, "offline");
    await page.getByRole("button", { name: "Put buy orders online" }).click();
    await page.getByRole("button", { name: "Take buy orders offline" }).waitFor();
    assert.equal((await buyer.market.getBuyOrderStatus()).buy_order_status, "online");
    assert.equal(await page.getByLabel("API token").count(), 0, "no token is asked for");
  });

  test("another user's buy order enters and leaves the item page's book without a reload", async () => {
    await page.goto(`${server.url}/goods/${redlineId}`);
    await page.getByRole("heading", { name: REDLINE, level: 1 }).waitFor();
    await streamSubscribed(`book:${redlineId}`);
    await page.getByRole("tab", { name: /Buy orders/ }).click();
    // The seller's income from the sale above is still held by trade protection: the bid is funded.
    await server.sandbox.fundAccount(seller.user.user_id, { account: "balance", amount: "4.40" });
    const loads = countLoads(page);
    const order = await seller.market.createBuyOrder({ goods_id: redlineId, price: "4.40", num: 1 });
    const book = page.getByRole("table", { name: "Buy orders" });
    await book.getByText("¥ 4.40").waitFor();
    await seller.market.cancelBuyOrders([order.id]);
    await book.getByText("¥ 4.40").waitFor({ state: "detached" });
    assert.equal(loads(), 0, "the item page was not reloaded");
  });

  test("the wallet lists every movement with the balance after it, and follows money that arrives elsewhere without a reload", async () => {
    await page.goto(`${server.url}/me/wallet`);
    const balance = page.getByRole("definition").first();
    await balance.waitFor();
    const before = Number((await balance.innerText()).replace(/[^\d.]/g, ""));
    const movements = page.getByRole("table", { name: "Movements" });
    // The first deposit and the purchase of the Redline are there, newest first.
    const paid = movements.getByRole("row").filter({ hasText: "Purchase paid" });
    await paid.getByText("−¥ 12.00").waitFor();
    await movements.getByRole("row").filter({ hasText: "Deposit" }).last().getByText("+¥ 100.00").waitFor();
    await streamSubscribed("account");
    const loads = countLoads(page);
    await server.sandbox.fundAccount(buyer.user.user_id, { account: "balance", amount: "7.25" });
    const total = `¥ ${(before + 7.25).toFixed(2)}`;
    await page.getByRole("definition").filter({ hasText: total }).waitFor();
    const newest = movements.getByRole("row").nth(1);
    await newest.getByText("Deposit").waitFor();
    await newest.getByText("+¥ 7.25").waitFor();
    await newest.getByText(total).waitFor();
    // Only the buy-order funds' movements: none here.
    await page.getByRole("combobox", { name: "Account" }).selectOption({ label: "Buy-order funds" });
    await page.getByText("No movements yet.").waitFor();
    assert.equal(loads(), 0, "the wallet was not reloaded");
  });

  test("bookmarks an item and finds it among the account's bookmarks, then removes it", async () => {
    await page.goto(`${server.url}/goods/${redlineId}`);
    await page.getByRole("button", { name: "Bookmark", exact: true }).click();
    await page.getByRole("button", { name: "Bookmarked" }).waitFor();
    await page.getByRole("link", { name: "My account" }).click();
    await page.getByRole("link", { name: "Bookmarks" }).click();
    const list = page.getByRole("list", { name: "Bookmarks" });
    await list.getByRole("link", { name: REDLINE }).waitFor();
    await list.getByRole("button", { name: `Remove bookmark of ${REDLINE}` }).click();
    await page.getByText("No bookmarks yet.").waitFor();
  });

  test("the console's event log shows a user's events as they happen; webhooks get test events and deliveries, managed with the admin token alone", async () => {
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const receiver = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        received.push({ headers: request.headers, body });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const consolePage = await page.context().newPage();
    try {
      await consolePage.goto(server.url + "/console");
      await consolePage.getByLabel("Sandbox admin token").fill(ADMIN_TOKEN);
      await consolePage.getByRole("button", { name: "Open the console" }).click();
      const panel = consolePage.getByRole("region", { name: "Events and webhooks" });
      const tokensBefore = (await server.sandbox.getUser(buyer.user.user_id)).tokens.length;
      await panel.getByLabel("Events and webhooks of").fill(buyer.user.user_id);
      await panel.getByRole("button", { name: "Show", exact: true }).click();
      const log = panel.getByRole("table", { name: "Live event log" });
      await log.waitFor();

      // An event made elsewhere (the sandbox API) appears in the log without a reload.
      const loads = countLoads(consolePage);
      await server.sandbox.fundAccount(buyer.user.user_id, { account: "balance", amount: "1.50" });
      const { items } = await buyer.market.listEvents({
        after: "0",
        types: ["balance.changed"],
        limit: 1000,
      });
      const newest = items.at(-1)!;
      // The row whose id cell is the event's id (other cells, a time or an id, may contain its digits).
      const row = log
        .getByRole("row")
        .filter({ has: consolePage.getByRole("cell", { name: newest.id, exact: true }) });
      await row.waitFor();
      await row.getByText(`Data of event ${newest.id}`).click();
      await row.getByText(`"market_balance"`).waitFor();
      assert.equal(loads(), 0, "the console was not reloaded");
      // Reading the log made no token of the user's.
      assert.equal((await server.sandbox.getUser(buyer.user.user_id)).tokens.length, tokensBefore);

      // A webhook endpoint: registered (its secret shown once), a test event delivered.
      const register = panel.getByRole("form", { name: "Register a webhook endpoint" });
      await register.getByLabel("Endpoint URL").fill(hookUrl);
      await register.getByLabel("Event types").fill("balance.changed");
      await register.getByRole("button", { name: "Register endpoint" }).click();
      await panel.getByRole("status").filter({ hasText: "registered" }).waitFor();
      const secret = await panel.getByRole("group", { name: "Signing secret" }).locator("code").innerText();
      assert.match(secret, /^whsec_/);
      const endpoint = panel.getByRole("listitem").filter({ hasText: hookUrl });
      await endpoint.getByLabel("Test event type").selectOption("trade.delivered");
      await endpoint.getByRole("button", { name: "Send test event" }).click();
      await endpoint
        .getByRole("status")
        .filter({ hasText: "Test event trade.delivered delivered" })
        .waitFor();
      const test = received.find((request) => request.headers["skinmarket-test"] === "true");
      assert.ok(test, "the receiver got the test event");
      assert.equal(JSON.parse(test.body).type, "trade.delivered");

      // The endpoint's delivery log, open since it was registered, reads with the admin token.
      await endpoint.getByRole("table", { name: /^Deliveries of endpoint / }).waitFor();

      // A real event is delivered and seen in the endpoint's delivery log; it can be sent again.
      await server.sandbox.fundAccount(buyer.user.user_id, { account: "balance", amount: "2.00" });
      const deliveries = endpoint.getByRole("table", { name: /^Deliveries of endpoint / });
      if (!(await deliveries.isVisible()))
        await endpoint.getByRole("button", { name: /^Deliveries of endpoint / }).click();
      const delivered = deliveries.getByRole("row").filter({ hasText: "balance.changed" });
      await delivered.getByText("Delivered").waitFor();
      await delivered.getByRole("button", { name: /^Redeliver event / }).click();
      await endpoint.getByRole("status").filter({ hasText: "delivered again" }).waitFor();
      const real = received.filter((request) => !request.headers["skinmarket-test"]);
      assert.equal(real.length, 2, "the delivery and its redelivery");
      assert.equal(JSON.parse(real[0]!.body).type, "balance.changed");

      await endpoint.getByRole("button", { name: /^Disable endpoint / }).click();
      await endpoint.getByRole("button", { name: /^Enable endpoint / }).waitFor();
      // The operator did it all as the admin: no token of the user's was made.
      assert.equal((await server.sandbox.getUser(buyer.user.user_id)).tokens.length, tokensBefore);
    } finally {
      await consolePage.close();
      receiver.close();
    }
  });

  test("cancels a purchase the seller did not deliver within 30 minutes, without an API token", async () => {
    const [item] = (
      await server.sandbox.grantItems(seller.account.platformid, { market_hash_name: CROWN, count: 1 })
    ).assets;
    await seller.market.listItems([{ assetid: item!.assetid, price: "2.00" }]);
    // Below the buyer's own Crown at 3.50: the seller's is the one bought.
    const bought = await buyer.market.purchase({
      items: [{ market_hash_name: CROWN, max_price: "2.00", quantity: 1 }],
    });
    const billOrderId = Object.values(bought.result)[0]?.bill_order_ids[0];
    assert.ok(billOrderId, JSON.stringify(bought));
    await server.sandbox.advanceClock(31 * 60);
    await page.goto(`${server.url}/me/purchases`);
    const row = page.getByRole("row").filter({ hasText: billOrderId });
    await row.getByRole("button", { name: `Cancel purchase ${billOrderId}` }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `Purchase ${billOrderId} cancelled` })
      .waitFor();
    await row.getByText("Failed", { exact: true }).first().waitFor();
    assert.equal(await page.getByLabel("API token").count(), 0, "no token is asked for");
  });

  test("the seller sends the trade offer from the sales page, without an API token", async () => {
    const [item] = (
      await server.sandbox.grantItems(seller.account.platformid, { market_hash_name: CROWN, count: 1 })
    ).assets;
    await seller.market.listItems([{ assetid: item!.assetid, price: "1.50" }]);
    const bought = await buyer.market.purchase({
      items: [{ market_hash_name: CROWN, max_price: "1.50", quantity: 1 }],
    });
    const tradeId = Object.values(bought.result)[0]?.bill_order_ids[0];
    assert.ok(tradeId, JSON.stringify(bought));
    const sellerPage = await (await browser.newContext({ locale: "en-GB" })).newPage();
    await sellerPage.goto(`${server.url}/signin`);
    await sellerPage.getByLabel("Nickname").fill(seller.nickname);
    await sellerPage.getByLabel("Password").fill(seller.password);
    await sellerPage.getByRole("button", { name: "Sign in", exact: true }).click();
    await sellerPage.getByRole("button", { name: "Sign out" }).waitFor();
    await sellerPage.goto(`${server.url}/me/sales`);
    const row = sellerPage.getByRole("row").filter({ hasText: tradeId });
    await row.getByRole("button", { name: "Send offer" }).click();
    await row.getByText("Offer sent", { exact: true }).waitFor();
    assert.equal(await sellerPage.getByLabel("API token").count(), 0, "no token is asked for");
    const [sale] = (await seller.market.sellOrderHistory({})).items.filter((entry) => entry.id === tradeId);
    assert.equal(sale?.state, "TRADING");
    await sellerPage.context().close();
  });

  test("switches to Chinese and back, and the choice survives a reload", async () => {
    await page.getByRole("button", { name: "中文" }).click();
    await page.getByRole("link", { name: "市场" }).waitFor();
    await page.reload();
    await page.getByRole("link", { name: "市场" }).waitFor();
    assert.equal(await page.locator("html").getAttribute("lang"), "zh-Hans");
    await page.getByRole("button", { name: "English" }).click();
    await page.getByRole("link", { name: "Market", exact: true }).waitFor();
  });
});
