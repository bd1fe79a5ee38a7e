import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const PATH = "/api/market/developer/buy_order/status";

describe("GET and PUT /api/market/developer/buy_order/status", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test("happy: a new user is online without automatic offline", async () => {
    const user = await t.createUser();
    const response = await t.as(user.token, "GET", PATH);
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { buy_order_auto_offline: false, buy_order_status: "online" });
  });

  test("happy: a change is stored and answered; omitted fields keep their value", async () => {
    const user = await t.createUser();
    let response = await t.as(user.token, "PUT", PATH, {
      buy_order_status: "offline",
      buy_order_auto_offline: true,
    });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { buy_order_auto_offline: true, buy_order_status: "offline" });
    response = await t.as(user.token, "GET", PATH);
    assert.deepEqual(
      response.json(),
      { buy_order_auto_offline: true, buy_order_status: "offline" },
      "stored",
    );
    response = await t.as(user.token, "PUT", PATH, { buy_order_status: "online" });
    assert.deepEqual(response.json(), { buy_order_auto_offline: true, buy_order_status: "online" });
    response = await t.as(user.token, "GET", PATH);
    assert.deepEqual(response.json(), { buy_order_auto_offline: true, buy_order_status: "online" });
  });

  test("happy: the website's signed-in session reads and changes it, writes with the CSRF token", async () => {
    const user = await t.createUser();
    const session = await t.signIn(user.nickname, user.password);
    const changed = await t.web(session, "PUT", PATH, { buy_order_status: "offline" });
    assert.equal(changed.statusCode, 200, changed.body);
    const read = await t.web(session, "GET", PATH);
    assert.deepEqual(read.json(), { buy_order_auto_offline: false, buy_order_status: "offline" });
  });

  test("security: a session's write without the CSRF token, or from another site's page, changes nothing", async () => {
    const user = await t.createUser();
    const session = await t.signIn(user.nickname, user.password);
    const forged = await t.app.inject({
      method: "PUT",
      url: PATH,
      headers: { cookie: session.cookie },
      payload: { buy_order_status: "offline" },
    });
    assert.equal(forged.statusCode, 403, forged.body);
    assert.match(forged.json().msg, /x-csrftoken: missing/);
    const foreign = await t.app.inject({
      method: "PUT",
      url: PATH,
      headers: { cookie: session.cookie, "x-csrftoken": session.csrfToken, origin: "https://evil.example" },
      payload: { buy_order_status: "offline" },
    });
    assert.equal(foreign.statusCode, 403, foreign.body);
    const settings = await t.as(user.token, "GET", PATH);
    assert.equal(settings.json().buy_order_status, "online");
  });

  test("error: bad values are Invalid Argument naming the field, and change nothing", async () => {
    const user = await t.createUser();
    const cases: Array<[unknown, RegExp]> = [
      [{ buy_order_status: "away" }, /^buy_order_status: must be one of online, offline$/],
      [{ buy_order_status: 1 }, /^buy_order_status:/],
      [{ buy_order_auto_offline: "yes" }, /^buy_order_auto_offline: must be boolean$/],
      [{ buy_order_status: "offline", colour: "red" }, /^colour: unknown field$/],
      [[], /^body: must be object$|must be object/],
    ];
    for (const [body, message] of cases) {
      const response = await t.as(user.token, "PUT", PATH, body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.equal(response.json().code, "Invalid Argument");
      assert.match(response.json().msg, message);
    }
    const settings = await t.as(user.token, "GET", PATH);
    assert.deepEqual(settings.json(), { buy_order_auto_offline: false, buy_order_status: "online" });
  });

  test("error: a body that is not JSON is Invalid Argument", async () => {
    const user = await t.createUser();
    const response = await t.app.inject({
      method: "PUT",
      url: PATH,
      headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
      payload: "{not json",
    });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json(), { code: "Invalid Argument", msg: "body: not valid JSON" });
  });

  test("security: one user's change does not touch another's settings", async () => {
    const first = await t.createUser();
    const second = await t.createUser();
    await t.as(first.token, "PUT", PATH, { buy_order_status: "offline" });
    const response = await t.as(second.token, "GET", PATH);
    assert.equal(response.json().buy_order_status, "online");
  });

  test("security: the change is audited with the acting user", async () => {
    const user = await t.createUser();
    await t.as(user.token, "PUT", PATH, { buy_order_auto_offline: true });
    const events = await t.database.db
      .selectFrom("audit_events")
      .selectAll()
      .where("action", "=", "user.settings")
      .where("subject", "=", `user:${user.userId}`)
      .execute();
    assert.equal(events.length, 1);
    assert.equal(events[0]?.actor, `user:${user.userId}`);
  });
});
