import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { SandboxClient } from "@skinmarket/client";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../support/test-app.ts";

interface Endpoint {
  id: string;
  enabled: boolean;
}
interface Delivery {
  id: string;
  event_type: string;
  state: string;
}

/**
 * The operator manages a user's webhook endpoints through the sandbox admin token, as the user
 * would (docs/design/website-console.md#the-consoles-events-and-webhooks): changed, turned off,
 * deleted, their deliveries read and sent again, and no API token of the user's is made for it.
 */
describe("sandbox: the operator's hand on a user's webhook endpoints", () => {
  let t: TestApp;
  let receiver: Server;
  let receiverUrl = "";
  let received = 0;

  const tokensOf = async (userId: string) => {
    const response = await t.admin("GET", `/sandbox/users/${userId}`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<{ tokens: unknown[] }>().tokens.length;
  };
  /** A user with an endpoint for balance events and one delivery of a deposit. */
  const userWithDelivery = async () => {
    const user = await t.createUser();
    const created = await t.admin("POST", `/sandbox/users/${user.userId}/webhooks`, {
      url: receiverUrl,
      types: ["balance.changed"],
    });
    assert.equal(created.statusCode, 200, created.body);
    const endpoint = created.json<Endpoint>();
    await t.fund(user.userId, "balance", "5.00");
    const jobs = await t.admin("POST", "/sandbox/jobs/run");
    assert.equal(jobs.statusCode, 200, jobs.body);
    return { user, endpoint, base: `/sandbox/users/${user.userId}/webhooks/${endpoint.id}` };
  };

  before(async () => {
    t = await createTestApp({ webhookAllowPrivateUrls: true });
    receiver = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        received += 1;
        response.end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  after(async () => {
    await t.close();
    await new Promise((resolve) => receiver.close(resolve));
  });

  test("happy: the deliveries read, one sent again, the endpoint turned off and deleted, no user token made", async () => {
    const { user, endpoint, base } = await userWithDelivery();
    const tokens = await tokensOf(user.userId);
    const listed = await t.admin("GET", `${base}/deliveries?page_size=100`);
    assert.equal(listed.statusCode, 200, listed.body);
    const [delivery] = listed.json<{ items: Delivery[] }>().items;
    assert.equal(delivery?.event_type, "balance.changed");
    const before = received;
    const again = await t.admin("POST", `${base}/deliveries/${delivery.id}/redeliver`);
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json<{ attempt: { delivered: boolean } }>().attempt.delivered, true);
    assert.equal(received, before + 1, "the receiver got the event again");
    const off = await t.admin("PUT", base, { enabled: false });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(off.json<Endpoint>().enabled, false);
    const deleted = await t.admin("DELETE", base);
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.deepEqual(deleted.json(), { id: endpoint.id, deleted: true });
    const left = await t.admin("GET", `/sandbox/users/${user.userId}/webhooks`);
    assert.deepEqual(left.json<{ items: unknown[] }>().items, []);
    assert.equal(await tokensOf(user.userId), tokens, "the operator needed no token of the user's");
  });

  test("happy: the client SDK's sandbox methods do the same", async () => {
    const { user, endpoint } = await userWithDelivery();
    const baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
    const sandbox = new SandboxClient({ baseUrl, token: ADMIN_TOKEN });
    const page = await sandbox.listWebhookDeliveries(user.userId, endpoint.id);
    assert.equal(page.items[0]?.event_type, "balance.changed");
    const again = await sandbox.redeliverWebhook(user.userId, endpoint.id, page.items[0]!.id);
    assert.equal(again.attempt.delivered, true);
    assert.equal(
      (await sandbox.updateWebhookEndpoint(user.userId, endpoint.id, { enabled: false })).enabled,
      false,
    );
    assert.deepEqual(await sandbox.deleteWebhookEndpoint(user.userId, endpoint.id), {
      id: endpoint.id,
      deleted: true,
    });
  });

  test("error: a bad body or query is refused naming the field; an unknown endpoint or delivery is Not Found", async () => {
    const { user, base } = await userWithDelivery();
    const bad = await t.admin("PUT", base, { enabled: "yes" });
    assert.equal(bad.statusCode, 400, bad.body);
    assert.match(bad.body, /enabled/);
    const badQuery = await t.admin("GET", `${base}/deliveries?state=lost`);
    assert.equal(badQuery.statusCode, 400, badQuery.body);
    assert.match(badQuery.body, /state/);
    const unknown = `/sandbox/users/${user.userId}/webhooks/999999`;
    for (const [method, url] of [
      ["PUT", unknown],
      ["DELETE", unknown],
      ["GET", `${unknown}/deliveries`],
      ["POST", `${base}/deliveries/999999/redeliver`],
    ] as const) {
      const response = await t.admin(method, url, method === "PUT" ? { enabled: true } : undefined);
      assert.equal(response.statusCode, 404, `${method} ${url}: ${response.body}`);
    }
  });

  test("security: another user's endpoint is Not Found; no admin token is 401, a user's token is refused", async () => {
    const { user, endpoint, base } = await userWithDelivery();
    const other = await t.createUser();
    const theirs = `/sandbox/users/${other.userId}/webhooks/${endpoint.id}`;
    for (const [method, url] of [
      ["PUT", theirs],
      ["DELETE", theirs],
      ["GET", `${theirs}/deliveries`],
    ] as const) {
      const response = await t.admin(method, url, method === "PUT" ? { enabled: false } : undefined);
      assert.equal(response.statusCode, 404, `${method} ${url}: ${response.body}`);
    }
    const anonymous = await t.app.inject({ method: "GET", url: `${base}/deliveries` });
    assert.equal(anonymous.statusCode, 401);
    const asUser = await t.as(user.token, "DELETE", base);
    assert.ok([401, 403].includes(asUser.statusCode), `${asUser.statusCode}: ${asUser.body}`);
    const still = await t.admin("GET", `/sandbox/users/${user.userId}/webhooks`);
    assert.equal(still.json<{ items: unknown[] }>().items.length, 1, "the endpoint stays");
  });
});
