import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { runSkinmarket, seededDataDir } from "../support/skinmarket-process.ts";
import { describeOrSkip, EMBEDDED_ONLY } from "../support/describe-or-skip.ts";

const PACKAGE = join(import.meta.dirname, "../../package.json");

/** What a user of any conventional command-line tool expects of `skinmarket`. */
describeOrSkip("skinmarket conventions", { skip: EMBEDDED_ONLY }, () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "skinmarket-conventions-"));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  test("--version and -V print the package's version", async () => {
    const { version } = JSON.parse(await readFile(PACKAGE, "utf8")) as { version: string };
    for (const flag of ["--version", "-V"]) {
      const result = await runSkinmarket([flag]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, `${version}\n`);
    }
  });

  test("an unknown command is refused by name, with a suggestion when one is close, exit 2", async () => {
    const unknown = await runSkinmarket(["frobnicate"]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^skinmarket: unknown command 'frobnicate'\n/);
    assert.doesNotMatch(unknown.stderr, /too many arguments/);
    const close = await runSkinmarket(["serv"]);
    assert.equal(close.code, 2);
    assert.match(close.stderr, /unknown command 'serv' \(Did you mean serve\?\)/);
    const admin = await runSkinmarket(["admin", "balance"]);
    assert.equal(admin.code, 2);
    assert.match(admin.stderr, /unknown command 'balance' \(Did you mean balances\?\)/);
  });

  test("under --json, usage errors are one JSON object on stderr", async () => {
    const missing = await runSkinmarket(["admin", "--json", "balances"]);
    assert.equal(missing.code, 2);
    assert.deepEqual(JSON.parse(missing.stderr), {
      error: { code: "usage", message: "missing required argument 'user_id'" },
    });
    const unknown = await runSkinmarket(["admin", "--json", "frobnicate"]);
    assert.equal(unknown.code, 2);
    assert.equal((JSON.parse(unknown.stderr) as { error: { code: string } }).error.code, "usage");
    const ours = await runSkinmarket([
      "admin",
      "--json",
      "--admin-token",
      "sma_0000000000000000",
      "clock",
      "advance",
      "soon",
    ]);
    assert.equal(ours.code, 2);
    assert.deepEqual(JSON.parse(ours.stderr), {
      error: { code: "usage", message: 'duration "soon": use seconds or a number with s, m, h or d' },
    });
    const config = await runSkinmarket(["migrate", "--json", "--log-level", "chatty"]);
    assert.equal(config.code, 2);
    assert.equal((JSON.parse(config.stderr) as { error: { code: string } }).error.code, "configuration");
  });

  test("a subcommand's --help shows the options it inherits", async () => {
    const help = await runSkinmarket(["admin", "balances", "--help"]);
    assert.equal(help.code, 0);
    for (const option of ["--url", "--admin-token", "--data-dir", "--json", "SKINMARKET_URL"])
      assert.ok(help.stdout.includes(option), `${option} in:\n${help.stdout}`);
  });

  test("admin --help names every admin command, in its list and its description", async () => {
    const help = await runSkinmarket(["admin", "--help"]);
    assert.equal(help.code, 0);
    const [description, commands] = help.stdout.split("Commands:");
    for (const command of [
      "user",
      "token",
      "deposit",
      "balances",
      "clock",
      "platform",
      "grant",
      "offers",
      "buy-orders",
    ])
      assert.match(commands!, new RegExp(`^  ${command}\\b`, "m"), command);
    for (const word of ["platform accounts", "items", "trade offers", "buy orders"])
      assert.ok(description!.replace(/\s+/g, " ").includes(word), word);
    const user = await runSkinmarket(["admin", "user", "--help"]);
    for (const command of ["create", "list", "show"])
      assert.match(user.stdout, new RegExp(`^  ${command}\\b`, "m"));
  });

  test("migrate prints one human line naming what it applied, and with --json only its JSON report", async () => {
    const human = await runSkinmarket(["migrate", "--data-dir", dataDir]);
    assert.equal(human.code, 0, human.stderr);
    const database = `PGlite in ${join(dataDir, "pglite")}`;
    const applied =
      /^(.*): applied (\d+) migrations \(0001-foundation to (\d{4}-[a-z0-9-]+)\); schema is up to date\n$/.exec(
        human.stdout,
      );
    assert.ok(applied, human.stdout);
    assert.equal(applied[1], database);
    assert.equal(Number(applied[2]), Number(applied[3]!.slice(0, 4)), "every migration, numbered from 1");
    assert.equal(human.stderr, "");
    const again = await runSkinmarket(["migrate", "--data-dir", dataDir]);
    assert.equal(again.stdout, `${database}: schema was already up to date\n`);
    const json = await runSkinmarket(["migrate", "--data-dir", dataDir, "--json"]);
    assert.deepEqual(JSON.parse(json.stdout), { database, migrated: true, applied: [] });
  });

  test("demo says each step on stderr from the start, before the build's progress", async (t) => {
    // A data dir whose database is migrated and holds the catalog, as after a first start: the
    // steps are said all the same, and nothing is loaded again.
    const demoDir = await seededDataDir("skinmarket-conventions-demo-");
    t.after(() => rm(demoDir, { recursive: true, force: true }));
    const result = await runSkinmarket([
      "demo",
      "--data-dir",
      demoDir,
      "--listings",
      "20",
      "--traders",
      "2",
      "--days",
      "1",
    ]);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stderr.split("\n");
    assert.equal(lines[0], `demo: opening the embedded database in ${demoDir}`);
    assert.equal(lines[1], "demo: loading the catalog");
    assert.equal(lines[2], "demo: building 20 listings for 2 traders (seed 1)");
    assert.ok(lines.length > 4, "the build's own progress follows");
  });
});
