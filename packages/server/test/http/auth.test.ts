import assert from "node:assert/strict";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { after, before, describe, test } from "node:test";
import { OPERATIONS, type OperationDefinition } from "@skinmarket/contract";
import Fastify, { type FastifyInstance, type InjectOptions, type RouteOptions } from "fastify";
import { registerAuth } from "../../src/http/plugins/auth.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

/** Shared security cases, run for every route of the contract. */
function samplePath(operation: OperationDefinition): string {
  return operation.path.replace(/:([a-z_]+)/g, "1001");
}

describe("access levels, for every route", () => {
  let t: TestApp;
  let developer: { token: string; tokenId: string };
  let enterprise: { token: string };
  let noAccess: { token: string };
  let revoked: { token: string };

  before(async () => {
    t = await createTestApp();
    developer = await t.createUser({ nickname: "dev" });
    enterprise = await t.createUser({ nickname: "corp", access_level: "enterprise" });
    noAccess = await t.createUser({ nickname: "nobody", access_level: "none" });
    revoked = await t.createUser({ nickname: "gone" });
    const revokedUser = await t.createUser({ nickname: "gone2" });
    await t.admin("DELETE", `/sandbox/tokens/${revokedUser.tokenId}`);
    revoked = { token: revokedUser.token };
  });
  after(() => t.close());

  const tokenRoutes: OperationDefinition[] = OPERATIONS.filter(
    (op: OperationDefinition) => op.access === "developer" || op.access === "enterprise",
  );

  for (const operation of tokenRoutes) {
    const label = `${operation.method} ${operation.path}`;
    test(`${label}: a missing, malformed, unknown or revoked token is Unauthorized 401`, async () => {
      const cases: Array<[string, Record<string, string>]> = [
        ["missing", {}],
        ["not bearer", { authorization: "Basic abc" }],
        ["malformed", { authorization: "Bearer not-a-token" }],
        ["unknown", { authorization: `Bearer smk_${"A".repeat(43)}` }],
        ["revoked", { authorization: `Bearer ${revoked.token}` }],
      ];
      for (const [name, headers] of cases) {
        const response = await t.app.inject({
          method: operation.method,
          url: samplePath(operation),
          headers,
        });
        assert.equal(response.statusCode, 401, `${name}: ${response.body}`);
        const body = response.json<{ code: string; msg: string }>();
        assert.equal(body.code, "Unauthorized", name);
        assert.equal(typeof body.msg, "string");
        assert.ok(!response.body.includes("smk_AAAA"), "the token is never echoed");
      }
    });

    test(`${label}: a user without the access level is Access Denied 403`, async () => {
      const response = await t.as(
        noAccess.token,
        operation.method,
        samplePath(operation),
        operation.body ? {} : undefined,
      );
      assert.equal(response.statusCode, 403, response.body);
      assert.equal(response.json().code, "Access Denied");
      if (operation.access === "enterprise") {
        const asDeveloper = await t.as(developer.token, operation.method, samplePath(operation));
        assert.equal(asDeveloper.statusCode, 403);
      }
    });
  }

  for (const operation of tokenRoutes) {
    const admitted = operation.access === "developer" ? ["developer", "enterprise"] : ["enterprise"];
    test(`${operation.method} ${operation.path}: ${admitted.join(" and ")} tokens are admitted`, async () => {
      const tokens = { developer: developer.token, enterprise: enterprise.token };
      for (const level of admitted as Array<keyof typeof tokens>) {
        // The sample request may be refused as bad input or an unknown id, never for its token.
        const response = await t.as(
          tokens[level],
          operation.method,
          samplePath(operation),
          operation.body ? {} : undefined,
        );
        assert.ok(
          ![401, 403].includes(response.statusCode),
          `${level}: ${response.statusCode} ${response.body}`,
        );
      }
    });
  }

  for (const operation of OPERATIONS.filter((op: OperationDefinition) => op.access === "sandbox_admin")) {
    test(`${operation.method} ${operation.path}: needs the sandbox admin token`, async () => {
      for (const headers of [
        {},
        { authorization: "Bearer wrong-admin-token-000000" },
        { authorization: `Bearer ${developer.token}` },
      ]) {
        const response = await t.app.inject({
          method: operation.method,
          url: samplePath(operation),
          headers,
        });
        assert.equal(response.statusCode, 401, response.body);
        assert.equal(response.json().code, "Unauthorized");
      }
    });
  }

  for (const operation of OPERATIONS.filter((op: OperationDefinition) => op.access === "session")) {
    test(`${operation.method} ${operation.path}: without a signed-in session answers the Login Required form`, async () => {
      for (const headers of [
        {},
        { cookie: "session=forged" },
        { authorization: `Bearer ${developer.token}` },
      ]) {
        const response = await t.app.inject({
          method: operation.method,
          url: samplePath(operation),
          headers,
        });
        assert.equal(response.statusCode, 401);
        const body = response.json();
        assert.equal(body.code, "Login Required");
        assert.equal(typeof body.error, "string");
        assert.deepEqual(body.extra, {});
      }
    });
  }

  test("refusals of presented credentials are written to the audit log", async () => {
    const before = await t.database.db
      .selectFrom("audit_events")
      .select("event_id")
      .where("action", "=", "auth.refused")
      .execute();
    await t.app.inject({
      method: "GET",
      url: "/api/market/developer/balance",
      headers: { authorization: "Bearer junk" },
    });
    const afterRows = await t.database.db
      .selectFrom("audit_events")
      .selectAll()
      .where("action", "=", "auth.refused")
      .execute();
    assert.equal(afterRows.length, before.length + 1);
    assert.ok(!JSON.stringify(afterRows).includes("junk"), "the presented secret is not stored");
  });
});

