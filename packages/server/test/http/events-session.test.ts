import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestApp, type TestApp } from "../support/test-app.ts";

const EVENTS = "/api/market/developer/events";

/**
 * `GET developer/events` with the website's session (`sessionToo`): the website reads the price
 * alerts a user received from the server (docs/design/website.md#price-alerts), so they outlive
 * the session they arrived in.
 */
describe("the events log read with the website's session", () => {
  let t: TestApp;

  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const signedIn = async (nickname: string) => {
    const user = await t.createUser({ nickname, password: `${nickname}-password` });
    return { user, session: await t.signIn(nickname, `${nickname}-password`) };
  };

  test("happy: a session reads its user's events, as the user's token does", async () => {
    const { user, session } = await signedIn("evsession");
    await t.fund(user.userId, "balance", "3.00");
    const bySession = await t.web(session, "GET", `${EVENTS}?after=0&types=balance.changed`);
    assert.equal(bySession.statusCode, 200, bySession.body);
    const byToken = await t.as(user.token, "GET", `${EVENTS}?after=0&types=balance.changed`);
    assert.deepEqual(bySession.json(), byToken.json());
    assert.equal(bySession.json<{ items: unknown[] }>().items.length, 1);
  });

  test("error: a bad query is refused naming the field", async () => {
    const { session } = await signedIn("evbadquery");
    const response = await t.web(session, "GET", `${EVENTS}?after=x`);
    assert.equal(response.statusCode, 400, response.body);
    assert.match(response.body, /after/);
  });

  test("security: a session sees only its own user's events; no session is 401", async () => {
    const { user } = await signedIn("evowner");
    const { session: other } = await signedIn("evother");
    await t.fund(user.userId, "balance", "4.00");
    const theirs = await t.web(other, "GET", `${EVENTS}?after=0&types=balance.changed`);
    assert.equal(theirs.statusCode, 200, theirs.body);
    assert.deepEqual(theirs.json<{ items: unknown[] }>().items, []);
    const anonymous = await t.app.inject({ method: "GET", url: `${EVENTS}?after=0` });
    assert.equal(anonymous.statusCode, 401);
  });
});
