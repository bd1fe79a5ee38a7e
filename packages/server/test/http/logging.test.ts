import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { describe, test } from "node:test";
import { pino } from "pino";
import { buildApp, LOG_REDACTIONS } from "../../src/app.ts";
import { OffsetClock } from "../../src/domain/clock.ts";
import { testPlatform } from "../support/test-context.ts";
import { openTestDatabase } from "../support/test-database.ts";

describe("structured logs", () => {
  test("requests are logged with their request id, and tokens, passwords and cookies are redacted", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split("\n").filter(Boolean));
        done();
      },
    });
    const logger = pino({ level: "info", redact: { paths: LOG_REDACTIONS, censor: "[redacted]" } }, sink);
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
      await app.inject({
        method: "POST",
        url: "/account/api/login",
        payload: { nickname: "logged", password: "secret-password-1" },
      });
      const text = lines.join("\n");
      assert.ok(lines.length > 0);
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
