import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { dereference } from "@readme/openapi-parser";
import { ERROR_HTTP_STATUS, OPERATIONS, type Envelope, type ErrorCode } from "@skinmarket/contract";
import { Ajv } from "ajv";
import fc from "fast-check";
import {
  documentedOperations,
  fuzzRequest,
  type DocumentedOperation,
  type FuzzRequest,
} from "../support/fuzz-requests.ts";
import type { WorldValues } from "../support/fuzz-values.ts";
import { createReadyTrader, goodsIdOf, grant } from "../support/platform-world.ts";
import { ADMIN_TOKEN, createTestApp, type TestApp } from "../support/test-app.ts";

/**
 * Every operation of the OpenAPI document, fed requests generated from its own schemas with hostile
 * changes (wrong types, numbers beyond every edge, control characters, huge strings and arrays, deep
 * nesting, invalid JSON, wrong content types), with credentials that reach validation and the
 * handler: the website's writes with a signed-in session and its CSRF token, so that their bodies
 * are judged, not refused at the door. Every answer must be in its operation's envelope.
 * `FUZZ_RUNS` sets the requests per operation (20 by default), `FUZZ_SEED` the seed.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = Number(process.env.FUZZ_SEED ?? 1616);

const STICKER = "Sticker | Crown (Foil)";
const REDLINE = "AK-47 | Redline (Field-Tested)";

/**
 * Run last: the first closes the signed-in member's account (its nickname is among the world's
 * values), the second moves the clock by years (sessions end), the third empties the world.
 */
const LAST = ["closeAccount", "sandboxAdvanceClock", "sandboxReset"];

interface Finding {
  operationId: string;
  request: FuzzRequest;
  status: number;
  body: string;
  problem: string;
}

describe("requests generated from the OpenAPI document", () => {
  let t: TestApp;
  let operations: DocumentedOperation[];
  let world: WorldValues;
  let credentials: Record<string, Record<string, string>>;

  before(async () => {
    t = await createTestApp({ catalog: true });
    // Named records are `$ref`s into `components.schemas`: the generators read them inline.
    const document = (await dereference(
      (await t.app.inject({ method: "GET", url: "/docs/json" })).json(),
    )) as unknown as Parameters<typeof documentedOperations>[0];
    operations = documentedOperations(document).sort(
      (a, b) => LAST.indexOf(a.operationId) - LAST.indexOf(b.operationId),
    );
    ({ world, credentials } = await buildWorld(t));
  });
  after(() => t.close());

  test("no operation answers 5xx; every failure has its envelope's documented shape and its code's status; the ledger holds", async (context) => {
    const documented = new Set(operations.map((operation) => operation.operationId));
    for (const operation of OPERATIONS) assert.ok(documented.has(operation.id), `${operation.id} is fuzzed`);

    const ajv = new Ajv({ strict: false });
    const findings: Finding[] = [];
    const envelopes = new Map<string, Envelope>(
      OPERATIONS.map((operation) => [operation.id, operation.envelope]),
    );
    let requests = 0;
    for (const operation of operations) {
      const envelope = envelopes.get(operation.operationId) ?? "official";
      const checkError = (status: number) => {
        const schema =
          operation.errorSchemas[String(status)] ?? operation.errorSchemas[`${String(status)[0]}XX`];
        return schema ? ajv.compile(schema) : undefined;
      };
      const headers = credentialsFor(operation, credentials);
      // A website write must reach its body's checks and its handler, not only the CSRF refusal.
      const websiteWrite = "cookie" in headers && operation.method !== "GET";
      let reached = 0;
      // The property records what it finds instead of failing at the first finding, so that a run
      // reports every finding and their count; each is reproduced by the seed and its request.
      await fc.assert(
        fc.asyncProperty(fuzzRequest(operation, world, headers), async (request) => {
          requests += 1;
          const finding = (status: number, body: string, problem: string) =>
            findings.push({ operationId: operation.operationId, request, status, body, problem });
          let response;
          try {
            response = await t.app.inject({
              method: request.method as "GET",
              url: request.url,
              headers: request.headers,
              ...(request.payload === undefined ? {} : { payload: request.payload }),
            });
          } catch (error) {
            finding(0, String(error), "the request threw");
            return;
          }
          const { statusCode: status, body } = response;
          if (status !== 401 && status !== 403) reached += 1;
          if (status >= 500) return void finding(status, body, "5xx");
          if (status < 400) {
            if (envelope === "internal" && !inEnvelope(envelope, status, body))
              finding(status, body, "answer not in the website's envelope");
            return;
          }
          let parsed: { code?: string };
          try {
            parsed = JSON.parse(body);
          } catch {
            return void finding(status, body, "error body is not JSON");
          }
          if (!inEnvelope(envelope, status, body))
            return void finding(status, body, `failure not in the ${envelope} envelope`);
          const validate = checkError(status);
          if (!validate) return void finding(status, body, `status ${status} is not documented`);
          if (!validate(parsed)) return void finding(status, body, "error body not in the documented shape");
          if (ERROR_HTTP_STATUS[parsed.code as ErrorCode] !== status)
            finding(status, body, `code ${parsed.code} does not map to ${status}`);
        }),
        { numRuns: RUNS, seed: SEED },
      );
      if (websiteWrite && reached === 0)
        findings.push({
          operationId: operation.operationId,
          request: { method: operation.method, url: operation.path, headers, change: "every request" },
          status: 403,
          body: "",
          problem: "every request was refused before its body was judged",
        });
    }
    const fiveHundreds = findings.filter((finding) => finding.status >= 500).length;
    context.diagnostic(
      `fuzzed ${requests} requests over ${operations.length} operations (seed ${SEED}): ${fiveHundreds} 5xx, ${findings.length} findings`,
    );
    const byOperation = Map.groupBy(findings, (finding) => `${finding.operationId} ${finding.problem}`);
    for (const [key, group] of byOperation) context.diagnostic(`${key}: ${group.length}`);
    const report = findings
      .slice(0, 30)
      .map(
        (finding) =>
          `${finding.operationId} ${finding.request.method} ${finding.request.url.slice(0, 160)} [${finding.request.change}] -> ${finding.status} ${finding.problem}: ${finding.body.slice(0, 200)}`,
      );
    assert.deepEqual(report, [], `${findings.length} findings`);
    await t.assertLedger();
  });
});

