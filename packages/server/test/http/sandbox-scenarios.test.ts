import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createReadyTrader, goodsIdOf, grantOne, type PlatformFixture } from "../support/platform-world.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

/** A simulation of two goods, a maker and a noise trader, taking a step every 100 s. */
const startSmallSimulation = (t: TestApp, seed: number) =>
  t.admin("POST", "/sandbox/simulation/start", {
    seed,
    goods: 2,
    makers: 1,
    noise: 1,
    snipers: 0,
    rate: 0.01,
  });

/** Scenarios over the sandbox API, the platform's fault switch and the reversal of a delivered trade. */
describe("sandbox scenarios API", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ catalog: true });
  });
  after(() => t.close());

  test("happy: the built-in scenarios are listed with their effects and duration", async () => {
    const response = await t.admin("GET", "/sandbox/simulation/scenarios");
    assert.equal(response.statusCode, 200, response.body);
    const items = response.json().items as Array<{
      name: string;
      effects: string[];
      duration_seconds: number;
    }>;
    assert.deepEqual(
      items.map((item) => item.name),
      [
        "buy-order-wall",
        "case-release",
        "cookie-storm",
        "knife-crash",
        "non-delivery",
        "platform-outage",
        "rollbacks",
        "sticker-spike",
      ],
    );
    const outage = items.find((item) => item.name === "platform-outage")!;
    assert.deepEqual(outage.effects, ["platform_outage"]);
    assert.equal(outage.duration_seconds, 5 * 60 + 3600);
  });

  test("error: a scenario before any simulation was started is refused", async () => {
    const response = await t.admin("POST", "/sandbox/simulation/scenario", { name: "knife-crash" });
    assert.equal(response.statusCode, 409, response.body);
    assert.match(response.json().msg, /no simulation was started/);
  });

  for (const [body, message] of [
    [{}, /^name: give name or scenario/],
    [
      { name: "no-such-scenario" },
      /^name: no scenario no-such-scenario: it is not among the built-in scenarios \(buy-order-wall, .*\) and this server reads no scenarios folder$/,
    ],
    [{ name: "Knife Crash" }, /^name: must be/],
    [
      { name: "knife-crash", scenario: { name: "x", effects: [{ type: "platform_outage" }] } },
      /^name: give name or scenario, not both/,
    ],
    [{ scenario: { name: "x", effects: [] } }, /^scenario\.effects: must NOT have fewer than 1 items/],
    [
      { scenario: { name: "x", effects: [{ type: "rollback", share: 2 }] } },
      /^scenario\.effects\.0\.share: must be <= 1/,
    ],
    [
      { scenario: { name: "x", effects: [{ type: "price_shift", category: "knife" }] } },
      /^scenario\.effects\.0\.change: required/,
    ],
    [
      { scenario: { name: "x", effects: [{ type: "rollback", at: "soon" }] } },
      /^scenario\.effects\.0\.at: must be/,
    ],
    [
      { scenario: { name: "x", effects: [{ type: "cookie_storm", colour: 1 }] } },
      /^scenario\.effects\.0\.colour: unknown field/,
    ],
    [{ scenario: { name: "x", effects: [{ type: "earthquake" }] } }, /^scenario\.effects\.0/],
  ] as const) {
    test(`error: ${JSON.stringify(body)} is refused naming the field`, async () => {
      const response = await t.admin("POST", "/sandbox/simulation/scenario", body);
      assert.equal(response.statusCode, 400, response.body);
      assert.match(response.json().msg, message);
    });
  }

  test("happy: a built-in scenario runs in a started simulation, shows its progress and ends on request", async () => {
    const started = await startSmallSimulation(t, 4);
    assert.equal(started.statusCode, 200, started.body);
    assert.equal(started.json().scenario, null);
    const run = await t.admin("POST", "/sandbox/simulation/scenario", { name: "platform-outage" });
    assert.equal(run.statusCode, 200, run.body);
    const scenario = run.json().scenario;
    assert.equal(scenario.name, "platform-outage");
    assert.equal(scenario.finished, false);
    assert.equal(scenario.duration_seconds, 3900);
    assert.deepEqual(
      scenario.effects.map((effect: { type: string; state: string; at_seconds: number }) => [
        effect.type,
        effect.state,
        effect.at_seconds,
      ]),
      [["platform_outage", "pending", 300]],
    );

    const again = await t.admin("POST", "/sandbox/simulation/scenario", { name: "knife-crash" });
    assert.equal(again.statusCode, 409, again.body);
    assert.match(again.json().msg, /platform-outage has not finished; end it first/);

    const ended = await t.admin("DELETE", "/sandbox/simulation/scenario");
    assert.equal(ended.statusCode, 200, ended.body);
    assert.equal(ended.json().scenario.finished, true);
    assert.equal(ended.json().scenario.effects[0].state, "done");
    const none = await t.admin("DELETE", "/sandbox/simulation/scenario");
    assert.equal(none.statusCode, 409, none.body);

    // A scenario given whole, as a scenario file holds it.
    const custom = await t.admin("POST", "/sandbox/simulation/scenario", {
      scenario: {
        name: "my-spike",
        description: "Stickers up 50 %",
        effects: [{ type: "price_shift", at: "10m", for: 1800, category: "sticker", change: 0.5 }],
      },
    });
    assert.equal(custom.statusCode, 200, custom.body);
    assert.equal(custom.json().scenario.name, "my-spike");
    assert.equal(custom.json().scenario.duration_seconds, 2400);
    const status = await t.admin("GET", "/sandbox/simulation");
    assert.equal(status.json().scenario.name, "my-spike");
    assert.ok(Array.isArray(status.json().recent));
    await t.admin("DELETE", "/sandbox/simulation/scenario");
    await t.admin("POST", "/sandbox/simulation/stop");
  });

  test("security: the scenario routes need the sandbox admin token", async () => {
    const user = await t.createUser();
    for (const [method, url] of [
      ["GET", "/sandbox/simulation/scenarios"],
      ["POST", "/sandbox/simulation/scenario"],
      ["DELETE", "/sandbox/simulation/scenario"],
      ["GET", "/sandbox/platform/fault"],
      ["PUT", "/sandbox/platform/fault"],
      ["POST", "/sandbox/trades/200000001/rollback"],
    ] as const) {
      const anonymous = await t.app.inject({
        method,
        url,
        payload: method === "GET" ? undefined : { name: "x" },
      });
      assert.equal(anonymous.statusCode, 401, `${method} ${url}: ${anonymous.body}`);
      const asUser = await t.as(user.token, method, url, method === "GET" ? undefined : { down: true });
      assert.equal(asUser.statusCode, 401, `${method} ${url}: ${asUser.body}`);
    }
  });
});

