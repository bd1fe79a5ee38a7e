import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { describeOrSkip, EMBEDDED_ONLY } from "../support/describe-or-skip.ts";
import { runSkinmarket, seededDataDir, startSkinmarket } from "../support/skinmarket-process.ts";

/** `skinmarket simulate` against a running server, and a restart that resumes the simulation. */
describeOrSkip("skinmarket simulate", { skip: EMBEDDED_ONLY }, () => {
  let dataDir: string;
  let server: ChildProcess | undefined;
  const simulate = (args: string[]) => runSkinmarket(["simulate", ...args], { env: { DATA_DIR: dataDir } });

  before(async () => {
    dataDir = await seededDataDir("skinmarket-simulate-");
    server = (await startSkinmarket(["--port", "0", "--data-dir", dataDir], { DATABASE_URL: "" })).server;
  });

  after(async () => {
    if (server?.exitCode === null) server.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
  });

  test("--help names the three commands", async () => {
    const help = await runSkinmarket(["simulate", "--help"]);
    assert.equal(help.code, 0, help.stderr);
    for (const command of ["start", "stop", "status", "scenarios", "scenario", "end-scenario"])
      assert.match(help.stdout, new RegExp(`\\b${command}\\b`));
    const startHelp = await runSkinmarket(["simulate", "start", "--help"]);
    for (const flag of ["--seed", "--rate", "--goods", "--clock-speed", "--never-deliver"])
      assert.ok(startHelp.stdout.includes(flag), flag);
  });

  test("a malformed flag is a usage error (exit 2); a setting out of range names the field", async () => {
    const usage = await simulate(["start", "--goods", "many"]);
    assert.equal(usage.code, 2, usage.stderr);
    assert.match(usage.stderr, /--goods/);
    const refused = await simulate(["start", "--rate", "1000"]);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /rate/);
  });

  test("start, status and stop; a restarted server resumes a running simulation", async () => {
    const status0 = await simulate(["status"]);
    assert.equal(status0.code, 0, status0.stderr);
    assert.equal(status0.stdout, "no simulation was started\n");
    const started = await simulate([
      "start",
      "--seed",
      "5",
      "--goods",
      "2",
      "--makers",
      "1",
      "--noise",
      "1",
      "--snipers",
      "0",
      "--rate",
      "0.01",
      "--json",
    ]);
    assert.equal(started.code, 0, started.stderr);
    const answer = JSON.parse(started.stdout) as { running: boolean; agents: unknown[]; goods: unknown[] };
    assert.equal(answer.running, true);
    assert.equal(answer.agents.length, 2);
    assert.equal(answer.goods.length, 2);

    server!.kill("SIGTERM");
    await new Promise((resolve) => server!.once("exit", resolve));
    server = (await startSkinmarket(["--port", "0", "--data-dir", dataDir], { DATABASE_URL: "" })).server;
    const resumed = JSON.parse((await simulate(["status", "--json"])).stdout) as {
      running: boolean;
      stepping: boolean;
    };
    assert.equal(resumed.running, true);
    assert.equal(resumed.stepping, true);

    const stopped = await simulate(["stop"]);
    assert.equal(stopped.code, 0, stopped.stderr);
    assert.match(stopped.stdout, /^simulation seed 5: stopped, \d+ steps at 0.01\/s/);
  });

  test("scenarios: list the built-ins and yours, run one from a file and one by name, see its progress, end it", async () => {
    const help = await runSkinmarket(["simulate", "scenario", "--help"]);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /<name\|file>/);
    // The server's scenarios folder (DATA_DIR/scenarios by default), read at each ask.
    const folder = join(dataDir, "scenarios");
    await mkdir(folder, { recursive: true });
    await writeFile(
      join(folder, "my-day.yaml"),
      "name: my-day\ndescription: An outage in the evening.\neffects:\n  - type: platform_outage\n    at: 8h\n    for: 30m\n",
    );
    await writeFile(
      join(folder, "broken-day.yaml"),
      "name: broken-day\neffects:\n  - type: rollback\n    share: 3\n",
    );
    const listed = await simulate(["scenarios"]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^buy-order-wall +built-in /m);
    assert.match(listed.stdout, /^platform-outage +built-in +65 min/m);
    assert.match(listed.stdout, /^my-day +yours +510 min {2}An outage in the evening\.$/m);
    assert.match(
      listed.stdout,
      /^broken-day +yours +invalid {2}broken-day\.yaml: effects\.0\.share: must be <= 1$/m,
    );
    assert.ok(listed.stdout.includes(`your scenarios: ${folder}/<name>.yaml`), listed.stdout);

    const started = await simulate([
      "start",
      "--seed",
      "6",
      "--goods",
      "2",
      "--makers",
      "1",
      "--noise",
      "1",
      "--snipers",
      "0",
      "--rate",
      "0.01",
    ]);
    assert.equal(started.code, 0, started.stderr);

    const bad = join(dataDir, "bad.yaml");
    await writeFile(bad, "name: bad-one\neffects:\n  - type: rollback\n    share: 3\n");
    const refused = await simulate(["scenario", bad]);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /scenario\.effects\.0\.share/);
    const unknown = await simulate(["scenario", "no-such-thing"]);
    assert.equal(unknown.code, 1, unknown.stderr);
    assert.match(unknown.stderr, /no scenario no-such-thing: it is not among the built-in scenarios \(/);
    const broken = await simulate(["scenario", "broken-day"]);
    assert.equal(broken.code, 1, broken.stderr);
    assert.match(
      broken.stderr,
      /the scenario file broken-day\.yaml is invalid: effects\.0\.share: must be <= 1/,
    );

    const file = join(dataDir, "slow-outage.yaml");
    await writeFile(
      file,
      "# an outage in a day\nname: slow-outage\ndescription: The platform goes down tomorrow.\neffects:\n  - type: platform_outage\n    at: 1d\n    for: 2h\n",
    );
    const run = await simulate(["scenario", file, "--json"]);
    assert.equal(run.code, 0, run.stderr);
    const status = JSON.parse(run.stdout) as { scenario: { name: string; duration_seconds: number } };
    assert.equal(status.scenario.name, "slow-outage");
    assert.equal(status.scenario.duration_seconds, 86_400 + 7200);
    const shown = await simulate(["status"]);
    assert.match(shown.stdout, /scenario slow-outage: \d+ %/);
    assert.match(shown.stdout, /platform_outage \(pending\)/);
    const ended = await simulate(["end-scenario"]);
    assert.equal(ended.code, 0, ended.stderr);
    assert.match(ended.stdout, /scenario slow-outage: finished/);

    const byName = await simulate(["scenario", "my-day"]);
    assert.equal(byName.code, 0, byName.stderr);
    assert.match(byName.stdout, /scenario my-day: \d+ %/);
    assert.equal((await simulate(["end-scenario"])).code, 0);
    assert.equal((await simulate(["stop"])).code, 0);
  });
});
