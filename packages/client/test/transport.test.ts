import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { sandboxFundAccount, getBalance } from "@skinmarket/contract";
import { callOperation } from "../src/transport.ts";
import { MarketApiError, MarketTransportError } from "../src/errors.ts";

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function fakeFetch(status: number, body: string, headers: Record<string, string> = {}) {
  const seen: Seen[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    seen.push({
      url: String(input),
      method: init?.method ?? "GET",
      headers: init?.headers as Record<string, string>,
      body: init?.body as string | undefined,
    });
    return new Response(body, { status, headers: { "content-type": "application/json", ...headers } });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

describe("callOperation", () => {
  test("fills path parameters, sends JSON with the bearer token, and answers the body", async () => {
    const { fetch, seen } = fakeFetch(
      200,
      '{"balance":"1.00","margin":"0.00","wallet":"0.00","escrow":"0.00"}',
    );
    const answer = await callOperation(
      { baseUrl: "http://market.test", token: "tok", fetch },
      sandboxFundAccount,
      {
        params: { user_id: "1001" },
        body: { account: "balance", amount: "1" },
      },
    );
    assert.equal(answer.body.balance, "1.00");
    assert.equal(seen[0]?.url, "http://market.test/sandbox/users/1001/funds");
    assert.equal(seen[0]?.method, "POST");
    assert.equal(seen[0]?.headers.authorization, "Bearer tok");
    assert.equal(seen[0]?.headers["content-type"], "application/json");
    assert.deepEqual(JSON.parse(seen[0]?.body ?? ""), { account: "balance", amount: "1" });
  });

  test("a GET sends no body and no content type", async () => {
    const { fetch, seen } = fakeFetch(200, "{}");
    await callOperation({ baseUrl: "http://market.test", fetch }, getBalance);
    assert.equal(seen[0]?.body, undefined);
    assert.equal(seen[0]?.headers["content-type"], undefined);
  });

  test("official and internal failure bodies become MarketApiError with code, msg, status and request id", async () => {
    const official = fakeFetch(409, '{"code":"Insufficient Balance","msg":"not enough"}', {
      "x-request-id": "r1",
    });
    await assert.rejects(
      callOperation({ baseUrl: "http://m.test", fetch: official.fetch }, getBalance),
      (error: unknown) => {
        assert.ok(error instanceof MarketApiError);
        assert.deepEqual(
          [error.code, error.msg, error.status, error.requestId],
          ["Insufficient Balance", "not enough", 409, "r1"],
        );
        return true;
      },
    );
    const internal = fakeFetch(401, '{"code":"Login Required","error":"sign in first","extra":{}}');
    await assert.rejects(
      callOperation({ baseUrl: "http://m.test", fetch: internal.fetch }, getBalance),
      (error: unknown) =>
        error instanceof MarketApiError && error.code === "Login Required" && error.msg === "sign in first",
    );
  });

  test("an answer that is not JSON, or no answer at all, is a MarketTransportError", async () => {
    const html = fakeFetch(502, "<html>bad gateway</html>");
    await assert.rejects(
      callOperation({ baseUrl: "http://m.test", fetch: html.fetch, maxRetries: 0 }, getBalance),
      MarketTransportError,
    );
    const down = (async () => {
      throw new TypeError("fetch failed");
    }) as typeof fetch;
    await assert.rejects(
      callOperation({ baseUrl: "http://m.test", fetch: down, maxRetries: 0 }, getBalance),
      MarketTransportError,
    );
  });

  test("a missing path parameter is refused before any request", async () => {
    const { fetch, seen } = fakeFetch(200, "{}");
    await assert.rejects(
      callOperation({ baseUrl: "http://m.test", fetch }, sandboxFundAccount, {
        body: { account: "balance", amount: 1 },
      }),
      /path parameter user_id is required/,
    );
    assert.equal(seen.length, 0);
  });
});
