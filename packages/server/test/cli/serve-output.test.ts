import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { describeOrSkip, EMBEDDED_ONLY } from "../support/describe-or-skip.ts";
import { seededDataDir } from "../support/skinmarket-process.ts";

const MAIN = join(import.meta.dirname, "../../src/main.ts");

interface Start {
  stdout: string;
  stderr: string;
}

/** Starts `serve` until it says it serves, then stops it with SIGTERM and collects both streams. */
function serveOnce(dataDir: string, env: Record<string, string>): Promise<Start> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN, "serve", "--port", "0", "--data-dir", dataDir], {
      env: {
        ...process.env,
        DATABASE_URL: "",
        SANDBOX_ADMIN_TOKEN: "",
        DEMO: "off",
        LOG_LEVEL: "info",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk;
      if (stdout.includes("skinmarket is serving") && child.exitCode === null) child.kill("SIGTERM");
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (!stdout.includes("skinmarket is serving"))
        reject(new Error(`serve ended with ${code} before serving:\n${stdout}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

/** What `serve` writes where: stdout is the log, a person's notes go to stderr. */
describeOrSkip("serve's output", { skip: EMBEDDED_ONLY }, () => {
  let dataDir: string;
  let first: Start;
  let second: Start;
  let token: string;
  before(async () => {
    dataDir = await seededDataDir("skinmarket-output-");
    first = await serveOnce(dataDir, { LOG_FORMAT: "json" });
    token = (await readFile(join(dataDir, "sandbox-admin-token"), "utf8")).trim();
    // As the demo market leaves it; only its presence is told.
    await writeFile(join(dataDir, "demo-traders.json"), '{"traders":[]}\n');
    second = await serveOnce(dataDir, { LOG_FORMAT: "pretty" });
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  test("in json mode stdout carries only JSON log lines; the new admin token is shown once on stderr", () => {
    const lines = first.stdout.split("\n").filter(Boolean);
    assert.ok(lines.length > 3);
    for (const line of lines) assert.doesNotThrow(() => JSON.parse(line), `not a JSON line: ${line}`);
    assert.match(token, /^sma_/);
    assert.ok(!first.stdout.includes(token), "the token stays out of the log");
    assert.equal(first.stderr.split(token).length - 1, 1, "the token is shown once, on stderr");
    assert.match(first.stdout, /"path":"[^"]*sandbox-admin-token"[^\n]*sandbox admin token generated/);
  });

  test("a restart tells where the admin token and the demo traders' credentials are, never the token", () => {
    assert.ok(!second.stdout.includes(token) && !second.stderr.includes(token));
    assert.ok(second.stdout.includes(`sandbox admin token in ${join(dataDir, "sandbox-admin-token")}`));
    assert.ok(second.stdout.includes(`demo traders' credentials in ${join(dataDir, "demo-traders.json")}`));
  });

  test("in pretty mode the log is lines for a person, not JSON", () => {
    const lines = second.stdout.split("\n").filter(Boolean);
    assert.ok(
      lines.every((line) => !line.startsWith("{")),
      second.stdout,
    );
    assert.match(second.stdout, /INFO.*skinmarket is serving/);
  });
});
