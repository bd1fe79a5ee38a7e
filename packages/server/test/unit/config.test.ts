import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ConfigError, loadConfig } from "../../src/config.ts";

describe("configuration", () => {
  test("defaults: port 8080 on loopback, embedded database, sandbox on", () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, "127.0.0.1");
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.sandbox, true);
    assert.equal(config.logLevel, "info");
  });

  test("a PostgreSQL server turns the sandbox off unless asked for", () => {
    assert.equal(loadConfig({ DATABASE_URL: "postgres://db/market" }).sandbox, false);
    assert.equal(loadConfig({ DATABASE_URL: "postgres://db/market", SANDBOX: "on" }).sandbox, true);
  });

  test("an invalid value stops the start with a message naming the variable", () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ PORT: "eighty" }, "PORT"],
      [{ PORT: "70000" }, "PORT"],
      [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
      [{ SANDBOX: "yes" }, "SANDBOX"],
      [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
      [{ SANDBOX_ADMIN_TOKEN: "short" }, "SANDBOX_ADMIN_TOKEN"],
      [{ SESSION_TTL_HOURS: "0" }, "SESSION_TTL_HOURS"],
    ];
    for (const [source, variable] of cases) {
      assert.throws(
        () => loadConfig(source),
        (error: unknown) =>
          error instanceof ConfigError && error.variable === variable && error.message.startsWith(variable),
      );
    }
  });
});
