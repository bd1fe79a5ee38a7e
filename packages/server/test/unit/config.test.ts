import assert from "node:assert/strict";
import { resolve } from "node:path";
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

  test("the fee and the price ceiling are read as exact hundredths", () => {
    const config = loadConfig({ SELLER_FEE_PERCENT: "1.25", MAX_LISTING_PRICE: "5000.50" });
    assert.equal(config.sellerFeeBasisPoints, 125);
    assert.equal(config.maxListingPriceFen, 500050);
    assert.equal(loadConfig({}).sellerFeeBasisPoints, 250);
  });

  test("logs are pretty on a terminal and JSON elsewhere, unless LOG_FORMAT says", () => {
    assert.equal(loadConfig({}, { stdoutIsTTY: true }).logFormat, "pretty");
    assert.equal(loadConfig({}, { stdoutIsTTY: false }).logFormat, "json");
    assert.equal(loadConfig({ LOG_FORMAT: "json" }, { stdoutIsTTY: true }).logFormat, "json");
    assert.equal(loadConfig({ LOG_FORMAT: "pretty" }, { stdoutIsTTY: false }).logFormat, "pretty");
  });

  test("CORS is off unless CORS_ORIGINS lists origins, or * alone", () => {
    assert.deepEqual(loadConfig({}).corsOrigins, []);
    assert.deepEqual(
      loadConfig({ CORS_ORIGINS: "http://localhost:5173, https://dash.example:8443/" }).corsOrigins,
      ["http://localhost:5173", "https://dash.example:8443"],
    );
    assert.deepEqual(loadConfig({ CORS_ORIGINS: "*" }).corsOrigins, ["*"]);
  });

  test("the user's scenarios are in DATA_DIR/scenarios unless SCENARIOS_DIR says where", () => {
    assert.equal(loadConfig({}).scenariosDir, resolve("data/scenarios"));
    assert.equal(loadConfig({ DATA_DIR: "/srv/market" }).scenariosDir, "/srv/market/scenarios");
    assert.equal(
      loadConfig({ DATA_DIR: "/srv/market", SCENARIOS_DIR: "days" }).scenariosDir,
      resolve("days"),
    );
  });

  test("the website draws placeholders unless IMAGE_BASE_URL names an http(s) base", () => {
    assert.equal(loadConfig({}).imageBaseUrl, undefined);
    assert.equal(
      loadConfig({ IMAGE_BASE_URL: "https://cdn.example/cs2/" }).imageBaseUrl,
      "https://cdn.example/cs2",
    );
  });

  test("event streams: 20 per token or session and 100 per address unless STREAM_MAX_PER_* says", () => {
    const defaults = loadConfig({});
    assert.deepEqual([defaults.streamMaxPerCredential, defaults.streamMaxPerAddress], [20, 100]);
    const set = loadConfig({ STREAM_MAX_PER_CREDENTIAL: "5", STREAM_MAX_PER_ADDRESS: "1000" });
    assert.deepEqual([set.streamMaxPerCredential, set.streamMaxPerAddress], [5, 1000]);
  });

  test("no proxy is trusted unless TRUST_PROXY says true or lists proxies' addresses and CIDRs", () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: "false" }).trustProxy, false);
    assert.equal(loadConfig({ TRUST_PROXY: "true" }).trustProxy, true);
    assert.deepEqual(
      loadConfig({ TRUST_PROXY: "10.0.0.0/8, 192.0.2.7,::1, fd00::/8, loopback" }).trustProxy,
      ["10.0.0.0/8", "192.0.2.7", "::1", "fd00::/8", "loopback"],
    );
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
      [{ SELLER_FEE_PERCENT: "2.555" }, "SELLER_FEE_PERCENT"],
      [{ SELLER_FEE_PERCENT: "60" }, "SELLER_FEE_PERCENT"],
      [{ MAX_LISTING_PRICE: "0" }, "MAX_LISTING_PRICE"],
      [{ EVENT_RETENTION_DAYS: "6" }, "EVENT_RETENTION_DAYS"],
      [{ SECRET_KEY: "abc" }, "SECRET_KEY"],
      [{ LOG_FORMAT: "text" }, "LOG_FORMAT"],
      [{ CORS_ORIGINS: "localhost:5173" }, "CORS_ORIGINS"],
      [{ CORS_ORIGINS: "https://dash.example/app" }, "CORS_ORIGINS"],
      [{ CORS_ORIGINS: "*, https://dash.example" }, "CORS_ORIGINS"],
      [{ IMAGE_BASE_URL: "cdn.example" }, "IMAGE_BASE_URL"],
      [{ IMAGE_BASE_URL: "ftp://cdn.example" }, "IMAGE_BASE_URL"],
      [{ IMAGE_BASE_URL: "https://cdn.example/?size=2" }, "IMAGE_BASE_URL"],
      [{ STREAM_MAX_PER_CREDENTIAL: "0" }, "STREAM_MAX_PER_CREDENTIAL"],
      [{ STREAM_MAX_PER_ADDRESS: "many" }, "STREAM_MAX_PER_ADDRESS"],
      [{ TRUST_PROXY: "yes" }, "TRUST_PROXY"],
      [{ TRUST_PROXY: "1" }, "TRUST_PROXY"],
      [{ TRUST_PROXY: "10.0.0.0/33" }, "TRUST_PROXY"],
      [{ TRUST_PROXY: "10.0.0.1, proxy.example" }, "TRUST_PROXY"],
    ];
    for (const [source, variable] of cases) {
      assert.throws(
        () => loadConfig(source),
        (error: unknown) =>
          error instanceof ConfigError && error.variable === variable && error.message.startsWith(variable),
      );
    }
  });
  test("limits: on by default, rates as N/s, N/m or N/h, overrides only of official operations", () => {
    const defaults = loadConfig({});
    assert.equal(defaults.limits, true);
    assert.equal(defaults.redisUrl, undefined);
    assert.deepEqual(defaults.defaultRate, { points: 20, seconds: 1 });
    assert.deepEqual(defaults.rateOverrides, {});
    const custom = loadConfig({
      LIMITS: "off",
      REDIS_URL: "redis://127.0.0.1:6379/2",
      RATE_LIMIT_DEFAULT: "100/m",
      RATE_LIMITS: "listPurchaseOrders=50/s, getBalance=600/h",
    });
    assert.equal(custom.limits, false);
    assert.equal(custom.redisUrl, "redis://127.0.0.1:6379/2");
    assert.deepEqual(custom.defaultRate, { points: 100, seconds: 60 });
    assert.deepEqual(custom.rateOverrides, {
      listPurchaseOrders: { points: 50, seconds: 1 },
      getBalance: { points: 600, seconds: 3600 },
    });
    assert.throws(() => loadConfig({ RATE_LIMIT_DEFAULT: "0/s" }), /^Error: RATE_LIMIT_DEFAULT: /);
    assert.throws(() => loadConfig({ RATE_LIMITS: "noSuchOperation=1/s" }), /RATE_LIMITS: "noSuchOperation"/);
    assert.throws(
      () => loadConfig({ RATE_LIMITS: "sandboxReset=1/s" }),
      /not the id of an official operation/,
    );
    assert.throws(() => loadConfig({ REDIS_URL: "http://x" }), /REDIS_URL: must be a redis:/);
  });
});
