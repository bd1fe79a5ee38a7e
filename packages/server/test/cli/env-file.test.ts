import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { parseEnv } from "node:util";
import { CONFIG_VARIABLES, loadConfig, type ConfigSource } from "../../src/config.ts";
import { describeOrSkip, EMBEDDED_ONLY } from "../support/describe-or-skip.ts";

const MAIN = join(import.meta.dirname, "../../src/main.ts");
const ROOT = join(import.meta.dirname, "../../../..");

/**
 * `skinmarket serve` in `cwd`, with exactly `env` besides PATH (so without the test runner's mark,
 * as a person runs it): it stops at its configuration.
 */
function serveIn(cwd: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, "serve"], {
      cwd,
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describeOrSkip(".env", { skip: EMBEDDED_ONLY }, () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "skinmarket-env-"));
    // A value the configuration refuses, so that the command stops before opening anything and
    // its message shows which value it read.
    await writeFile(join(dir, ".env"), "# local settings\nPORT=from-dotenv\n");
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test("a value in .env in the working directory is used", async () => {
    const { code, stderr } = await serveIn(dir, {});
    assert.equal(code, 2, stderr);
    assert.match(stderr, /PORT: must be a whole number from 0 to 65535, got "from-dotenv"/);
  });

  test("commands the test suite starts ignore .env", async () => {
    const { code, stderr } = await serveIn(dir, { NODE_TEST_CONTEXT: "child-v8", SECURE_COOKIES: "maybe" });
    assert.equal(code, 2, stderr);
    assert.match(stderr, /SECURE_COOKIES: must be on or off, got "maybe"/, "PORT from .env was not read");
  });

  test("the environment wins over .env", async () => {
    const { code, stderr } = await serveIn(dir, { PORT: "from-environment" });
    assert.equal(code, 2, stderr);
    assert.match(stderr, /got "from-environment"/);
    assert.ok(!stderr.includes("from-dotenv"));
  });

  test(".env.example lists every variable, and its values are the defaults", async () => {
    const text = await readFile(join(ROOT, ".env.example"), "utf8");
    const uncommented = text.replace(/^# ([A-Z_]+=)/gm, "$1");
    const example = parseEnv(uncommented);
    for (const variable of Object.keys(CONFIG_VARIABLES)) assert.ok(variable in example, variable);
    const terminal = { stdoutIsTTY: false };
    assert.deepEqual(loadConfig(example as ConfigSource, terminal), loadConfig({}, terminal));
  });
});