/** The user's scenarios folder: files that run by name beside the built-in ones. */
describe("the user's scenarios folder", () => {
  let t: TestApp;
  let folder: string;
  const write = (file: string, text: string) => writeFile(join(folder, file), text);
  const list = async () => {
    const response = await t.admin("GET", "/sandbox/simulation/scenarios");
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as {
      scenarios_folder: string | null;
      items: Array<{
        name: string;
        source: string;
        file: string;
        overrides_builtin: boolean;
        valid: boolean;
        problem: string | null;
        duration_seconds: number;
        effects: string[];
        definition: unknown;
      }>;
    };
  };
  const run = (name: string) => t.admin("POST", "/sandbox/simulation/scenario", { name });

  before(async () => {
    folder = join(await mkdtemp(join(tmpdir(), "skinmarket-scenarios-")), "scenarios");
    await mkdir(folder);
    await write(
      "my-spike.yaml",
      "# stickers up by half\nname: my-spike\ndescription: Stickers rise.\neffects:\n  - type: price_shift\n    for: 2h\n    category: sticker\n    change: 0.5\n",
    );
    await write(
      "night-outage.json",
      JSON.stringify({ name: "night-outage", effects: [{ type: "platform_outage", at: "6h", for: "1h" }] }),
    );
    // Replaces the built-in of its name: a shorter outage, at once.
    await write(
      "platform-outage.yml",
      "name: platform-outage\neffects:\n  - type: platform_outage\n    for: 10m\n",
    );
    await write("broken.yaml", "name: broken\neffects:\n  - type: rollback\n    share: 3\n");
    await write("misnamed.yaml", "name: another-name\neffects:\n  - type: platform_outage\n");
    await write("not-yaml.yaml", "name: [unclosed\n");
    await write("notes.txt", "not a scenario file: ignored");
    t = await createTestApp({ catalog: true, scenariosFolder: folder });
  });
  after(async () => {
    await t.close();
    await rm(join(folder, ".."), { recursive: true, force: true });
  });

  test("happy: the list holds the built-in scenarios and the folder's files, each name once with its source", async () => {
    const answer = await list();
    assert.equal(answer.scenarios_folder, folder);
    const byName = new Map(answer.items.map((item) => [item.name, item]));
    assert.deepEqual(
      answer.items.map((item) => item.name),
      [...byName.keys()].sort(),
      "sorted by name, each once",
    );
    assert.equal(byName.get("knife-crash")?.source, "builtin");
    assert.equal(byName.get("knife-crash")?.file, "knife-crash.yaml");
    const spike = byName.get("my-spike")!;
    assert.deepEqual(
      [spike.source, spike.file, spike.valid, spike.problem, spike.duration_seconds, spike.effects],
      ["user", "my-spike.yaml", true, null, 7200, ["price_shift"]],
    );
    assert.equal(byName.get("night-outage")?.duration_seconds, 7 * 3600);
    const outage = byName.get("platform-outage")!;
    assert.deepEqual(
      [outage.source, outage.file, outage.overrides_builtin, outage.duration_seconds],
      ["user", "platform-outage.yml", true, 600],
    );
    assert.equal(byName.get("rollbacks")?.overrides_builtin, false);
    assert.ok(!byName.has("notes"), "a file that is not YAML or JSON by its name is not a scenario");
  });

  test("happy: a file that is not a valid scenario is listed as invalid, naming the field", async () => {
    const byName = new Map((await list()).items.map((item) => [item.name, item]));
    for (const [name, problem] of [
      ["broken", /^effects\.0\.share: must be <= 1$/],
      ["misnamed", /^name: must be misnamed, the file's name$/],
      ["not-yaml", /^not YAML or JSON/],
    ] as const) {
      const item = byName.get(name);
      assert.ok(item, `${name} is listed`);
      assert.equal(item.valid, false, name);
      assert.equal(item.source, "user");
      assert.equal(item.definition, null);
      assert.match(item.problem ?? "", problem);
    }
  });

  test("happy: a file runs by name, the folder's file winning over the built-in of its name", async () => {
    const started = await startSmallSimulation(t, 9);
    assert.equal(started.statusCode, 200, started.body);
    const spike = await run("my-spike");
    assert.equal(spike.statusCode, 200, spike.body);
    assert.equal(spike.json().scenario.name, "my-spike");
    assert.equal(spike.json().scenario.duration_seconds, 7200);
    assert.equal((await t.admin("DELETE", "/sandbox/simulation/scenario")).statusCode, 200);

    const outage = await run("platform-outage");
    assert.equal(outage.statusCode, 200, outage.body);
    assert.equal(outage.json().scenario.duration_seconds, 600, "the folder's, not the built-in's 3900");
    assert.equal((await t.admin("DELETE", "/sandbox/simulation/scenario")).statusCode, 200);

    // Read at each ask: a file written while the server runs is there at once.
    await write("late.yaml", "name: late\neffects:\n  - type: cookie_storm\n    for: 1h\n    share: 0.5\n");
    const late = await run("late");
    assert.equal(late.statusCode, 200, late.body);
    assert.equal(late.json().scenario.name, "late");
    await t.admin("DELETE", "/sandbox/simulation/scenario");
    await t.admin("POST", "/sandbox/simulation/stop");
  });

  for (const [name, message] of [
    ["broken", /^name: the scenario file broken\.yaml is invalid: effects\.0\.share: must be <= 1$/],
    ["misnamed", /^name: the scenario file misnamed\.yaml is invalid: name: must be misnamed/],
    ["not-yaml", /^name: the scenario file not-yaml\.yaml is invalid: not YAML or JSON/],
    [
      "nowhere",
      /^name: no scenario nowhere: it is not among the built-in scenarios \(.*knife-crash.*\) nor among yours \(.*my-spike.*\)$/,
    ],
  ] as const) {
    test(`error: running ${name} by name is refused naming the file and the field`, async () => {
      const response = await run(name);
      assert.equal(response.statusCode, 400, response.body);
      assert.equal(response.json().code, "Invalid Argument");
      assert.match(response.json().msg, message);
    });
  }

  test("error: an unknown name's refusal names no folder of the server's", async () => {
    const response = await run("nowhere-at-all");
    assert.equal(response.statusCode, 400, response.body);
    const message: string = response.json().msg;
    assert.ok(!message.includes(folder), message);
    assert.ok(!message.includes(tmpdir()), message);
    assert.doesNotMatch(message, /\//, "no path at all");
  });

  test("error: a file nested 10,000 levels deep is listed as refused, with its reason, and does not run", async () => {
    const depth = 10_000;
    await write("deep-flow.yaml", `name: deep-flow\neffects: ${"[".repeat(depth)}${"]".repeat(depth)}\n`);
    await write("deep-json.json", `{"name":"deep-json","effects":${"[".repeat(depth)}${"]".repeat(depth)}}`);
    await write("deep-block.yaml", `name: deep-block\neffects:\n${"- ".repeat(depth)}x\n`);
    const byName = new Map((await list()).items.map((item) => [item.name, item]));
    for (const name of ["deep-flow", "deep-json", "deep-block"]) {
      const item = byName.get(name);
      assert.ok(item, `${name} is listed`);
      assert.equal(item.valid, false, name);
      assert.equal(item.problem, "nested deeper than 32 levels; a scenario needs only a few", name);
      const response = await run(name);
      assert.equal(response.statusCode, 400, response.body);
      assert.match(
        response.json().msg,
        new RegExp(`^name: the scenario file ${name}\\.\\w+ is invalid: nested deeper`),
      );
    }
    assert.equal(byName.get("my-spike")?.valid, true, "the other files are read as before");
  });

  test("happy: a file rewritten is read again at the next ask", async () => {
    await write("rewritten.yaml", "name: rewritten\neffects:\n  - type: platform_outage\n    for: 10m\n");
    const first = (await list()).items.find((item) => item.name === "rewritten");
    assert.equal(first?.duration_seconds, 600);
    await write("rewritten.yaml", "name: rewritten\neffects:\n  - type: platform_outage\n    for: 2h\n");
    const second = (await list()).items.find((item) => item.name === "rewritten");
    assert.equal(second?.duration_seconds, 7200);
  });

  test("error: two files of one name are both invalid until one goes", async () => {
    await write("twin.yaml", "name: twin\neffects:\n  - type: platform_outage\n");
    await write("twin.json", JSON.stringify({ name: "twin", effects: [{ type: "platform_outage" }] }));
    const twins = (await list()).items.filter((item) => item.name === "twin");
    assert.deepEqual(
      twins.map((item) => [item.file, item.valid, item.problem]),
      [
        ["twin.json", false, "twin.json and twin.yaml both name the scenario twin; keep one"],
        ["twin.yaml", false, "twin.json and twin.yaml both name the scenario twin; keep one"],
      ],
    );
    const response = await run("twin");
    assert.equal(response.statusCode, 400, response.body);
    assert.match(
      response.json().msg,
      /^name: the scenario file twin\.json is invalid: twin\.json and twin\.yaml/,
    );
  });
});

describe("the sandbox platform's fault switch", () => {
  let t: TestApp;
  let trader: PlatformFixture;
  before(async () => {
    t = await createTestApp({ catalog: true });
    trader = await createReadyTrader(t, "fault-watcher");
  });
  after(() => t.close());

  const inventory = () =>
    t.as(
      trader.token,
      "GET",
      `/api/market/developer/platform/inventory?game=cs2&platformid=${trader.platformid}&force=1`,
    );

  test("happy: down, inventory reads fail with a clear error; up, they work again", async () => {
    assert.deepEqual((await t.admin("GET", "/sandbox/platform/fault")).json(), {
      down: false,
      since: null,
      until: null,
    });
    const down = await t.admin("PUT", "/sandbox/platform/fault", { down: true });
    assert.equal(down.statusCode, 200, down.body);
    assert.equal(down.json().down, true);
    assert.equal(down.json().until, null);
    const failed = await inventory();
    assert.equal(failed.statusCode, 409, failed.body);
    assert.match(failed.json().msg, /game platform is unavailable/);
    const up = await t.admin("PUT", "/sandbox/platform/fault", { down: false });
    assert.equal(up.json().down, false);
    assert.equal((await inventory()).statusCode, 200);
  });

  test("happy: an outage of some seconds ends by itself on the sandbox clock", async () => {
    const down = await t.admin("PUT", "/sandbox/platform/fault", { down: true, seconds: 600 });
    assert.equal(down.json().until - down.json().since, 600);
    assert.equal((await inventory()).statusCode, 409);
    await t.admin("POST", "/sandbox/clock/advance", { seconds: 601 });
    assert.equal((await t.admin("GET", "/sandbox/platform/fault")).json().down, false);
    assert.equal((await inventory()).statusCode, 200);
  });

  for (const [body, field] of [
    [{}, "down"],
    [{ down: "yes" }, "down"],
    [{ down: true, seconds: 0 }, "seconds"],
    [{ down: true, minutes: 3 }, "minutes"],
  ] as const) {
    test(`error: ${JSON.stringify(body)} is refused naming ${field}`, async () => {
      const response = await t.admin("PUT", "/sandbox/platform/fault", body);
      assert.equal(response.statusCode, 400, response.body);
      assert.match(response.json().msg, new RegExp(`^${field}: `));
    });
  }
});

describe("the reversal of a delivered trade (POST /sandbox/trades/{trade_id}/rollback)", () => {
  let t: TestApp;
  let seller: PlatformFixture;
  let buyer: PlatformFixture;
  let goodsId = 0;
  const api = "/api/market/developer";

  const balances = async (userId: string) =>
    (await t.admin("GET", `/sandbox/users/${userId}/balances`)).json();

  /** A listing at `price` bought by the buyer and, with `deliver`, delivered and settled. */
  async function trade(price: number, deliver: boolean): Promise<{ tradeId: string; assetid: string }> {
    const assetid = await grantOne(t, seller.platformid, { goods_id: goodsId });
    const listed = await t.as(seller.token, "POST", `${api}/sell_order/items`, {
      game: "cs2",
      assets: [{ assetid, price }],
    });
    assert.equal(listed.statusCode, 200, listed.body);
    await t.fund(buyer.userId, "balance", price);
    const bought = await t.as(buyer.token, "POST", `${api}/purchase/orders`, {
      game: "cs2",
      items: [{ goods_id: goodsId, max_price: price, quantity: 1 }],
    });
    assert.equal(bought.statusCode, 200, bought.body);
    const tradeId = bought.json().result[String(goodsId)].bill_order_ids[0] as string;
    if (deliver) {
      const sent = await t.as(seller.token, "POST", `${api}/sell_order/send_offer`, { order_id: tradeId });
      assert.equal(sent.statusCode, 200, sent.body);
      const offers = (await t.admin("GET", `/sandbox/platform/offers?platformid=${buyer.platformid}`)).json()
        .items;
      const offer = offers.find((item: { state: string }) => item.state === "active");
      await t.admin("POST", `/sandbox/platform/offers/${offer.tradeofferid}/accept`);
      await t.admin("POST", "/sandbox/jobs/run");
    }
    await t.assertLedger();
    return { tradeId, assetid };
  }

  before(async () => {
    // Steam's seven days of trade protection: the platform reverses a trade only inside them.
    t = await createTestApp({ catalog: true, tradeProtectionHours: 168 });
    seller = await createReadyTrader(t, "rollback-seller");
    buyer = await createReadyTrader(t, "rollback-buyer");
    goodsId = await goodsIdOf(t, "Sticker | Crown (Foil)");
  });
  after(() => t.close());

  test("happy: the item goes back to the seller and the money back to the buyer, in one entry", async () => {
    const { tradeId } = await trade(20, true);
    const sellerBefore = await balances(seller.userId);
    const buyerBefore = await balances(buyer.userId);
    const reversed = await t.admin("POST", `/sandbox/trades/${tradeId}/rollback`);
    assert.equal(reversed.statusCode, 200, reversed.body);
    const answer = reversed.json();
    assert.equal(answer.state, "FAIL");
    assert.equal(answer.rollback_by, "platform_rollback");
    assert.equal(answer.refunded, "20.00");
    await t.assertLedger();
    const sellerAfter = await balances(seller.userId);
    const buyerAfter = await balances(buyer.userId);
    // The income was still frozen in the seller's escrow (docs/design/trade-protection.md#who-is-credited-when).
    const held = (balances: { balance: string; escrow: string }) =>
      Math.round((Number(balances.balance) + Number(balances.escrow)) * 100);
    assert.equal(held(sellerBefore) - held(sellerAfter), Math.round(Number(answer.taken_from_seller) * 100));
    assert.equal(sellerAfter.balance, sellerBefore.balance);
    assert.equal(Math.round((Number(buyerAfter.balance) - Number(buyerBefore.balance)) * 100), 2000);
    // The item is in the seller's account again, under the new assetid.
    const items = await t.as(
      seller.token,
      "GET",
      `${api}/platform/inventory?game=cs2&platformid=${seller.platformid}&force=1`,
    );
    assert.ok(
      items.json().items.some((item: { assetid: string }) => item.assetid === answer.returned_assetid),
      items.body,
    );
    const record = await t.as(buyer.token, "POST", `${api}/purchase/orders/list`, { game: "cs2" });
    assert.equal(record.json().items.find((item: { id: string }) => item.id === tradeId).state, "FAIL");
    const history = await t.as(seller.token, "POST", `${api}/sell_order/history`, { game: "cs2" });
    const sale = history.json().items.find((item: { id: string }) => item.id === tradeId);
    assert.equal(sale.state, "FAIL");
    assert.equal(sale.rollback_by, "platform_rollback");

    const twice = await t.admin("POST", `/sandbox/trades/${tradeId}/rollback`);
    assert.equal(twice.statusCode, 409, twice.body);
    assert.match(twice.json().msg, /only a delivered trade can be rolled back; this one is FAIL/);
  });

  test("error: a trade not delivered yet, and an unknown trade, are refused", async () => {
    const { tradeId } = await trade(5, false);
    const waiting = await t.admin("POST", `/sandbox/trades/${tradeId}/rollback`);
    assert.equal(waiting.statusCode, 409, waiting.body);
    assert.match(waiting.json().msg, /SELLER_TO_SEND_OFFER/);
    const unknown = await t.admin("POST", "/sandbox/trades/999999999/rollback");
    assert.equal(unknown.statusCode, 404, unknown.body);
    const bad = await t.admin("POST", "/sandbox/trades/abc/rollback");
    assert.equal(bad.statusCode, 400, bad.body);
    assert.match(bad.json().msg, /^trade_id: /);
  });

  test("happy: a seller who emptied their balance still gives back the frozen income", async () => {
    const { tradeId } = await trade(30, true);
    await t.fund(seller.userId, "balance", 5);
    const held = await balances(seller.userId);
    const withdrawn = await t.admin("POST", `/sandbox/users/${seller.userId}/withdrawals`, {
      account: "balance",
      amount: held.balance,
    });
    assert.equal(withdrawn.statusCode, 200, withdrawn.body);
    const reversed = await t.admin("POST", `/sandbox/trades/${tradeId}/rollback`);
    assert.equal(reversed.statusCode, 200, reversed.body);
    assert.equal(reversed.json().taken_from_seller, "29.25");
    await t.assertLedger();
    const after = await balances(seller.userId);
    assert.equal(after.balance, "0.00");
    assert.equal(Math.round((Number(held.escrow) - Number(after.escrow)) * 100), 2925);
    const record = await t.as(buyer.token, "POST", `${api}/purchase/orders/list`, { game: "cs2" });
    assert.equal(record.json().items.find((item: { id: string }) => item.id === tradeId).state, "FAIL");
  });
});
