import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { describe, test } from "node:test";
import { buildApp } from "../../src/app.ts";
import { OffsetClock } from "../../src/domain/clock.ts";
import { createLogger } from "../../src/server.ts";
import { testPlatform } from "../support/test-context.ts";
import { openTestDatabase } from "../support/test-database.ts";

function capture() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  return { lines, logger: createLogger({ logLevel: "info" }, sink) };
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
});