/**
 * Whether an answer is in its operation's envelope (docs/design/wire-conventions.md#bounds-of-every-input): a website answer
 * is `{code: "OK", data, msg: null}` or a failure `{code, error, extra}`; an official or sandbox
 * failure `{code, msg}` (their successes are each operation's own shape, held by its schema).
 */
function inEnvelope(envelope: Envelope, status: number, body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return false;
  const answer = parsed as Record<string, unknown>;
  const keys = Object.keys(answer).sort().join(",");
  if (status < 400) return keys === "code,data,msg" && answer.code === "OK" && answer.msg === null;
  if (typeof answer.code !== "string") return false;
  return envelope === "internal"
    ? keys === "code,error,extra" && typeof answer.error === "string"
    : keys === "code,msg" && typeof answer.msg === "string";
}

function credentialsFor(
  operation: DocumentedOperation,
  credentials: Record<string, Record<string, string>>,
): Record<string, string> {
  const scheme = Object.keys(operation.security[0] ?? {})[0];
  return scheme ? (credentials[scheme] ?? {}) : {};
}

/**
 * A small market built through the API: a seller (enterprise access, so that every bearer route
 * admits it) with listings, a buyer with a purchase and a buy order, and a bystander whose user,
 * token and platform account the sandbox's operations may change without hurting the others.
 */
