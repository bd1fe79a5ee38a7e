import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { describe, test } from "node:test";
import { buildApp } from "../../src/app.ts";
import { OffsetClock } from "../../src/domain/clock.ts";
import { createLogger } from "../../src/server.ts";
import { testPlatform } from "../support/test-context.ts";
import { openTestDatabase } from "../support/test-database.ts";

function capture(options: Partial<Parameters<typeof createLogger>[0]> = {}) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, logger: createLogger({ logLevel: "info", ...options }, sink) };
}

async function appLogging(options: Partial<Parameters<typeof createLogger>[0]> = {}) {
  const { lines, logger } = capture(options);
  const database = await openTestDatabase();
  const clock = new OffsetClock();
  const app = await buildApp({ database, clock, ...testPlatform(), logger });
  return {
    app,
    lines,
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    async close() {
      await app.close();
      await database.close();
    },
  };
}

describe("structured logs", () => {
  test("the service's logger redacts credentials wherever a log call puts them", () => {
    const { lines, logger } = capture();
    logger.info(
      {
        req: { headers: { authorization: "Bearer smk_secret-token", cookie: "session=secret-session" } },
        password: "secret-password",
        body: { password: "nested-password", token: "nested-token", platform_cookies: "[secret-cookie]" },
      },
      "a request",
    );
    const entry = JSON.parse(lines[0]!);
    assert.equal(entry.req.headers.authorization, "[redacted]");
    assert.equal(entry.req.headers.cookie, "[redacted]");
    assert.equal(entry.password, "[redacted]");
    assert.equal(entry.body.password, "[redacted]");
    assert.equal(entry.body.token, "[redacted]");
    assert.equal(entry.body.platform_cookies, "[redacted]");
    for (const secret of ["secret-token", "secret-session", "secret-password", "nested", "secret-cookie"]) {
      assert.ok(!lines[0]!.includes(secret), secret);
    }
  });

  test("requests are logged as JSON with their request id, and no credential reaches the log", async () => {
    const { lines, logger } = capture();
    const database = await openTestDatabase();
    const clock = new OffsetClock();
    const adminToken = "sma_logging-test-admin-token-000";
    const app = await buildApp({
      database,
      clock,
      ...testPlatform(),
      sandbox: { clock, adminToken },
      logger,
    });
    try {
      const created = await app.inject({
        method: "POST",
        url: "/sandbox/users",
        headers: { authorization: `Bearer ${adminToken}`, "x-request-id": "log-test-1" },
        payload: { nickname: "logged", password: "secret-password-1" },
      });
      const token = created.json<{ token: string }>().token;
      await app.inject({
        method: "GET",
        url: "/api/market/developer/balance",
        headers: { authorization: `Bearer ${token}`, cookie: "session=abcdef" },
      });
      const text = lines.join("\n");
      assert.ok(
        lines.every((line) => JSON.parse(line)),
        "every line is JSON",
      );
      assert.match(text, /"reqId":"log-test-1"/);
      for (const secret of [adminToken, token, "secret-password-1", "abcdef"]) {
        assert.ok(!text.includes(secret), `${secret.slice(0, 8)}... stays out of the log`);
      }
    } finally {
      await app.close();
      await database.close();
    }
  });

  test("credentials a client puts in a query string are redacted from the request log", async () => {
    const t = await appLogging();
    try {
      const secrets = [
        "query-token-1",
        "query-access-2",
        "query-api-key-3",
        "query-session-4",
        "query-pass-5",
      ];
      const url =
        `/api/market/developer/balance?token=${secrets[0]}&access_token=${secrets[1]}` +
        `&api-key=${secrets[2]}&session=${secrets[3]}&Password=${secrets[4]}&page_num=2`;
      assert.equal((await t.app.inject({ method: "GET", url })).statusCode, 401);
      const text = t.lines.join("\n");
      for (const secret of secrets) assert.ok(!text.includes(secret), `${secret} stays out of the log`);
      const incoming = t.entries().find((entry) => entry.msg === "incoming request") as {
        req: { url: string; method: string };
      };
      assert.equal(
        incoming.req.url,
        "/api/market/developer/balance?token=[redacted]&access_token=[redacted]&api-key=[redacted]" +
          "&session=[redacted]&Password=[redacted]&page_num=2",
      );
      assert.equal(incoming.req.method, "GET");
    } finally {
      await t.close();
    }
  });

  test("health, readiness and metrics probes are not logged at info, only at debug", async () => {
    for (const logLevel of ["info", "debug"] as const) {
      const t = await appLogging({ logLevel });
      try {
        for (const url of ["/healthz", "/readyz", "/metrics", "/healthz?probe=1"])
          assert.equal(
            (await t.app.inject({ method: "GET", url })).statusCode,
            url === "/readyz" ? 503 : 200,
          );
        const probeLines = t.entries().filter((entry) => entry.reqId !== undefined);
        if (logLevel === "info") assert.deepEqual(probeLines, []);
        else {
          assert.equal(probeLines.length, 8, "one line in, one line out, per probe");
          assert.ok(probeLines.every((entry) => entry.level === 20));
        }
      } finally {
        await t.close();
      }
    }
  });

  test("an error answer's log line carries its code and message in either envelope, without the credential", async () => {
    const t = await appLogging();
    try {
      const wrongToken = "smk_not-a-real-token-0123456789";
      await t.app.inject({
        method: "GET",
        url: "/api/market/developer/balance",
        headers: { authorization: `Bearer ${wrongToken}`, "x-request-id": "official-401" },
      });
      await t.app.inject({
        method: "GET",
        url: "/account/api/user/info",
        headers: { "x-request-id": "internal-401" },
      });
      await t.app.inject({
        method: "GET",
        url: "/api/market/goods/info?game=csgo&goods_id=x",
        headers: { "x-request-id": "bad" },
      });
      await t.app.inject({ method: "GET", url: "/healthz", headers: { "x-request-id": "fine" } });
      const completed = (reqId: string) =>
        t.entries().find((entry) => entry.reqId === reqId && entry.msg === "request completed")!;
      const official = completed("official-401");
      assert.equal(official.level, 30);
      assert.deepEqual(official.res, { statusCode: 401 });
      assert.equal((official.failure as { code: string }).code, "Unauthorized");
      assert.match((official.failure as { msg: string }).msg, /\S/);
      const internal = completed("internal-401");
      assert.equal((internal.failure as { code: string }).code, "Login Required");
      assert.match((internal.failure as { msg: string }).msg, /\S/);
      const invalid = completed("bad");
      assert.equal((invalid.failure as { code: string }).code, "Invalid Argument");
      assert.match((invalid.failure as { msg: string }).msg, /goods_id/);
      assert.equal(
        t.entries().find((entry) => entry.reqId === "fine"),
        undefined,
      );
      assert.ok(!JSON.stringify(t.entries()).includes(wrongToken), "the refused token stays out of the log");
    } finally {
      await t.close();
    }
  });

  test("the pretty format writes a person's lines, redacted like the JSON ones", () => {
    const { lines, logger } = capture({ logFormat: "pretty" });
    logger.info(
      { path: "/data/sandbox-admin-token", token: "secret-token-value" },
      "sandbox admin token in /data",
    );
    const text = lines.join("\n");
    assert.ok(!lines[0]!.startsWith("{"), text);
    assert.match(lines[0]!, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: sandbox admin token in \/data$/);
    assert.match(text, /path: "\/data\/sandbox-admin-token"/);
    assert.ok(!text.includes("secret-token-value"));
  });

  test("in the pretty format a request's lines say method, path, status and why, after its request id", async () => {
    const t = await appLogging({ logFormat: "pretty" });
    try {
      await t.app.inject({
        method: "GET",
        url: "/api/market/developer/balance",
        headers: { "x-request-id": "pretty-1" },
      });
      const text = t.lines.join("\n");
      assert.match(text, /INFO: \[pretty-1\] incoming request: GET \/api\/market\/developer\/balance\n/);
      assert.match(text, /INFO: \[pretty-1\] request completed: 401 in \d+ ms \(Unauthorized: .+\)\n?/);
      assert.ok(!text.includes("statusCode"), "the folded fields are not shown again");
    } finally {
      await t.close();
    }
  });
});
