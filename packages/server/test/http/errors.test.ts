import assert from "node:assert/strict";
import { once } from "node:events";
import { connect, type AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { createTestApp, type TestApp } from "../support/test-app.ts";

describe("the error model", () => {
  let t: TestApp;
  let token: string;
  before(async () => {
    t = await createTestApp();
    token = (await t.createUser()).token;
  });
  after(() => t.close());

  test("an unknown official path is Path Not Found in the official form", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/market/developer/nothing?x=1" });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), {
      code: "Path Not Found",
      msg: "no operation at GET /api/market/developer/nothing",
    });
  });

  test("an unknown internal path is Path Not Found in the internal form", async () => {
    const response = await t.app.inject({ method: "GET", url: "/account/api/nothing" });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), {
      code: "Path Not Found",
      error: "no operation at GET /account/api/nothing",
      extra: {},
    });
  });

  test("a body over 1 MiB is Payload Too Large", async () => {
    const response = await t.app.inject({
      method: "PUT",
      url: "/api/market/developer/buy_order/status",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      payload: JSON.stringify({ buy_order_status: "online", padding: "x".repeat(1024 * 1024) }),
    });
    assert.equal(response.statusCode, 413);
    assert.equal(response.json().code, "Payload Too Large");
  });

  test("__proto__ and constructor.prototype in a body are refused", async () => {
    for (const payload of ['{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}']) {
      const response = await t.app.inject({
        method: "PUT",
        url: "/api/market/developer/buy_order/status",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        payload,
      });
      assert.equal(response.statusCode, 400, payload);
      assert.equal(response.json().code, "Invalid Argument");
      assert.match(response.json().msg, /__proto__/);
    }
  });

  test("a body that is not JSON is Unsupported Media Type", async () => {
    const response = await t.app.inject({
      method: "PUT",
      url: "/api/market/developer/buy_order/status",
      headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
      payload: "buy_order_status=online",
    });
    assert.equal(response.statusCode, 415);
    assert.equal(response.json().code, "Unsupported Media Type");
  });

  test("every answer carries a request id; a sane incoming one is kept", async () => {
    const generated = await t.app.inject({ method: "GET", url: "/healthz" });
    assert.match(String(generated.headers["x-request-id"]), /^[0-9a-f-]{36}$/);
    const kept = await t.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "trace-42" },
    });
    assert.equal(kept.headers["x-request-id"], "trace-42");
    const replaced = await t.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "bad id\nforged" },
    });
    assert.notEqual(replaced.headers["x-request-id"], "bad id\nforged");
  });
});

describe("an unexpected failure", () => {
  test("is Internal Error with the request id and no internals", async () => {
    const t = await createTestApp();
    const { token } = await t.createUser();
    await t.database.close();
    try {
      const response = await t.app.inject({
        method: "GET",
        url: "/api/market/developer/balance",
        headers: { authorization: `Bearer ${token}`, "x-request-id": "req-500" },
      });
      assert.equal(response.statusCode, 500);
      const body = response.json();
      assert.equal(body.code, "Internal Error");
      assert.match(body.msg, /req-500/);
      assert.doesNotMatch(response.body, /at |\.ts|pglite|kysely|closed/i);
    } finally {
      await t.app.close();
    }
  });
});

/** Sends raw bytes on a keep-alive connection; answers what came back and how the socket ended. */
async function exchange(port: number, request: string): Promise<{ text: string; ended: "end" | string }> {
  const socket = connect({ port, host: "127.0.0.1" });
  await once(socket, "connect");
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<string>((resolve) => {
    socket.on("end", () => resolve("end"));
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
  socket.write(request);
  const how = await ended;
  socket.destroy();
  return { text: Buffer.concat(chunks).toString("utf8"), ended: how };
}

function parseAnswer(text: string) {
  const [head = "", body = ""] = text.split("\r\n\r\n");
  const [statusLine = "", ...lines] = head.split("\r\n");
  const headers = Object.fromEntries(
    lines.map((line) => [
      line.slice(0, line.indexOf(":")).toLowerCase(),
      line.slice(line.indexOf(":") + 1).trim(),
    ]),
  );
  return { status: Number(statusLine.split(" ")[1]), headers, body: JSON.parse(body) as unknown };
}

describe("requests refused before routing, over a real connection", () => {
  let t: TestApp;
  let port: number;
  before(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  test("a URL over 16 KiB is 431 in the error model, with Connection: close, and the socket ends cleanly", async () => {
    const official = await exchange(
      port,
      `GET /api/market/items?game=cs2&x=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`,
    );
    assert.equal(official.ended, "end");
    const answer = parseAnswer(official.text);
    assert.equal(answer.status, 431);
    assert.equal(answer.headers.connection, "close");
    assert.match(answer.headers["content-type"] ?? "", /^application\/json/);
    assert.deepEqual(answer.body, {
      code: "Request Header Fields Too Large",
      msg: "request: the request line and headers together exceed 16 KiB",
    });

    const internal = await exchange(
      port,
      `GET /api/market/goods/info?game=csgo&x=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    assert.equal(internal.ended, "end");
    assert.deepEqual(parseAnswer(internal.text).body, {
      code: "Request Header Fields Too Large",
      error: "request: the request line and headers together exceed 16 KiB",
      extra: {},
    });

    // Still sending when refused: the rest is read and dropped, so the client sees the answer
    // and a clean end, not a reset.
    const huge = await exchange(
      port,
      `GET /api/market/items?x=${"a".repeat(1024 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    assert.equal(huge.ended, "end");
    assert.equal(parseAnswer(huge.text).status, 431);
  });

  test("a refusal made before routing comes in the envelope of the operation the request line names", async () => {
    const refused = async (requestLine: string) => {
      const answer = await exchange(
        port,
        `${requestLine} HTTP/1.1\r\nHost: x\r\nCookie: session=${"a".repeat(20_000)}\r\n\r\n`,
      );
      const parsed = parseAnswer(answer.text);
      assert.equal(parsed.status, 431, requestLine);
      return parsed.body;
    };
    const website = {
      code: "Request Header Fields Too Large",
      error: "request: the request line and headers together exceed 16 KiB",
      extra: {},
    };
    const official = {
      code: "Request Header Fields Too Large",
      msg: "request: the request line and headers together exceed 16 KiB",
    };
    // Website operations outside the paths the fallback takes as the website's.
    assert.deepEqual(await refused("POST /api/market/buy_order/create"), website);
    assert.deepEqual(await refused("GET /api/market/sell_order/on_sale?game=csgo"), website);
    assert.deepEqual(await refused("GET /api/market/buy_order/wait_supply/"), website, "a trailing slash");
    assert.deepEqual(await refused("PATCH /api/market/buy_order/create"), website, "the path's operation");
    assert.deepEqual(await refused("GET /api/market/developer/balance"), official);
    // No operation there: the fallback by path.
    assert.deepEqual(await refused("GET /account/api/nothing"), website);
    assert.deepEqual(await refused("GET /api/market/nothing"), official);
  });

  test("bytes that are no HTTP request are Invalid Argument in the error model, with Connection: close", async () => {
    const garbage = await exchange(port, "NOT HTTP AT ALL\r\n\r\n");
    assert.equal(garbage.ended, "end");
    const answer = parseAnswer(garbage.text);
    assert.equal(answer.status, 400);
    assert.equal(answer.headers.connection, "close");
    assert.deepEqual(answer.body, { code: "Invalid Argument", msg: "request: not a valid HTTP request" });
  });
});