describe("tokens found valid are remembered, and forgotten on every change", () => {
  test("a token used a moment ago is refused right after its revocation", async () => {
    const t = await createTestApp();
    try {
      const user = await t.createUser();
      const balance = () => t.as(user.token, "GET", "/api/market/developer/balance");
      assert.equal((await balance()).statusCode, 200);
      assert.equal((await balance()).statusCode, 200);
      assert.equal((await t.admin("DELETE", `/sandbox/tokens/${user.tokenId}`)).statusCode, 200);
      const refused = await balance();
      assert.equal(refused.statusCode, 401);
      assert.match(refused.json().msg, /revoked/);
    } finally {
      await t.close();
    }
  });

  test("a new access level applies to the very next request", async () => {
    const t = await createTestApp();
    try {
      const user = await t.createUser();
      const items = () => t.as(user.token, "GET", "/api/market/enterprise/items?game=cs2&goods_id=1");
      assert.equal((await items()).statusCode, 403);
      const raised = await t.admin("PUT", `/sandbox/users/${user.userId}/settings`, {
        access_level: "enterprise",
      });
      assert.equal(raised.statusCode, 200, raised.body);
      assert.notEqual((await items()).statusCode, 403);
      await t.admin("PUT", `/sandbox/users/${user.userId}/settings`, { access_level: "none" });
      assert.equal((await t.as(user.token, "GET", "/api/market/developer/balance")).statusCode, 403);
    } finally {
      await t.close();
    }
  });

  test("a remembered token admits the header's other spellings of the scheme and nothing near it", async () => {
    const t = await createTestApp();
    try {
      const user = await t.createUser();
      const balance = (authorization: string) =>
        t.app.inject({ url: "/api/market/developer/balance", headers: { authorization } });
      assert.equal((await balance(`Bearer ${user.token}`)).statusCode, 200);
      assert.equal((await balance(`bearer ${user.token}`)).statusCode, 200);
      assert.equal((await balance(`BEARER ${user.token}`)).statusCode, 200);
      for (const near of [
        `Bearer  ${user.token}`,
        `Bearer ${user.token}x`,
        `Bearer ${user.token.slice(0, -1)}`,
        `Bearer ${user.token} ${user.token}`,
        `Bearer\t${user.token}`,
        `Basic ${user.token}`,
      ]) {
        const refused = await balance(near);
        assert.equal(refused.statusCode, 401, `${JSON.stringify(near)}: ${refused.body}`);
      }
    } finally {
      await t.close();
    }
  });

  test("a reset of the world forgets every token", async () => {
    const t = await createTestApp();
    try {
      const user = await t.createUser();
      assert.equal((await t.as(user.token, "GET", "/api/market/developer/balance")).statusCode, 200);
      assert.equal((await t.admin("POST", "/sandbox/reset")).statusCode, 200);
      assert.equal((await t.as(user.token, "GET", "/api/market/developer/balance")).statusCode, 401);
    } finally {
      await t.close();
    }
  });
});

describe("access declarations", () => {
  test("every contract operation declares exactly one access level", () => {
    const levels = new Set(["public", "session", "developer", "enterprise", "sandbox_admin", "staff"]);
    for (const operation of OPERATIONS) assert.ok(levels.has(operation.access), operation.id);
  });

  test("an app with a route that declares no access level refuses to start", async () => {
    const app = Fastify();
    registerAuth(app, { baseContext: {} as never, sandboxAdminToken: undefined, secureCookies: false });
    app.get("/declared", { config: { access: "public" } }, async () => "ok");
    app.get("/undeclared", async () => "oops");
    await assert.rejects(async () => app.ready(), /routes without an access level: GET \/undeclared/);
  });
});

/** The routes a built app registers, all of them (plugins' too), as Fastify announces them. */
async function appWithItsRoutes(): Promise<{ t: TestApp; routes: RouteOptions[] }> {
  const routes: RouteOptions[] = [];
  const collect = (message: unknown) => {
    (message as { fastify: FastifyInstance }).fastify.addHook("onRoute", (route) => {
      routes.push(route);
    });
  };
  subscribe("fastify.initialization", collect);
  try {
    return { t: await createTestApp(), routes };
  } finally {
    unsubscribe("fastify.initialization", collect);
  }
}

/** Each method of each route, with a path to request it by. */
function requestsOf(routes: RouteOptions[]) {
  return routes.flatMap((route) =>
    [route.method].flat().map((method) => ({
      method: method as InjectOptions["method"] & string,
      url: route.url,
      path: route.url.replace(/:([a-z_]+)/g, "1001").replace("*", "index.html"),
      access: (route.config as { access?: string } | undefined)?.access,
      sessionToo: (route.config as { sessionToo?: boolean } | undefined)?.sessionToo === true,
    })),
  );
}