async function buildWorld(t: TestApp): Promise<{
  world: WorldValues;
  credentials: Record<string, Record<string, string>>;
}> {
  const seller = await createReadyTrader(t, "fuzz-seller");
  const buyer = await createReadyTrader(t, "fuzz-buyer");
  const expect200 = (response: { statusCode: number; body: string }) => {
    assert.equal(response.statusCode, 200, response.body);
    return JSON.parse(response.body);
  };
  expect200(await t.admin("PUT", `/sandbox/users/${seller.userId}/settings`, { access_level: "enterprise" }));
  await t.fund(buyer.userId, "balance", "1000.00");
  await t.fund(buyer.userId, "margin", "1000.00");
  const sticker = await goodsIdOf(t, STICKER);
  const redline = await goodsIdOf(t, REDLINE);
  const stickers = await grant(t, seller.platformid, { market_hash_name: STICKER, count: 8 });
  const redlines = await grant(t, seller.platformid, { market_hash_name: REDLINE, count: 4 });
  const listed = expect200(
    await t.as(seller.token, "POST", "/api/market/developer/sell_order/items", {
      game: "cs2",
      assets: [...stickers.slice(0, 6), ...redlines.slice(0, 2)].map((assetid, index) => ({
        assetid,
        price: `${index + 1}.00`,
      })),
    }),
  ) as { sell_orders: Record<string, { sell_order_id: string }> };
  const listingIds = Object.values(listed.sell_orders).map((order) => order.sell_order_id);
  const bought = expect200(
    await t.as(buyer.token, "POST", "/api/market/developer/purchase/orders", {
      game: "cs2",
      items: [{ goods_id: sticker, max_price: "2.00", quantity: 2 }],
    }),
  ) as { result: Record<string, { bill_order_ids: string[] }> };
  const tradeIds = Object.values(bought.result).flatMap((entry) => entry.bill_order_ids);
  expect200(
    await t.as(seller.token, "POST", "/api/market/developer/sell_order/send_offer", {
      order_id: tradeIds[0],
    }),
  );
  const buyOrder = expect200(
    await t.as(buyer.token, "POST", "/api/market/developer/buy_order", {
      game: "cs2",
      goods_id: redline,
      price: "0.50",
      num: 3,
    }),
  ) as { id: string };
  const offers = expect200(await t.admin("GET", "/sandbox/platform/offers")) as {
    items: Array<{ tradeofferid: string }>;
  };
  const bystander = await createReadyTrader(t, "fuzz-bystander");
  const token = expect200(await t.admin("POST", `/sandbox/users/${bystander.userId}/tokens`)) as {
    token_id: string;
  };
  const password = "fuzz-member-password";
  const member = await t.createUser({ nickname: "fuzz-member", password });
  // With its CSRF token, so that the website's writes reach validation and their handlers.
  const session = await t.signIn(member.nickname, password);
  assert.ok(session.csrfToken, "the session's CSRF token");

  const world: WorldValues = {
    game: ["cs2"],
    goods_id: [sticker, redline],
    goods_ids: [[sticker, redline]],
    market_hash_name: [STICKER, REDLINE],
    market_hash_names: [[STICKER, REDLINE]],
    platformid: [seller.platformid],
    "path:platformid": [bystander.platformid],
    "path:user_id": [bystander.userId],
    "path:token_id": [token.token_id],
    "path:tradeofferid": offers.items.map((offer) => offer.tradeofferid),
    user_id: [bystander.userId],
    assetid: [...stickers.slice(6), ...redlines.slice(2)],
    assetids: [[stickers[7]]],
    assets: [[redlines[3]]],
    sell_order_id: listingIds,
    order_id: tradeIds,
    order_ids: [tradeIds],
    buy_order_id: [buyOrder.id],
    buy_order_ids: [[buyOrder.id]],
    id: [...listingIds, String(sticker)],
    trade_url: [seller.tradeUrl, buyer.tradeUrl],
    platform_cookies: [seller.cookies],
    nickname: [member.nickname],
    password: [password],
    price: ["1.00", 3, "0.50"],
    max_price: ["2.00", 5],
    seconds: [1, 60, 3600],
  };
  const credentials = {
    bearerToken: { authorization: `Bearer ${seller.token}` },
    sandboxAdminToken: { authorization: `Bearer ${ADMIN_TOKEN}` },
    sessionCookie: { cookie: session.cookie, "x-csrftoken": session.csrfToken },
  };
  return { world, credentials: credentials as Record<string, Record<string, string>> };
}
