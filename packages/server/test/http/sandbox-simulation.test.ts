import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestApp, type TestApp } from "../support/test-app.ts";

describe("sandbox simulation API", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ catalog: true });
  });
  after(() => t.close());

  test("happy: status before any start says nothing runs", async () => {
    const response = await t.admin("GET", "/sandbox/simulation");
    assert.equal(response.statusCode, 200, response.body);
    const status = response.json();
    assert.equal(status.running, false);
    assert.equal(status.steps, 0);
    assert.equal(status.settings, null);
    assert.deepEqual(status.agents, []);
  });

  test("error: a stop before any start is refused", async () => {
    const response = await t.admin("POST", "/sandbox/simulation/stop");
    assert.equal(response.statusCode, 409, response.body);
    assert.match(response.json().msg, /no simulation/);
  });

  for (const [body, field] of [
    [{ rate: 0 }, "rate"],
    [{ seed: -3 }, "seed"],
    [{ goods: [] }, "goods"],
    [{ makers: 0, noise: 0, snipers: 0 }, "makers"],
    [{ clock_speed: 0 }, "clock_speed"],
    [{ never_deliver: 1.5 }, "never_deliver"],
    [{ speed: 3 }, "speed"],
  ] as const) {
    test(`error: ${JSON.stringify(body)} is refused naming ${field}`, async () => {
      const response = await t.admin("POST", "/sandbox/simulation/start", body);
      assert.equal(response.statusCode, 400, response.body);
      assert.match(response.json().msg, new RegExp(field));
    });
  }

  test("error: goods that are not in the catalog are refused naming goods", async () => {
    const response = await t.admin("POST", "/sandbox/simulation/start", { goods: [2_000_000_000] });
    assert.equal(response.statusCode, 400, response.body);
    assert.match(response.json().msg, /^goods: /);
  });

  test("happy: start creates the agents and runs; stop stops; the same seed resumes", async () => {
    const settings = { seed: 9, goods: 2, makers: 1, noise: 1, snipers: 1, rate: 0.01, clock_speed: 30 };
    const started = await t.admin("POST", "/sandbox/simulation/start", settings);
    assert.equal(started.statusCode, 200, started.body);
    const status = started.json();
    assert.equal(status.running, true);
    assert.equal(status.stepping, true);
    assert.equal(status.settings.seed, 9);
    assert.equal(status.settings.clock_speed, 30);
    assert.equal(status.settings.never_deliver, 0.05);
    assert.equal(status.goods.length, 2);
    assert.match(status.goods[0].fair_value, /^\d+\.\d{2}$/);
    assert.deepEqual(
      status.agents.map((agent: { name: string }) => agent.name),
      ["maker-0", "noise-0", "sniper-0"],
    );
    // The agents are sandbox users with money and a bound platform account.
    const agent = await t.admin("GET", `/sandbox/users/${status.agents[0].user_id}`);
    assert.equal(agent.statusCode, 200);
    assert.equal(agent.json().platform_accounts.length, 1);

    const again = await t.admin("POST", "/sandbox/simulation/start", settings);
    assert.equal(again.statusCode, 409, again.body);
    assert.match(again.json().msg, /already running/);

    const stopped = await t.admin("POST", "/sandbox/simulation/stop");
    assert.equal(stopped.statusCode, 200, stopped.body);
    assert.equal(stopped.json().running, false);
    assert.equal(stopped.json().stepping, false);

    const resumed = await t.admin("POST", "/sandbox/simulation/start", { ...settings, rate: 0.02 });
    assert.equal(resumed.statusCode, 200, resumed.body);
    assert.equal(resumed.json().running, true);
    assert.equal(resumed.json().settings.rate, 0.02);
    assert.deepEqual(resumed.json().agents, status.agents);
    assert.equal((await t.admin("POST", "/sandbox/simulation/stop")).statusCode, 200);
  });

  for (const [method, url] of [
    ["GET", "/sandbox/simulation"],
    ["POST", "/sandbox/simulation/start"],
    ["POST", "/sandbox/simulation/stop"],
  ] as const) {
    test(`security: ${method} ${url} needs the admin token`, async () => {
      const payload = method === "POST" ? {} : undefined;
      const anonymous = await t.app.inject({ method, url, ...(payload ? { payload } : {}) });
      assert.equal(anonymous.statusCode, 401, anonymous.body);
      const wrong = await t.as("not-the-admin-token", method, url, payload);
      assert.equal(wrong.statusCode, 401, wrong.body);
      const user = await t.createUser();
      const asUser = await t.as(user.token, method, url, payload);
      assert.ok([401, 403].includes(asUser.statusCode), asUser.body);
    });
  }
});