/** What answers anonymous callers, by design (docs/design/website-goods-routes.md#the-websites-market-data-routes and docs/design/security.md#webhook-receivers-and-secrets). */
const PUBLIC_ROUTES = [
  "GET /healthz",
  "GET /readyz",
  "GET /metrics",
  "GET /openapi.json",
  "GET /docs",
  "GET /docs/static/*",
  "GET /docs/json",
  "GET /docs/yaml",
  "GET /docs/static/index.html",
  "GET /docs/static/swagger-initializer.js",
  // The catalog and its suggestions, open to visitors (docs/design/website-goods-routes.md#the-name-search).
  "GET /api/market/goods",
  "GET /api/market/search/suggest",
  "GET /api/market/goods/info",
  "GET /api/market/goods/sell_order",
  "GET /api/market/goods/buy_order",
  "GET /api/market/goods/buy_order_depth",
  "GET /api/market/goods/paintwear_rank",
  "GET /api/market/goods/price_history",
  "GET /api/market/goods/bill_order",
  "GET /api/index/popular_sell_order",
  "GET /api/market/goods/price_history/buff",
  "GET /api/market/goods/price_history/buff/v2",
  "GET /api/market/custom_inspect/get_skins",
  "POST /account/api/login",
  "POST /account/api/logout",
  "GET /account/api/steam/login",
  "POST /account/api/steam/login",
  // Making an account and confirming its address (docs/design/back-office.md#accounts-for-people).
  "POST /account/api/signup",
  "POST /account/api/email/confirm",
  // Staff sign-in and sign-out (docs/design/back-office.md#staff-sign-in).
  "POST /ops/api/login",
  "POST /ops/api/logout",
  // The website's pages and assets (http/plugins/website.ts).
  "GET /",
  "GET /goods/*",
  "GET /signin",
  "GET /signup",
  "GET /confirm-email",
  "GET /ops",
  "GET /ops/*",
  "GET /news",
  "GET /me",
  "GET /me/*",
  "GET /console",
  "GET /console/*",
  "GET /assets/*",
];

describe("every route of the built app", () => {
  let t: TestApp;
  let requests: ReturnType<typeof requestsOf>;
  before(async () => {
    const built = await appWithItsRoutes();
    t = built.t;
    requests = requestsOf(built.routes);
  });
  after(() => t.close());

  test("every route declares an access level; the public ones are exactly the designed list", () => {
    assert.ok(requests.length > 100, `${requests.length} routes`);
    const levels = ["public", "session", "developer", "enterprise", "sandbox_admin", "staff"];
    for (const request of requests)
      assert.ok(levels.includes(request.access ?? ""), `${request.method} ${request.url}: ${request.access}`);
    const publicRoutes = new Set(
      requests
        .filter((request) => request.access === "public" && request.method !== "HEAD")
        .map((request) => `${request.method} ${request.url}`),
    );
    assert.deepEqual([...publicRoutes].sort(), [...PUBLIC_ROUTES].sort());
  });

  test("every route that is not public refuses an anonymous request with 401", async (context) => {
    for (const request of requests.filter((entry) => entry.access !== "public")) {
      await context.test(`${request.method} ${request.url}`, async () => {
        const response = await t.app.inject({
          method: request.method,
          url: request.path,
          ...(request.method === "GET" || request.method === "HEAD" ? {} : { payload: {} }),
        });
        assert.equal(response.statusCode, 401, response.body);
        if (request.method !== "HEAD")
          assert.equal(
            response.json().code,
            request.access === "session" || request.access === "staff" ? "Login Required" : "Unauthorized",
          );
      });
    }
  });

  test("every documented operation declares the security of its access level", async () => {
    const security: Record<string, unknown[]> = {
      public: [],
      session: [{ sessionCookie: [] }],
      developer: [{ bearerToken: [] }],
      enterprise: [{ bearerToken: [] }],
      sandbox_admin: [{ sandboxAdminToken: [] }],
      staff: [{ staffSessionCookie: [] }],
    };
    const document = (await t.app.inject({ method: "GET", url: "/docs/json" })).json<{
      paths: Record<string, Record<string, { security?: unknown }>>;
    }>();
    let documented = 0;
    for (const request of requests.filter((entry) => entry.method !== "HEAD")) {
      const path = request.url.replace(/:([a-z_]+)/g, "{$1}");
      const operation = document.paths[path]?.[request.method.toLowerCase()];
      if (!operation) continue;
      documented += 1;
      // The event stream takes the website session too (from an allowed origin).
      const expected = request.sessionToo
        ? [...security[request.access!]!, { sessionCookie: [] }]
        : security[request.access!];
      assert.deepEqual(operation.security, expected, `${request.method} ${request.url}`);
    }
    // Every contract operation, the operators' /healthz, /readyz and /metrics, and the event stream.
    assert.equal(documented, OPERATIONS.length + 4, "every operation is in the document");
  });
});
