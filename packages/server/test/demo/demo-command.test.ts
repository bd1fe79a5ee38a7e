import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { runOnServer, urlOfDatabase } from "../../src/storage/postgres-admin.ts";
import { runSkinmarket } from "../support/skinmarket-process.ts";

/** The demo command on the configuration each test names, nothing of the runner's own. */
function run(args: string[]) {
  return runSkinmarket(args, { env: { DATABASE_URL: "", SECRET_KEY: "", DATA_DIR: "" } });
}

interface Summary {
  database: string;
  seed: number;
  listings: number;
  pre_sell_listings: number;
  goods_on_sale: number;
  trades: number;
  buy_orders: number;
  days: number;
  traders: number;
  credentials_file: string;
  busiest_goods: Array<{ goods_id: number; market_hash_name: string; trades: number }>;
  example_trader: { user_id: number; nickname: string; access_level: string; token: string };
  milliseconds: Record<string, number>;
}

/** `skinmarket demo` as an operator runs it, into the embedded database or TEST_DATABASE_URL's server. */
describe("skinmarket demo", () => {
  let dataDir: string;
  let target: string[];
  let dropDatabase = async () => {};

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "skinmarket-demo-"));
    target = ["--data-dir", dataDir];
    const server = process.env.TEST_DATABASE_URL;
    if (server) {
      const name = `skinmarket_demo_${process.pid}_${randomBytes(4).toString("hex")}`;
      await runOnServer(server, `CREATE DATABASE ${name}`);
      target.push("--database-url", urlOfDatabase(server, name));
      dropDatabase = async () => {
        await runOnServer(server, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      };
    }
  });

  after(async () => {
    await dropDatabase();
    await rm(dataDir, { recursive: true, force: true });
  });

  test("--help names every option", async () => {
    const help = await run(["demo", "--help"]);
    assert.equal(help.code, 0);
    for (const option of ["--seed", "--listings", "--traders", "--days", "--add", "--json", "--database-url"])
      assert.ok(help.stdout.includes(option), option);
  });

  test("builds into an empty database, prints a JSON summary, and writes the credentials", async () => {
    const built = await run([
      "demo",
      ...target,
      "--listings",
      "600",
      "--traders",
      "4",
      "--days",
      "7",
      "--json",
    ]);
    assert.equal(built.code, 0, built.stderr);
    assert.equal(built.stderr, "", "no progress with --json");
    const summary = JSON.parse(built.stdout) as Summary;
    assert.equal(summary.seed, 1);
    assert.equal(summary.listings, 600);
    assert.equal(summary.goods_on_sale, 330);
    assert.equal(summary.trades, 180);
    assert.equal(summary.buy_orders, 60);
    assert.equal(summary.days, 7);
    assert.equal(summary.traders, 4);
    assert.equal(summary.example_trader.access_level, "enterprise");
    assert.match(summary.example_trader.token, /^smk_[A-Za-z0-9_-]{43}$/);
    assert.ok(summary.milliseconds.total! > 0 && summary.milliseconds.listings! >= 0);
    assert.equal(summary.credentials_file, join(dataDir, "demo-traders.json"));
    assert.equal(summary.busiest_goods.length, 5);
    const counts = summary.busiest_goods.map((goods) => goods.trades);
    assert.deepEqual(
      counts,
      [...counts].sort((a, b) => b - a),
    );
    assert.ok(counts[0]! >= 2, "the busiest goods traded more than once");
    const file = await stat(summary.credentials_file);
    assert.equal(file.mode & 0o777, 0o600);
    const credentials = JSON.parse(await readFile(summary.credentials_file, "utf8")) as {
      traders: Array<{ user_id: number; token: string; password: string }>;
    };
    assert.equal(credentials.traders.length, 4);
    assert.equal(credentials.traders[0]!.token, summary.example_trader.token);
    assert.ok(credentials.traders.every((trader) => trader.password.length === 20));
  });

  test("refuses with exit code 2 when the market holds data, and on bad counts", async () => {
    const again = await run(["demo", ...target, "--listings", "600", "--json"]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /already holds 4 users/);
    assert.equal(again.stdout, "");
    for (const bad of [
      ["--listings", "many"],
      ["--traders", "1"],
      ["--days", "0"],
      ["--traders", "1000001"],
      ["--credentialed", "0"],
      ["--listings", "10000001"],
    ]) {
      const refused = await run(["demo", ...target, ...bad]);
      assert.equal(refused.code, 2, bad.join(" "));
      assert.match(refused.stderr, new RegExp(bad[0]!));
    }
  });

  test("--add builds beside the existing world, with progress on stderr", async () => {
    const added = await run([
      "demo",
      ...target,
      "--add",
      "--seed",
      "2",
      "--listings",
      "100",
      "--traders",
      "2",
    ]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stderr, /^demo: listings 100% \(100\/100, [\d,]+\/s, \d+\.\d s\)$/m);
    assert.match(added.stderr, /^demo: trade plans 100% \(30\/30, /m);
    assert.match(added.stdout, /100 listings of 55 goods/);
    assert.match(
      added.stdout,
      /curl -H 'Authorization: Bearer smk_[^']+' '[^']+\/api\/market\/items\?game=cs2'/,
    );
    assert.match(added.stdout, /most traded: .+ \(goods_id \d+, \d+ trades\)/);
    const credentials = JSON.parse(await readFile(join(dataDir, "demo-traders.json"), "utf8")) as {
      traders: Array<{ user_id: number }>;
    };
    assert.deepEqual(
      credentials.traders.map((trader) => trader.user_id),
      [1001, 1002, 1003, 1004, 1005, 1006],
    );
  });

  test("traders beyond --credentialed have no credentials, and the file says which they are", async () => {
    const added = await run([
      "demo",
      ...target,
      "--add",
      "--seed",
      "3",
      "--listings",
      "50",
      "--traders",
      "4",
      "--credentialed",
      "1",
      "--json",
    ]);
    assert.equal(added.code, 0, added.stderr);
    const summary = JSON.parse(added.stdout) as Summary & { credentialed_traders: number };
    assert.equal(summary.traders, 4);
    assert.equal(summary.credentialed_traders, 1);
    const credentials = JSON.parse(await readFile(join(dataDir, "demo-traders.json"), "utf8")) as {
      traders: Array<{ user_id: number }>;
      traders_without_credentials: Array<{ first_user_id: number; last_user_id: number; count: number }>;
    };
    assert.deepEqual(
      credentials.traders.map((trader) => trader.user_id),
      [1001, 1002, 1003, 1004, 1005, 1006, 1007],
    );
    assert.deepEqual(
      credentials.traders_without_credentials.map(({ first_user_id, last_user_id, count }) => ({
        first_user_id,
        last_user_id,
        count,
      })),
      [{ first_user_id: 1008, last_user_id: 1010, count: 3 }],
    );
  });
});
